"""Figures 1-4 of the quantile paper (both panels each; captions' "upper / lower" = text's
"left / right"); the Figure 1 check F1 (spec A6) reads the same curves
(:mod:`dpbandits.quantile.checks.figures`).

Settings the paper leaves open are the spec's (section 4): Figure 1 sigma* in {2.5, 3, 4, 6} vs
sigma_i = 2 (sigma a standard deviation) and lambda* in {0.8, 0.5, 0.25, 0.1} vs lambda_i = 1;
Figure 2 (lower) x = Delta on DISC q = 0.4 (symmetric l1 = q - Delta, l3 = q + Delta), delta = 0.05;
Figure 3 (upper) the caption's sigma* = 1 vs 0.5 (the text's "sigma_i = 2" conflicts; only the
ratio matters), per-arm samples with C = 3/2 times eq. (13); Figure 4 (upper) x = q with
sigma* in {3, 4, 5} vs 2, (lower) eps grid {0.05, 0.1, ..., 1}, delta = 0.1.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from dpbandits.io import read_results_or_quarantine
from dpbandits.plotting import algorithm_palette, apply_style, plt, save_figure
from dpbandits.quantile.gap import gap_curve
from dpbandits.quantile.instances import ExponentialArm, GaussianArm, disc, make_instance
from dpbandits.quantile.seq import theorem4_rate
from dpbandits.rng import make_rng

__all__ = ["draw_fig1", "draw_fig2", "draw_fig3", "draw_fig4", "fig1_curves", "plot_fig1", "plot_fig2", "plot_fig3", "plot_fig4", "FIG1_GAUSS",
           "FIG1_EXP", "FIG1_QS"]

FIG1_GAUSS = (2.5, 3.0, 4.0, 6.0)
FIG1_EXP = (0.8, 0.5, 0.25, 0.1)
FIG1_QS = np.round(np.arange(0.005, 0.9951, 0.005), 3)
C_PAPER = 1.5


def fig1_curves() -> pd.DataFrame:
    """Delta(q) for every Figure 1 curve: columns panel, param, q, gap."""
    rows = []
    for s in FIG1_GAUSS:
        rows.append(pd.DataFrame({"panel": "gauss", "param": s, "q": FIG1_QS,
                                  "gap": gap_curve(GaussianArm(2.0), GaussianArm(s), FIG1_QS)}))
    for r in FIG1_EXP:
        rows.append(pd.DataFrame({"panel": "exp", "param": r, "q": FIG1_QS,
                                  "gap": gap_curve(ExponentialArm(1.0), ExponentialArm(r), FIG1_QS)}))
    return pd.concat(rows, ignore_index=True)


def _panel_axes():
    apply_style()
    return plt.subplots(2, 1, figsize=(5.4, 7.6), layout="constrained")


def plot_fig1(pdf, png, curves: pd.DataFrame | None = None) -> None:
    c = fig1_curves() if curves is None else curves
    fig, (ax1, ax2) = _panel_axes()
    for ax, panel, params, fmt, title in (
            (ax1, "gauss", FIG1_GAUSS, r"$\sigma_{{i^*}}={:g}$", r"Gaussian, $\mu=0$, $\sigma_i=2$"),
            (ax2, "exp", FIG1_EXP, r"$\lambda_{{i^*}}={:g}$", r"Exponential, $\lambda_i=1$")):
        colours = algorithm_palette([str(p) for p in params])
        for p in params:
            g = c[(c["panel"] == panel) & (c["param"] == p)]
            ax.plot(g["q"], g["gap"], color=colours[str(p)], label=fmt.format(p))
        ax.set_xlabel("level q")
        ax.set_ylabel(r"gap $\Delta(q)$")
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=7)
    fig.suptitle("Figure 1: the quantile gap as a function of q", fontsize=10)
    save_figure(fig, pdf, png)


def _mean_ci(values, rng, n_boot=1000):
    v = np.asarray(values, dtype=float)
    boots = v[rng.integers(0, v.size, size=(n_boot, v.size))].mean(axis=1)
    return v.mean(), *np.quantile(boots, [0.025, 0.975])


def _series(ax, x, groups, rng, label, colour, marker="o", ls="-"):
    stats = np.array([_mean_ci(g, rng) for g in groups])
    ax.errorbar(x, stats[:, 0], yerr=np.maximum(np.vstack([stats[:, 0] - stats[:, 1], stats[:, 2] - stats[:, 0]]), 0),
                fmt=marker, ls=ls, ms=4, capsize=2, color=colour, label=label)


def plot_fig2(table: pd.DataFrame, pdf, png, rng) -> None:
    """Upper: the two CDFs of DISC (q = 0.4, Delta = 0.1, xi = 1 and 1e-5). Lower: mean samples at
    termination for xi = 1 and xi = 1e-5 (independent runs), delta = 0.05."""
    fig, (ax1, ax2) = _panel_axes()
    q, g = 0.4, 0.1
    for xi, ls in ((1.0, "-"), (1e-5, ":")):
        inst = disc(q, g, xi)
        for arm, colour, name in ((inst.arms[0], "C0", "optimal"), (inst.arms[1], "C3", "suboptimal")):
            xs = np.linspace(-1.5, 2.5, 801)
            if xi == 1.0 or name == "optimal":
                ax1.step(xs, arm.cdf(xs), where="post", color=colour, ls=ls,
                         label=f"$F_{{{'i^*' if name == 'optimal' else 'i'}}}$" + (f" ($\\xi$={xi:g})" if name == "optimal" else ""))
    for level, text in ((q - g, "$l_1$"), (q, "q"), (q + g, "$l_3$")):
        ax1.axhline(level, color="grey", lw=0.6, ls="--")
        ax1.text(2.3, level + 0.01, text, fontsize=7)
    ax1.set_xlabel("x")
    ax1.set_ylabel("CDF")
    ax1.set_title(r"DISC: $0=F_i^{-1}(q)<F_{i^*}^{-1}(q)=\xi$, $\Delta=\min(l_3-q, q-l_1)$", fontsize=9)
    ax1.legend(fontsize=7, loc="lower right")
    t = table[np.isclose(table["delta"], 0.05)]
    for xi, crn, colour, marker, label in ((1.0, "A", "C0", "o", r"$\xi=1$"), (1e-5, "B", "C1", "s", r"$\xi=10^{-5}$")):
        rows = t[(t["b"] == xi) & t["crn"].str.endswith(crn)]
        by = sorted(rows.groupby("a"), key=lambda kv: kv[0])
        _series(ax2, [k for k, _ in by], [r["n_final"] for _, r in by], rng, label, colour, marker)
    ax2.set_yscale("log")
    ax2.set_xlabel(r"gap $\Delta$")
    ax2.set_ylabel("mean samples per arm at termination")
    ax2.set_title(r"SEQ, K = 2, q = 0.4, $\delta$ = 0.05 (independent runs)", fontsize=9)
    ax2.legend(fontsize=7)
    fig.suptitle("Figure 2: the quantile difference does not matter, the gap does", fontsize=10)
    save_figure(fig, pdf, png)


def _c_curve(ax, x, gaps, delta, colour):
    rate = np.array([theorem4_rate([g], 2, delta) for g in gaps])
    ax.plot(x, C_PAPER * rate, color=colour, lw=1, ls="--", label=r"$C\,[\log(K/\delta)+\log(1/\Delta)]/\Delta^2$, C = 3/2")


def plot_fig3(gauss_q: pd.DataFrame, disc_grid: pd.DataFrame, pdf, png, rng) -> None:
    """Mean samples (per arm) and pulls (total) with 95% CIs against eq. (13) with C = 3/2."""
    fig, (ax1, ax2) = _panel_axes()
    d = 0.05
    t = gauss_q[np.isclose(gauss_q["delta"], d)]
    by = sorted(t.groupby("q"), key=lambda kv: kv[0])
    qs = [k for k, _ in by]
    _series(ax1, qs, [r["n_final"] for _, r in by], rng, "samples (per arm)", "C0")
    _series(ax1, qs, [r["total_pulls"] for _, r in by], rng, "pulls (total)", "C2", "^", ":")
    _c_curve(ax1, qs, [float(make_instance("gauss", q, 1.0, 0.5).gaps()[1]) for q in qs], d, "k")
    ax1.set_xlabel("level q")
    ax1.set_title(r"Gaussian, $\sigma_{i^*}=1$, $\sigma_i=0.5$, K = 2, $\delta$ = 0.05", fontsize=9)
    t = disc_grid[np.isclose(disc_grid["delta"], d) & (disc_grid["b"] == 1.0)]
    by = sorted(t.groupby("a"), key=lambda kv: kv[0])
    gaps = [k for k, _ in by]
    _series(ax2, gaps, [r["n_final"] for _, r in by], rng, "samples (per arm)", "C0")
    _series(ax2, gaps, [r["total_pulls"] for _, r in by], rng, "pulls (total)", "C2", "^", ":")
    _c_curve(ax2, gaps, gaps, d, "k")
    ax2.set_xlabel(r"gap $\Delta$")
    ax2.set_title(r"DISC, q = 0.4, K = 2, $\delta$ = 0.05", fontsize=9)
    for ax in (ax1, ax2):
        ax.set_yscale("log")
        ax.set_ylabel("mean at termination")
        ax.legend(fontsize=7)
    fig.suptitle("Figure 3: SEQ's sample complexity and Theorem 4 (C = 3/2)", fontsize=10)
    save_figure(fig, pdf, png)


def plot_fig4(gauss: pd.DataFrame, logn: pd.DataFrame, dp: pd.DataFrame, seq_logn10: pd.DataFrame, pdf, png,
              rng) -> None:
    fig, (ax1, ax2) = _panel_axes()
    sigmas = sorted(gauss["a"].unique())
    colours = algorithm_palette([str(s) for s in sigmas])
    for t, ls, marker, fam in ((gauss, "-", "o", "normal"), (logn, "--", "s", "log-normal")):
        for s in sigmas:
            rows = t[np.isclose(t["a"], s)]
            by = sorted(rows.groupby("q"), key=lambda kv: kv[0])
            _series(ax1, [k for k, _ in by], [r["n_final"] for _, r in by], rng,
                    rf"{fam}, $\sigma_{{i^*}}={s:g}$", colours[str(s)], marker, ls)
    ax1.set_yscale("log")
    ax1.set_xlabel("level q")
    ax1.set_ylabel("mean samples per arm")
    ax1.set_title(r"SEQ, K = 2, $\mu=0$, $\sigma_i=2$: normal vs log-normal", fontsize=9)
    ax1.legend(fontsize=6, ncol=2)
    qc = algorithm_palette([str(q) for q in sorted(dp["q"].unique())])
    for q, rows in dp.groupby("q", sort=True):
        by = sorted(rows.groupby("epsilon"), key=lambda kv: kv[0])
        _series(ax2, [k for k, _ in by], [r["total_pulls"] for _, r in by], rng, f"DP-SEQ, q = {q:g}", qc[str(q)])
        ax2.axhline(seq_logn10[np.isclose(seq_logn10["q"], q)]["total_pulls"].mean(), color=qc[str(q)], ls=":",
                    label=f"SEQ, q = {q:g}")
    ax2.set_yscale("log")
    ax2.set_xlabel(r"privacy parameter $\epsilon$")
    ax2.set_ylabel("mean total pulls")
    ax2.set_title(r"LOGN10 (K = 10, $\sigma_{i^*}=2$, $\sigma_i=0.1..0.9$), $\delta$ = 0.1", fontsize=9)
    ax2.legend(fontsize=7)
    fig.suptitle("Figure 4: tails do not matter; the cost of privacy", fontsize=10)
    save_figure(fig, pdf, png)



# The entries of the figure records (:mod:`dpbandits.quantile.experiments.registry`): each reads
# its rule's named inputs (design tables) and draws; the bootstrap of the CIs draws from the
# figure's own stream.


def _rng(job, figure: str) -> np.random.Generator:
    return make_rng(job.config["seed"], "quantile", "figure", figure)


def _read(job, name: str) -> pd.DataFrame:
    return read_results_or_quarantine(getattr(job.input, name))


def draw_fig1(job) -> None:
    plot_fig1(job.output.pdf, job.output.png)


def draw_fig2(job) -> None:
    plot_fig2(_read(job, "disc_grid"), job.output.pdf, job.output.png, _rng(job, "fig2"))


def draw_fig3(job) -> None:
    plot_fig3(_read(job, "gauss_q"), _read(job, "disc_grid"), job.output.pdf, job.output.png, _rng(job, "fig3"))


def draw_fig4(job) -> None:
    plot_fig4(_read(job, "fig4_gauss"), _read(job, "fig4_logn"), _read(job, "fig4_lower"), _read(job, "logn10_seq"),
              job.output.pdf, job.output.png, _rng(job, "fig4"))
