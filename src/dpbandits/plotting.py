"""One seaborn style for every figure of the project, and the figure writers."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import seaborn as sns  # noqa: E402

from dpbandits.io import atomic_path  # noqa: E402

__all__ = ["apply_style", "save_figure", "algorithm_palette", "plot_scaling"]


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


def plot_scaling(figure, pdf_path: str | Path, png_path: str | Path) -> None:
    """A check's scaling figure (:class:`dpbandits.checks.ScalingFigure`) on log-log axes:
    measured means with 95% CIs per series, the fitted slope (solid) and the theory's (dashed,
    anchored at the fit's geometric centre)."""
    import numpy as np

    apply_style()
    fig, ax = plt.subplots(figsize=(5.2, 3.8))
    series = list(dict.fromkeys(figure.points["series"]))
    colours = algorithm_palette(series)
    for name in series:
        pts = figure.points[figure.points["series"] == name].sort_values("x")
        err = np.vstack([pts["mean"] - pts["ci_low"], pts["ci_high"] - pts["mean"]])
        ax.errorbar(pts["x"], pts["mean"], yerr=np.maximum(err, 0), fmt="o", ms=4, capsize=2,
                    color=colours[name], label=name)
        fits = figure.fits[figure.fits["series"] == name] if not figure.fits.empty else []
        for fit in (fits.itertuples() if len(fits) else []):
            xs = np.geomspace(fit.x_min, fit.x_max, 50)
            ax.plot(xs, np.exp(fit.intercept) * xs**fit.slope, color=colours[name], lw=1.2,
                    label=f"fit: slope {fit.slope:.2f} [{fit.ci_low:.2f}, {fit.ci_high:.2f}]")
            if np.isfinite(fit.theory_slope):
                xc = np.sqrt(fit.x_min * fit.x_max)
                yc = np.exp(fit.intercept) * xc**fit.slope
                ax.plot(xs, yc * (xs / xc) ** fit.theory_slope, color=colours[name], lw=1,
                        ls="--", label=f"theory: slope {fit.theory_slope:g}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(figure.xlabel)
    ax.set_ylabel(figure.ylabel)
    ax.set_title(figure.title, fontsize=9)
    ax.legend(fontsize=6.5, loc="best")
    save_figure(fig, pdf_path, png_path)
