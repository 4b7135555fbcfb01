"""Figures 1-2 and the final-regret table of the online paper (section 6).

Each figure: one panel per epsilon, cumulative pseudo-regret against the round, run mean with a
+-1 s.d. band (spec section 4, "Not stated": error bars). The non-private references are drawn
dashed in every panel, labelled as additions. A researcher's own algorithms
(``online.extra_algorithms``, ``extra_labels``: name -> label) are drawn dash-dotted after the
paper's, labelled "(extra)", and listed after them in the table.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from dpbandits.online.api import BANDIT_ALGORITHMS
from dpbandits.plotting import algorithm_palette, apply_style, save_figure
from dpbandits.stats import mean_ci
from dpbandits.tables import write_table

__all__ = ["plot_setting", "final_regret_table"]


def _curves(long: pd.DataFrame) -> pd.DataFrame:
    return (long.groupby(["algorithm", "epsilon", "t"], dropna=False)["regret"]
            .agg(["mean", "std"]).reset_index())


def _extra_label(label: str) -> str:
    return f"{label} (extra)"


def plot_setting(long: pd.DataFrame, setting: str, means, pdf_path, png_path,
                 log_x: bool = False, linear_grid: np.ndarray | None = None,
                 extra_labels: dict[str, str] | None = None) -> None:
    """One figure (3 panels for the paper's 3 epsilons) for one arm-mean setting."""
    apply_style()
    data = long[long.setting == setting]
    if data.empty:
        raise ValueError(f"no data for setting {setting!r}")
    if linear_grid is not None and not log_x:
        data = data[data.t.isin(linear_grid)]
    curves = _curves(data)
    epsilons = sorted(curves.epsilon.dropna().unique())
    extra_labels = dict(extra_labels or {})
    names = list(BANDIT_ALGORITHMS) + [n for n in extra_labels if n not in BANDIT_ALGORITHMS]
    palette = algorithm_palette(names)
    fig, axes = plt.subplots(1, len(epsilons), figsize=(4.2 * len(epsilons), 3.6), sharey=False)
    axes = np.atleast_1d(axes)
    for ax, eps, letter in zip(axes, epsilons, "abcdefgh", strict=False):
        for name in names:
            info = BANDIT_ALGORITHMS.get(name)
            private = info.private if info else True
            sel = curves[(curves.algorithm == name)
                         & (np.isclose(curves.epsilon, eps) if private else curves.epsilon.isna())]
            if sel.empty:
                continue
            t, m, s = sel.t.to_numpy(), sel["mean"].to_numpy(), sel["std"].fillna(0).to_numpy()
            style = ("-" if info.private else "--") if info else "-."
            label = info.label if info else _extra_label(extra_labels[name])
            ax.plot(t, m, style, color=palette[name], label=label, lw=1.6)
            ax.fill_between(t, m - s, m + s, color=palette[name], alpha=0.18, lw=0)
        ax.set_title(f"({letter}) $\\epsilon$ = {eps:g}")
        ax.set_xlabel("round t")
        if log_x:
            ax.set_xscale("log")
        ax.set_ylim(bottom=0)
    axes[0].set_ylabel("cumulative pseudo-regret")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(6, len(labels)), frameon=False,
               bbox_to_anchor=(0.5, -0.14))
    mu = ", ".join(f"{m:g}" for m in means)
    n_runs = data.groupby(["algorithm", "epsilon"], dropna=False).run.nunique().min()
    fig.suptitle(f"{setting}: $\\mu$ = ({mu}), mean $\\pm$ 1 s.d. over {n_runs} runs", y=1.02)
    save_figure(fig, pdf_path, png_path)


def final_regret_table(per_run: pd.DataFrame, horizon: int, tex_path, csv_path,
                       rng: np.random.Generator, n_boot: int = 2000, extra_runs: pd.DataFrame | None = None,
                       extra_labels: dict[str, str] | None = None) -> pd.DataFrame:
    """Final regret per (setting, epsilon, algorithm): mean, s.d., bootstrap 95% CI of the mean.
    ``extra_runs``: the runs of the researcher's algorithms (their rows follow the paper's; their
    bootstraps draw after the paper's, so adding one leaves the paper's rows unchanged)."""
    extra_labels = dict(extra_labels or {})
    rows = []
    tables = [(per_run, lambda alg: BANDIT_ALGORITHMS[alg].label)]
    if extra_runs is not None and len(extra_runs):
        tables.append((extra_runs, lambda alg: _extra_label(extra_labels.get(alg, alg))))
    for runs, label in tables:
        for (setting, eps, alg), g in runs.groupby(["setting", "epsilon", "algorithm"], dropna=False):
            values = g.final_regret.to_numpy()
            mean, lo, hi = mean_ci(values, rng, n_boot)
            rows.append({"setting": setting, "epsilon": eps, "algorithm": alg,
                         "label": label(alg), "T": horizon, "n_runs": len(values),
                         "mean": mean, "sd": float(values.std(ddof=1)), "ci_low": lo, "ci_high": hi})
    frame = pd.DataFrame(rows)
    names = list(BANDIT_ALGORITHMS) + sorted(set(frame.algorithm) - set(BANDIT_ALGORITHMS))
    order = {name: i for i, name in enumerate(names)}
    frame = frame.sort_values(["setting", "epsilon", "algorithm"],
                              key=lambda c: c.map(order) if c.name == "algorithm" else c,
                              na_position="last").reset_index(drop=True)
    display = pd.DataFrame({
        "Setting": frame.setting,
        "epsilon": frame.epsilon.map(lambda e: "--" if pd.isna(e) else f"{e:g}"),
        "Algorithm": frame.label,
        "Mean regret": frame["mean"].map(lambda v: f"{v:,.0f}"),
        "s.d.": frame.sd.map(lambda v: f"{v:,.0f}"),
        "95% CI": [f"[{a:,.0f}, {b:,.0f}]" for a, b in zip(frame.ci_low, frame.ci_high, strict=True)],
    })
    write_table(frame, tex_path, csv_path,
                caption=f"Final pseudo-regret at T = {horizon:,} (mean over runs, bootstrap 95% CI).",
                label="tab:online-final-regret", display=display, align="lllrrr")
    return frame
