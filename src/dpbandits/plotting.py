"""One seaborn style for every figure of the project, and the figure writers."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import seaborn as sns  # noqa: E402

from dpbandits.io import atomic_path  # noqa: E402

__all__ = ["apply_style", "save_figure", "algorithm_palette"]


def apply_style() -> None:
    sns.set_theme(context="paper", style="whitegrid", palette="colorblind", font_scale=1.1)
    plt.rcParams.update({"figure.dpi": 110, "savefig.dpi": 200, "savefig.bbox": "tight",
                         "pdf.fonttype": 42, "axes.titleweight": "bold",
                         # Reproducible PDFs: no creation date in the metadata.
                         "svg.hashsalt": "dpbandits"})


def algorithm_palette(names: list[str]) -> dict[str, tuple]:
    colours = sns.color_palette("colorblind", n_colors=max(len(names), 3))
    return dict(zip(names, colours, strict=False))


def save_figure(fig, pdf_path: str | Path, png_path: str | Path) -> None:
    """Write the figure as PDF and PNG (atomically, deterministic PDF metadata)."""
    with atomic_path(pdf_path) as tmp:
        fig.savefig(tmp, format="pdf", metadata={"CreationDate": None, "Creator": "dpbandits"})
    with atomic_path(png_path) as tmp:
        fig.savefig(tmp, format="png", metadata={"Software": "dpbandits"})
    plt.close(fig)
