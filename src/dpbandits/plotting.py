"""One seaborn style for every figure of the project, and the figure writers."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import seaborn as sns  # noqa: E402

from dpbandits.io import atomic_path  # noqa: E402

__all__ = ["apply_style", "save_figure", "algorithm_palette", "plot_scaling", "tidy_log_axis"]


def apply_style() -> None:
    sns.set_theme(context="paper", style="whitegrid", palette="colorblind", font_scale=1.1)
    plt.rcParams.update({"figure.dpi": 110, "savefig.dpi": 200, "savefig.bbox": "tight",
                         # Type 3 fonts: matplotlib writes the glyphs itself; Type 42 subsets
                         # every font with fontTools, about a second per PDF
                         "pdf.fonttype": 3, "axes.titleweight": "bold",
                         # Reproducible PDFs: no creation date in the metadata.
                         "svg.hashsalt": "dpbandits"})


def algorithm_palette(names: list[str]) -> dict[str, tuple]:
    """A colour per name: the colour-blind palette's ten, then (a researcher's eleventh algorithm
    on) evenly spaced hues, so that no two curves of a figure share a colour."""
    n = len(names)
    colours = sns.color_palette("colorblind", n_colors=max(n, 3)) if n <= 10 else (
        sns.color_palette("colorblind", n_colors=10) + sns.color_palette("husl", n_colors=n - 10))
    return dict(zip(names, colours, strict=False))


def save_figure(fig, pdf_path: str | Path, png_path: str | Path) -> None:
    """Write the figure as PDF and PNG (atomically, deterministic PDF metadata); every log axis
    of every panel gets tidy labels first (:func:`tidy_log_axis`)."""
    for ax in fig.axes:
        for which in ("x", "y"):
            if (ax.get_xscale() if which == "x" else ax.get_yscale()) == "log":
                tidy_log_axis(ax, which)
    with atomic_path(pdf_path) as tmp:
        fig.savefig(tmp, format="pdf", metadata={"CreationDate": None, "Creator": "dpbandits"})
    with atomic_path(png_path) as tmp:
        fig.savefig(tmp, format="png", metadata={"Software": "dpbandits"})
    plt.close(fig)


def plot_scaling(figure, pdf_path: str | Path, png_path: str | Path) -> None:
    """A check's scaling figure (:class:`dpbandits.evidence.checks.ScalingFigure`) on log-log axes:
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


_MAX_LOG_TICKS = 7  # labelled ticks per log axis, at most


_SUPERSCRIPT = str.maketrans("0123456789-", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207b")


def _log_label(value: float, _pos=None) -> str:
    """A short tick label: plain digits between 1e-3 and 1e4, else m x 10^e (10^e when m = 1),
    written with Unicode superscripts (plain text: no mathtext to parse, the same glyphs in PNG and
    PDF)."""
    import math

    if value <= 0:
        return ""
    if 1e-3 <= value < 1e4:
        return f"{value:g}"
    exp = math.floor(math.log10(value) + 1e-9)
    mant = value / 10**exp
    if abs(mant - round(mant)) < 1e-6:
        mant = round(mant)
    power = "10" + str(exp).translate(_SUPERSCRIPT)
    return power if mant == 1 else f"{mant:g}\u00d7{power}"


def _minor_ticks_drawn(axis) -> bool:
    """Whether a minor tick of ``axis`` would draw anything besides its (empty) labels: a tick
    mark on either side or a grid line, under the axis's current tick parameters."""
    tick = axis.get_minor_ticks(1)[0]
    return any(line.get_visible() for line in (tick.tick1line, tick.tick2line, tick.gridline))


def tidy_log_axis(ax, which: str) -> None:
    """Tick labels of a log axis that never overlap (matplotlib's default labels the minor ticks
    of a short log axis, e.g. 3 x 10^0, 4 x 10^0, ..., which collide): labelled major ticks only,
    at decades (three decades or more; every n-th decade beyond ``_MAX_LOG_TICKS``), at 1 and 3,
    or at 1, 2 and 5 x 10^k on shorter axes; unlabelled minor ticks; short labels (plain digits
    between 1e-3 and 1e4). Then, on the drawn figure, every other label is dropped until no two
    labels touch."""
    import math

    from matplotlib.ticker import (
        FixedLocator,
        FuncFormatter,
        LogLocator,
        NullFormatter,
        NullLocator,
    )

    axis = ax.xaxis if which == "x" else ax.yaxis
    lo, hi = sorted(ax.get_xlim() if which == "x" else ax.get_ylim())
    if lo <= 0 or hi <= lo:
        return
    decades = math.log10(hi / lo)
    subs = ((1.0,) if decades >= 3 else (1.0, 3.0) if decades >= 1.6 else (1.0, 2.0, 5.0) if decades >= 0.6
            else (1.0, 1.5, 2.0, 3.0, 5.0, 7.0))
    ticks = [t for t in LogLocator(base=10, subs=subs, numticks=_MAX_LOG_TICKS + 1).tick_values(lo, hi)
             if lo <= t <= hi]
    while len(ticks) > _MAX_LOG_TICKS:  # keep the decades first, then thin evenly
        decade = [t for t in ticks if abs(math.log10(t) - round(math.log10(t))) < 1e-9]
        ticks = decade if 2 <= len(decade) < len(ticks) else ticks[::2]
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_major_formatter(FuncFormatter(_log_label))
    axis.set_minor_formatter(NullFormatter())
    # Unlabelled minor ticks at 2..9 x 10^k, where they draw something: under the project's style
    # (whitegrid: no tick marks, major grid lines only) they draw nothing, and laying them out was
    # about half the time of drawing a log-scale figure; the figure's bytes are the same without.
    axis.set_minor_locator(LogLocator(base=10, subs=tuple(range(1, 10)), numticks=100)
                           if _minor_ticks_drawn(axis) else NullLocator())
    fig = ax.figure
    for _ in range(6):
        fig.draw_without_rendering()  # the layout, without rasterising
        labels = [lab for lab in axis.get_ticklabels() if lab.get_visible() and lab.get_text()]
        boxes = [lab.get_window_extent().expanded(1.1, 1.2) for lab in labels]
        if not any(a.overlaps(b) for a, b in zip(boxes, boxes[1:], strict=False)):
            return
        shown = [t for t in axis.get_majorticklocs() if lo <= t <= hi]
        axis.set_major_locator(FixedLocator(shown[::2]))
