"""dpbandits.plotting: minor ticks of log axes are laid out only where they draw something."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.ticker import LogLocator, NullLocator

from dpbandits import plotting
from dpbandits.plotting import plt


def _log_figure(minor_marks: bool):
    plotting.apply_style()
    fig, axes = plt.subplots(1, 2, figsize=(6, 3))
    x = np.geomspace(3, 3e4, 9)
    for ax in axes:
        ax.errorbar(x, 5 * x**0.5, yerr=x**0.3, fmt="o", label="s")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.legend()
        if minor_marks:
            ax.tick_params(which="minor", bottom=True, left=True, length=3)
    return fig


def _written(fig, tmp_path, name: str) -> tuple[bytes, bytes]:
    pdf, png = tmp_path / f"{name}.pdf", tmp_path / f"{name}.png"
    plotting.save_figure(fig, pdf, png)
    return pdf.read_bytes(), png.read_bytes()


def test_invisible_minor_ticks_are_dropped_without_changing_a_byte(tmp_path, monkeypatch):
    fig = _log_figure(minor_marks=False)
    plotting.tidy_log_axis(fig.axes[0], "x")
    assert isinstance(fig.axes[0].xaxis.get_minor_locator(), NullLocator)  # the style draws no minor tick
    plt.close(fig)
    fast = _written(_log_figure(minor_marks=False), tmp_path, "fast")
    monkeypatch.setattr(plotting, "_minor_ticks_drawn", lambda axis: True)  # lay them out anyway
    laid_out = _written(_log_figure(minor_marks=False), tmp_path, "laid_out")
    assert fast == laid_out


@pytest.mark.parametrize("which", ["x", "y"])
def test_visible_minor_ticks_are_kept(tmp_path, which):
    fig = _log_figure(minor_marks=True)
    plotting.tidy_log_axis(fig.axes[0], which)
    axis = fig.axes[0].xaxis if which == "x" else fig.axes[0].yaxis
    assert isinstance(axis.get_minor_locator(), LogLocator)
    assert len(axis.get_minorticklocs()) > 0
    plt.close(fig)
    # and they are seen: the same figure without them is another picture
    with_marks = _written(_log_figure(minor_marks=True), tmp_path, "marks")[1]
    without = _written(_log_figure(minor_marks=False), tmp_path, "plain")[1]
    assert with_marks != without


def test_every_algorithm_of_a_figure_gets_a_colour_of_its_own():
    """The paper's six algorithms and references plus a researcher's many: no colour twice; up to
    ten names keep the colour-blind palette (the committed figures do not move)."""
    import seaborn as sns

    from dpbandits.plotting import algorithm_palette

    names = [f"a{i}" for i in range(16)]
    colours = algorithm_palette(names)
    assert len(set(colours.values())) == 16
    assert list(algorithm_palette(names[:10]).values()) == sns.color_palette("colorblind", n_colors=10)
    assert [colours[n] for n in names[:10]] == sns.color_palette("colorblind", n_colors=10)
