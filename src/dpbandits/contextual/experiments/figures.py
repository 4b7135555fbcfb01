"""Figures 3-9 and Tables 1-2 of the contextual paper from the design tables (spec section 4.3),
plus the presets comparison and the authors'-code version of Figure 7(a).

Conventions: lines are means over repetitions; shaded bands are the paper's spread bands
(2.5-97.5% percentiles of the per-run regret for Figures 7 and 8, 10-90% on the log scale for
Figure 9(a)/(b); spec A21), error bars are 95% bootstrap CIs of the mean. Regret is eq. (1)
(the paper's definition; its mean equals the realised pseudo-regret's). Unless a title says
otherwise the runs are the ``primary`` preset (faithful LDP, valid radius).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from dpbandits.contextual.experiments.designs import AUTHORS_FIG7A, partition_example
from dpbandits.contextual.instances import BumpInstance, q_density
from dpbandits.io import read_results_or_quarantine
from dpbandits.plotting import algorithm_palette, apply_style, save_figure
from dpbandits.tables import write_table

__all__ = ["read_tables", "draw_fig3", "draw_fig4", "draw_fig5", "draw_fig6", "draw_fig6_code", "draw_fig7",
           "draw_fig7_code", "draw_fig8", "draw_fig9a", "draw_fig9b", "draw_fig9c", "draw_presets", "draw_table1",
           "fig3_partition", "fig4_rewards", "fig5_density", "fig6_learning", "fig7_regret_vs_n",
           "fig7_authors_code", "fig8_aux_size", "fig9a_kappa", "fig9b_gamma", "fig9c_order",
           "presets_comparison", "table1", "table2"]

ARM_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c"]  # the paper's blue / orange / green for arms 1-3


def _band(ax, x, runs, colour, label, lo_q=2.5, hi_q=97.5, log=False):
    runs = [np.asarray(r, dtype=float) for r in runs]
    mean = np.array([r.mean() for r in runs])
    lo = np.array([np.percentile(r, lo_q) for r in runs])
    hi = np.array([np.percentile(r, hi_q) for r in runs])
    if log:
        mean, lo, hi = np.log(mean), np.log(np.maximum(lo, 1e-9)), np.log(np.maximum(hi, 1e-9))
    ax.plot(x, mean, marker="o", ms=3, color=colour, label=label, lw=1.4)
    ax.fill_between(x, lo, hi, color=colour, alpha=0.15, lw=0)


def _sel(t, **where):
    rows = t
    for k, v in where.items():
        rows = rows[np.isclose(rows[k], v)] if isinstance(v, float) else rows[rows[k] == v]
    return rows


def fig3_partition(leaves: dict, pdf, png, title: str) -> None:
    """Figure 3: the max-edge partition of one run, bins coloured by their active arm set."""
    apply_style()
    fig, ax = plt.subplots(figsize=(4.2, 4.2))
    for lo, hi, act in zip(leaves["lo"], leaves["hi"], leaves["active"], strict=True):
        arms = np.flatnonzero(act)
        colour = ARM_COLOURS[arms[0]] if arms.size == 1 else "#bbbbbb"
        ax.add_patch(plt.Rectangle(lo, *(hi - lo), facecolor=colour, alpha=0.35 if arms.size == 1 else 0.2,
                                   edgecolor="#1f3b73", lw=0.6))
    for k, c in enumerate(ARM_COLOURS):
        ax.plot([], [], "s", color=c, alpha=0.5, label=f"only arm {k + 1} active")
    ax.plot([], [], "s", color="#bbbbbb", label=">= 2 arms active")
    ax.grid(False)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("$x^1$")
    ax.set_ylabel("$x^2$")
    ax.set_title(title, fontsize=8)
    ax.legend(fontsize=6, loc="upper right")
    save_figure(fig, pdf, png)


def fig4_rewards(pdf, png, instance: BumpInstance | None = None) -> None:
    """Figure 4: contours of f_1, f_2, f_3 on [0, 1]^2 (grid 0, 0.01, ..., 0.99, levels 0..1)."""
    inst = instance or BumpInstance(3, 2, "code")
    apply_style()
    g = np.arange(0, 1, 0.01)
    xx, yy = np.meshgrid(g, g)
    f = inst.reward(np.column_stack([xx.ravel(), yy.ravel()]))
    fig, axes = plt.subplots(1, inst.k, figsize=(3.2 * inst.k, 3.0))
    for k, ax in enumerate(axes):
        cs = ax.contourf(xx, yy, f[:, k].reshape(xx.shape), levels=np.linspace(0, 1, 11), cmap="viridis")
        ax.set_title(f"({'abc'[k]}) $f_{k + 1}$, centre {inst.centre_values[k]:.3g}", fontsize=9)
        ax.set_xlabel("$x^1$")
        ax.set_ylabel("$x^2$")
    fig.colorbar(cs, ax=axes, shrink=0.8)
    fig.suptitle(f"Reward functions ({inst.centres} centres k/(K+1) as in the authors' figure)" if inst.centres == "code"
                 else "Reward functions (paper centres k/K)", fontsize=9)
    save_figure(fig, pdf, png)


def fig5_density(pdf, png, gammas=(0.2, 1.0, 2.0)) -> None:
    """Figure 5: contours of the auxiliary density c ||x - 1/2||_inf^gamma (levels 0..2)."""
    apply_style()
    g = np.arange(0, 1, 0.01)
    xx, yy = np.meshgrid(g, g)
    pts = np.column_stack([xx.ravel(), yy.ravel()])
    fig, axes = plt.subplots(1, len(gammas), figsize=(3.2 * len(gammas), 3.0))
    for ax, gamma, tag in zip(axes, gammas, "abc", strict=False):
        cs = ax.contourf(xx, yy, q_density(pts, gamma).reshape(xx.shape), levels=np.arange(0, 2.05, 0.1),
                         cmap="magma", extend="max")
        ax.set_title(f"({tag}) $\\gamma$ = {gamma:g}", fontsize=9)
        ax.set_xlabel("$x^1$")
        ax.set_ylabel("$x^2$")
    fig.colorbar(cs, ax=axes, shrink=0.8)
    fig.suptitle("Auxiliary marginal $Q_X$ (normalising constant $2^\\gamma (d+\\gamma)/d$, erratum A19)", fontsize=9)
    save_figure(fig, pdf, png)


def fig6_learning(t: pd.DataFrame, preset: str, pdf, png, x=(1 / 3, 1 / 3), rep: int = 0) -> None:
    """Figure 6: one trial per setting (none / effective / weak auxiliary data): global average
    regret, local average regret at x and the expected arm ratio at x against the batch index;
    dashed lines where an arm is eliminated at x."""
    inst = BumpInstance(3, 2, "code")
    f = inst.reward(np.array([x]))[0]
    gap = f.max() - f
    apply_style()
    fig, axes = plt.subplots(3, 3, figsize=(10, 7.5), sharex=True)
    for j, setting in enumerate(("none", "effective", "weak")):
        row = _sel(t, preset=preset, setting=setting, rep=rep).iloc[0]
        regret = np.asarray(row["regret_curve"])
        masks = np.asarray(row["x_mask"])
        batch = int(row["batch"])
        tt = np.arange(1, regret.size + 1)
        bits = (masks[:, None] >> np.arange(3)) & 1
        probs = bits / bits.sum(axis=1, keepdims=True)
        axes[0, j].plot(tt, np.cumsum(regret) / (tt * batch), color="k", lw=1)
        axes[0, j].set_ylim(0.0, 0.8)
        axes[1, j].plot(tt, np.cumsum(probs @ gap) / tt, color="k", lw=1)
        axes[1, j].set_ylim(0, 0.4)
        ratio = np.cumsum(probs, axis=0) / tt[:, None]
        axes[2, j].stackplot(tt, ratio.T, colors=ARM_COLOURS, labels=[f"arm {k + 1}" for k in range(3)])
        axes[2, j].set_ylim(0, 1)
        start = int(row["x_mask_start"])
        changes = np.flatnonzero(np.diff(np.concatenate([[start], masks])) != 0)
        for c in changes:
            for ax in axes[:, j]:
                ax.axvline(c + 1, color="k", ls="--", lw=0.8)
        title = {"none": "no auxiliary data", "effective": "effective: $n_Q$ = 500, $\\epsilon_1$ = 8, $\\gamma$ = 0",
                 "weak": "weak: $n_Q$ = 500, $\\epsilon_1$ = 0.5, $\\gamma$ = 5"}[setting]
        pre = "" if start == 7 else f" (jump-start left arms {[k + 1 for k in range(3) if start >> k & 1]})"
        axes[0, j].set_title(title + pre, fontsize=8)
        axes[2, j].set_xlabel(f"t (batches of {batch})")
    axes[0, 0].set_ylabel("global average regret")
    axes[1, 0].set_ylabel("local average regret at x")
    axes[2, 0].set_ylabel("arm ratio at x")
    axes[2, 2].legend(fontsize=6, loc="lower right")
    n = int(_sel(t, preset=preset).iloc[0]["n_target"])
    rows = _sel(t, preset=preset)
    none = all(int(r.x_mask_start) == 7 and np.all(np.asarray(r.x_mask) == 7) for r in rows.itertuples())
    note = f"\nno arm is eliminated at x in any of the {len(rows)} runs (flat curves: the uniform policy)" if none else ""
    fig.suptitle(f"Figure 6 [{preset}]: eps = 1, n_P = {n:,} users, x = (1/3, 1/3), one trial (seed {rep}){note}", fontsize=9)
    save_figure(fig, pdf, png)


def fig7_regret_vs_n(t: pd.DataFrame, pdf, png) -> None:
    """Figure 7: regret vs n_P per eps, (a) without and (b) with auxiliary data; ABSE dashed."""
    apply_style()
    eps = sorted(t.loc[t.preset == "primary", "epsilon"].unique())
    pal = algorithm_palette([f"{e:g}" for e in eps])
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, panel, title in zip(axes, "ab", ("(a) no auxiliary data", "(b) $n_Q$ = 5000, $\\epsilon_1$ = 8, $\\gamma$ = 0, $\\kappa$ = 1"), strict=True):
        for e in eps:
            rows = _sel(t, preset="primary", panel=panel, epsilon=float(e))
            ns = np.sort(rows.n_target.unique())
            _band(ax, ns, [rows[rows.n_target == n]["regret"] for n in ns], pal[f"{e:g}"], f"$\\epsilon$ = {e:g}")
        ab = t[t.preset == "abse"]
        if len(ab):
            ns = np.sort(ab.n_target.unique())
            ax.plot(ns, [ab[ab.n_target == n]["regret"].mean() for n in ns], "k--", lw=1, label="ABSE (non-private)")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("$n_P$")
    axes[0].set_ylabel("cumulative regret")
    axes[1].legend(fontsize=7)
    same = [f"{e:g}" for e in eps if np.allclose(_sel(t, preset="primary", panel="a", epsilon=float(e)).groupby("n_target")["regret"].mean(),
                                                    _sel(t, preset="primary", panel="a", epsilon=float(eps[0])).groupby("n_target")["regret"].mean())]
    note = f"; eps = {', '.join(same)} coincide (no elimination: the uniform policy)" if len(same) > 1 else ""
    fig.suptitle(f"Figure 7 [primary: faithful LDP, valid radius], B = 100, mean with 2.5-97.5% band{note}", fontsize=9)
    save_figure(fig, pdf, png)


def fig7_authors_code(code: pd.DataFrame, logged: dict, pdf, png) -> None:
    """Figure 7(a) with the authors_code preset; crosses: the authors' logged means."""
    apply_style()
    eps = sorted(code["epsilon"].unique())
    pal = algorithm_palette([f"{e:g}" for e in eps])
    fig, ax = plt.subplots(figsize=(5.5, 4))
    for e in eps:
        rows = code[np.isclose(code.epsilon, e)]
        ns = np.sort(rows.n_target.unique())
        _band(ax, ns, [rows[rows.n_target == n]["regret"] for n in ns], pal[f"{e:g}"], f"$\\epsilon$ = {e:g}")
        pts = logged.get(float(e), {})
        ax.plot(list(pts), list(pts.values()), "x", color=pal[f"{e:g}"], ms=6)
    ax.plot([], [], "kx", label="authors' logged mean")
    ax.set_xlabel("$n_P$")
    ax.set_ylabel("cumulative regret")
    ax.legend(fontsize=7)
    ax.set_title("Figure 7(a) [authors_code: in-bin noise, sum-of-cumsum bound,\nexp. weights; not LDP - for magnitude comparison only]", fontsize=8)
    save_figure(fig, pdf, png)


def fig8_aux_size(t: pd.DataFrame, pdf, png) -> None:
    """Figure 8: regret vs n_Q (categorical), panels (gamma, eps), lines eps_m."""
    apply_style()
    panels = [(g, e) for e in (1.0, 2.0) for g in (0.0, 0.2, 2.0)]
    em_list = sorted(t["eps_aux"].dropna().unique())
    pal = algorithm_palette([f"{e:g}" for e in em_list])
    fig, axes = plt.subplots(2, 3, figsize=(11, 6.5), sharey=True, layout="constrained")
    for ax, (g, e), tag in zip(axes.ravel(), panels, "abcdef", strict=True):
        base = _sel(t, epsilon=e, panel=f"gamma={g:g}, eps={e:g}", n_aux=0)["regret"]
        nqs = [0] + sorted(n for n in t.n_aux.unique() if n > 0)
        for em in em_list:
            runs = [base] + [_sel(t, epsilon=e, gamma=g, eps_aux=em, n_aux=int(n))["regret"] for n in nqs[1:]]
            _band(ax, np.arange(len(nqs)), runs, pal[f"{em:g}"], f"$\\epsilon_m$ = {em:g}")
        ax.set_xticks(np.arange(len(nqs)), [f"{n / 1e4:g}" for n in nqs])
        ax.set_title(f"({tag}) $\\gamma$ = {g:g}, $\\epsilon$ = {e:g}", fontsize=9)
        if e == 2.0:
            ax.set_xlabel("$n_{Q_m}$ ($\\times 10^4$)")
    axes[0, 0].set_ylabel("cumulative regret")
    axes[1, 0].set_ylabel("cumulative regret")
    axes[0, 2].legend(fontsize=7)
    n = int(t.n_target.iloc[0])
    fig.suptitle(f"Figure 8 [primary]: n_P = {n:,}, M = 2, kappa = 1, B = {int(t.batch.iloc[0])}, correct Q sampler; 2.5-97.5% band", fontsize=9)
    save_figure(fig, pdf, png)


def _setting_value(s: str) -> float:
    return float(s.split("=")[1])


def _fig9_panels(t, value_name, panels, nq_list, pdf, png, title):
    apply_style()
    t = t.copy()
    t["v"] = t["setting"].map(_setting_value)
    pal = algorithm_palette([f"{n / 1e4:g}" for n in nq_list])
    fig, axes = plt.subplots(len(panels), 1, figsize=(6, 3.2 * len(panels)), sharex=True, sharey=True,
                             layout="constrained")
    for ax, panel in zip(np.atleast_1d(axes), panels, strict=True):
        ax.ticklabel_format(axis="y", useOffset=False)
        for n in nq_list:
            rows = _sel(t, panel=panel, n_aux=int(n))
            vs = np.sort(rows.v.unique())
            _band(ax, vs, [rows[np.isclose(rows.v, v)]["regret"] for v in vs], pal[f"{n / 1e4:g}"],
                  f"$n_Q$ = {n / 1e4:g}e4", 10, 90, log=True)
        ax.set_title(panel.replace("eps_m", "$\\epsilon_m$"), fontsize=9)
        ax.set_ylabel("log(mean regret)")
    np.atleast_1d(axes)[-1].set_xlabel(value_name)
    np.atleast_1d(axes)[0].legend(fontsize=7)
    fig.suptitle(title, fontsize=9)
    save_figure(fig, pdf, png)


def fig9a_kappa(t, pdf, png) -> None:
    nq = sorted(t.n_aux.unique())
    _fig9_panels(t, "$\\kappa$", ["eps_m=1", "eps_m=8"], nq, pdf, png,
                 f"Figure 9(a) [primary]: eps = 2, gamma = 0.2, M = 2, n_P = {int(t.n_target.iloc[0]):,}; 10-90% band (log scale)")


def fig9b_gamma(t, pdf, png) -> None:
    nq = sorted(n for n in t.n_aux.unique() if n > 0)
    _fig9_panels(t, "$\\gamma$", ["eps_m=2", "eps_m=8"], nq, pdf, png,
                 f"Figure 9(b) [primary]: eps = 2, kappa = 1, M = 2, n_P = {int(t.n_target.iloc[0]):,}; correct Q sampler; 10-90% band")


def fig9c_order(t, pdf, png) -> None:
    apply_style()
    panels = sorted(t.panel.unique(), key=lambda p: int(p.split("=")[1]))
    fig, axes = plt.subplots(len(panels), 1, figsize=(6, 3.2 * len(panels)), layout="constrained")
    lines = [(e, o) for e in sorted(t.epsilon.unique()) for o in ("increasing", "decreasing")]
    pal = algorithm_palette([f"{e:g}" for e in sorted(t.epsilon.unique())])
    for ax, panel in zip(np.atleast_1d(axes), panels, strict=True):
        for e, o in lines:
            rows = _sel(t, panel=panel, epsilon=float(e), order=o)
            nqs = np.sort(rows.n_aux.unique())
            ax.plot(nqs, [rows[rows.n_aux == n]["regret"].mean() for n in nqs], marker="o", ms=3,
                    ls="-" if o == "decreasing" else "--", color=pal[f"{e:g}"],
                    label=f"$\\epsilon$ = {e:g}, {'high (8) first' if o == 'decreasing' else 'low (2) first'}")
        ax.set_title(panel.replace("n_P", "$n_P$"), fontsize=9)
        ax.set_ylabel("mean regret")
    np.atleast_1d(axes)[-1].set_xlabel("$n_{Q_m}$")
    np.atleast_1d(axes)[0].legend(fontsize=6)
    fig.suptitle("Figure 9(c) [primary]: order of the auxiliary datasets (eps_m = 2 and 8), gamma = 0, kappa = 1;\n"
                 "coinciding curves: no elimination (the uniform policy)", fontsize=9)
    save_figure(fig, pdf, png)


def presets_comparison(fig7: pd.DataFrame, code: pd.DataFrame, presets: pd.DataFrame, pdf, png) -> None:
    """Per-round regret vs n_P at each eps of the presets job: literal, unit_constants, primary,
    authors_code, and ABSE (non-private)."""
    apply_style()
    eps_list = sorted(presets.epsilon.unique())
    names = ["literal", "unit_constants", "primary", "authors_code", "abse"]
    pal = algorithm_palette(names)
    fig, axes = plt.subplots(1, len(eps_list), figsize=(4.2 * len(eps_list), 3.8), sharey=True)
    for ax, e in zip(np.atleast_1d(axes), eps_list, strict=True):
        srcs = {"literal": _sel(presets, preset="literal", epsilon=float(e)),
                "unit_constants": _sel(presets, preset="unit_constants", epsilon=float(e)),
                "primary": _sel(fig7, preset="primary", panel="a", epsilon=float(e)),
                "authors_code": _sel(code, epsilon=float(e)),
                "abse": fig7[fig7.preset == "abse"]}
        for name in names:
            rows = srcs[name]
            if not len(rows):
                continue
            ns = np.sort(rows.n_target.unique())
            m = [rows[rows.n_target == n]["regret"].mean() / n for n in ns]
            ax.plot(ns, m, marker="o", ms=3, color=pal[name], ls="--" if name == "abse" else "-",
                    label=name if name != "abse" else "ABSE (non-private)")
        ax.set_xscale("log")
        ax.set_title(f"$\\epsilon$ = {e:g}", fontsize=9)
        ax.set_xlabel("$n_P$")
    np.atleast_1d(axes)[0].set_ylabel("per-round regret")
    np.atleast_1d(axes)[-1].legend(fontsize=7)
    fig.suptitle("Presets (Figure 7(a) setting, B = 100): the paper's constants, the spec's unit-constant radius, "
                 "the valid primary, the authors' code, ABSE", fontsize=8)
    save_figure(fig, pdf, png)


def table1(shapes: list[dict], tex, csv) -> None:
    """Table 1: the paper's dataset shapes next to the data actually used, per dataset: real
    (source, SHA-256 of the files, rows obtained vs the paper's) or surrogate (and why)."""
    import math

    from dpbandits.contextual.realdata import TABLE1

    def count(value):
        return "" if value is None or (isinstance(value, float) and math.isnan(value)) else int(value)

    rows = []
    for s in shapes:
        p = TABLE1[s["dataset"]]
        rows.append({"dataset": s["dataset"], "data used": s.get("data_used") or s["origin"],
                     "n_P (paper)": p["n_target"], "n_P (real data)": count(s.get("rows_target_full")),
                     "n_P (used)": s["n_target"], "rows read": count(s.get("rows_read")),
                     "complete rows": count(s.get("rows_complete")), "M (paper)": p["M"], "M (used)": s["M"],
                     "max n_Qm (paper)": p["max_n_aux"], "total n_Q (used)": s["total_n_aux"], "K": s["K"],
                     "original dim": p["original_dim"], "d": s["d"], "source": s.get("data_source", ""),
                     "SHA-256": s.get("data_sha256", "")})
    frame = pd.DataFrame(rows)
    display = frame.drop(columns=["source"]).astype(str)
    display["SHA-256"] = [";".join(part.split("=")[0] + "=" + part.split("=")[-1][:12]
                                   for part in v.split(";")) if v else "" for v in frame["SHA-256"]]
    write_table(frame, tex, csv,
                "Table 1: the paper's datasets and the data used here, per dataset: real (files checked against "
                "pinned SHA-256, shown truncated; rows read, complete cases and target rows obtained vs the "
                "paper's n_P) or a semi-synthetic surrogate with Table 1's shape (Jobs, Taxi: source not "
                "identified; Adult only as a fallback when it cannot be fetched). Adult's 3,930 = total of the 7 "
                "auxiliary sets (spec A26).", "tab:contextual-table1", display=display)


def table2(ratios: pd.DataFrame, tex, csv, origin: str) -> None:
    """Table 2: mean-reward ratio to ABSE per (eps, eps_m), dataset and method, at t = n_P/4 and
    t = n_P, with rank sums; * marks the best method when its one-sided paired Wilcoxon test
    against every other method is significant at 0.05."""
    from dpbandits.stats import wilcoxon_less

    methods = ["LDPMAB w", "LDPMAB wo", "Linear w", "Linear wo", "NN w", "NN wo"]
    rows, raw = [], []
    for (eps, eps_m, dataset), grp in ratios.groupby(["epsilon", "eps_aux", "dataset"], sort=True):
        row = {"(eps, eps_m)": f"({eps:g},{eps_m:g})", "dataset": dataset}
        for col, tag in (("reward_quarter", "t=n/4"), ("reward_full", "t=n")):
            cell = grp[grp.t == col].set_index("method")
            best = cell["ratio"].idxmax()
            sig = all(wilcoxon_less(cell.loc[m, "values"], cell.loc[best, "values"]) < 0.05
                      for m in methods if m != best)
            for m in methods:
                row[f"{m} ({tag})"] = f"{cell.loc[m, 'ratio']:.3f}" + ("*" if m == best and sig else "")
                raw.append({"epsilon": eps, "eps_aux": eps_m, "dataset": dataset, "t": tag, "method": m,
                            "ratio": cell.loc[m, "ratio"], "rank": cell.loc[m, "rank"], "best_significant": m == best and sig})
        rows.append(row)
    ranks = pd.DataFrame(raw).groupby(["t", "method"])["rank"].sum()
    rank_row = {"(eps, eps_m)": "Rank sum", "dataset": ""}
    for tag in ("t=n/4", "t=n"):
        for m in methods:
            rank_row[f"{m} ({tag})"] = f"{ranks.loc[(tag, m)]:g}"
    display = pd.DataFrame(rows + [rank_row])
    write_table(pd.DataFrame(raw), tex, csv,
                f"Table 2 (data used: {origin}): mean reward relative to non-private ABSE (Algorithm 2 without noise); "
                "LDPMAB = primary preset (faithful LDP, valid radius); * = best and significantly better than every other method "
                "(one-sided paired Wilcoxon, 0.05)", "tab:contextual-table2", display=display)


# The entries of the figure records (:mod:`dpbandits.contextual.experiments.registry`): each
# reads its rule's named inputs (simulation tables) and draws.


def read_tables(paths) -> pd.DataFrame:
    """One table from a path or the union of several (each checked against its sidecar)."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    return pd.concat([read_results_or_quarantine(p) for p in paths], ignore_index=True)


def draw_fig3(job) -> None:
    leaves, title = partition_example(job.config["contextual"], job.config["seed"])
    fig3_partition(leaves, job.output.pdf, job.output.png, title)


def draw_fig4(job) -> None:
    fig4_rewards(job.output.pdf, job.output.png)


def draw_fig5(job) -> None:
    fig5_density(job.output.pdf, job.output.png)


def draw_fig6(job) -> None:
    fig6_learning(read_tables(job.input.sim), "primary", job.output.pdf, job.output.png)


def draw_fig6_code(job) -> None:
    fig6_learning(read_tables(job.input.sim), "authors_code", job.output.pdf, job.output.png)


def draw_fig7(job) -> None:
    fig7_regret_vs_n(read_tables(job.input.sim), job.output.pdf, job.output.png)


def draw_fig7_code(job) -> None:
    fig7_authors_code(read_tables(job.input.sims), AUTHORS_FIG7A, job.output.pdf, job.output.png)


def draw_fig8(job) -> None:
    fig8_aux_size(read_tables(job.input.sim), job.output.pdf, job.output.png)


def draw_fig9a(job) -> None:
    fig9a_kappa(read_tables(job.input.sim), job.output.pdf, job.output.png)


def draw_fig9b(job) -> None:
    fig9b_gamma(read_tables(job.input.sim), job.output.pdf, job.output.png)


def draw_fig9c(job) -> None:
    fig9c_order(read_tables(job.input.sim), job.output.pdf, job.output.png)


def draw_presets(job) -> None:
    presets_comparison(read_tables(job.input.fig7), read_tables(job.input.code), read_tables(job.input.presets),
                       job.output.pdf, job.output.png)


# Table 1 and Table 2 read the three datasets' tables; both show where each dataset's data came
# from (real with its SHA-256, surrogate, or surrogate fallback).
TABLE_SHAPE = ["dataset", "n_target", "M", "max_n_aux", "total_n_aux", "K", "d", "origin"]
TABLE_PROVENANCE = ["data_used", "data_source", "data_sha256", "rows_read", "rows_complete", "rows_target_full"]


def dataset_tables(job) -> tuple[pd.DataFrame, list[dict]]:
    """The union of the datasets' tables and one shape-and-provenance record per dataset."""
    t = read_tables(job.input.tables)
    for col in TABLE_PROVENANCE:  # tables simulated before provenance columns existed
        if col not in t:
            t[col] = t["origin"] if col == "data_used" else float("nan") if col.startswith("rows") else ""
    shapes = t[TABLE_SHAPE + TABLE_PROVENANCE].drop_duplicates("dataset").to_dict(orient="records")
    return t, shapes


def draw_table1(job) -> None:
    _, shapes = dataset_tables(job)
    table1(shapes, job.output.tex, job.output.csv)
