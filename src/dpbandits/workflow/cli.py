"""The command line of a researcher's own online algorithm: ``dpbandits simulate`` runs it beside
the paper's algorithms on the same seeds (common random numbers) and writes a table and a figure;
``dpbandits audit`` runs the black-box privacy audit of the workflow's X-AUDIT rows on it, with
its negative control and what the audit could have found at its size (the leak classes of
:mod:`dpbandits.online.checks.leaks`), and writes the rows and a figure. No config file, no
Snakemake: the algorithm is named as ``path/to/file.py:Class`` or ``package.module:Class`` (or a
paper algorithm's name), its parameters as ``--param name=value``.

    dpbandits simulate examples/dp_ucb_tree.py:DPUCBTree --param width=1 --epsilon 0.5 --horizon 100000
    dpbandits audit examples/leaky_ucb.py:LeakyUCB --samples 20000

Bad input stops before any work with a message naming the argument and what it allows.
"""

from __future__ import annotations

import argparse
import ast
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["main", "parse_params"]

SETTINGS = {"1": [0.75, 0.625, 0.5, 0.375, 0.25], "2": [0.5, 0.4, 0.4, 0.4, 0.4]}  # Figures 1 and 2
COMPARE = ("lazy_dp_ts", "anytime_lazy_ucb", "dp_se")


class UsageError(ValueError):
    """A command-line argument out of its range (reported with the argument's name)."""


def parse_params(items: list[str]) -> dict:
    """``["width=1", "name='x'"]`` -> ``{"width": 1, "name": "x"}`` (values as Python literals,
    else strings)."""
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.isidentifier():
            raise UsageError(f"--param {item!r}: expected name=value with a Python identifier as the name")
        try:
            out[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            out[name] = value
    return out


def _means(args) -> list[float]:
    if args.means:
        try:
            means = [float(x) for x in args.means.split(",")]
        except ValueError as err:
            raise UsageError(f"--means {args.means!r}: expected comma-separated numbers in [0, 1]") from err
        if len(means) < 2 or not all(0 <= m <= 1 for m in means):
            raise UsageError(f"--means {args.means!r}: expected at least two arm means in [0, 1]")
        return means
    return SETTINGS[args.setting]


def _check(name: str, value, ok: bool, allowed: str) -> None:
    if not ok:
        raise UsageError(f"{name} {value!r}: allowed {allowed}")


def _label(algorithm: str) -> str:
    return algorithm.rpartition(":")[2] or algorithm


def _load(algorithm: str, params: dict):
    """The class (or paper algorithm name) and its checked parameters, before any work."""
    from dpbandits.online.api import ALGORITHMS
    from dpbandits.online.interface import check_algorithm_params, load_algorithm

    if algorithm in ALGORITHMS:  # its parameters checked by a run of K rounds
        from dpbandits.online import simulate

        simulate(algorithm, [0.6, 0.4], 1.0, 2, 1, 0, params or None)
        return algorithm
    if ":" not in algorithm:
        raise UsageError(f"ALGORITHM {algorithm!r}: expected path/to/file.py:Class, package.module:Class "
                         f"or one of {sorted(ALGORITHMS)}")
    cls = load_algorithm(algorithm)
    check_algorithm_params(cls, params)
    return cls


def simulate_inputs(args) -> dict:
    """The checked inputs of ``dpbandits simulate`` (every error before any work)."""
    means = _means(args)
    _check("--epsilon", args.epsilon, args.epsilon > 0, "a number > 0")
    _check("--horizon", args.horizon, len(means) <= args.horizon <= 10**8, f"an integer in [{len(means)}, 1e8]")
    _check("--runs", args.runs, 1 <= args.runs <= 10_000, "an integer in [1, 10000]")
    _check("--seed", args.seed, args.seed >= 0, "an integer >= 0")
    params = parse_params(args.param)
    target = _load(args.algorithm, params)
    compare = [c for c in args.compare.split(",") if c] if args.compare else list(COMPARE)
    for c in compare:
        _load(c, {})
    return {"means": means, "params": params, "target": target, "compare": compare}


def simulate_command(args, inputs: dict) -> pd.DataFrame:
    """``dpbandits simulate``: the algorithm and the comparators on the same seeds; a table of
    final regrets (mean with a bootstrap 95% CI) and a figure of the mean regret against t."""
    from dpbandits.online import simulate
    from dpbandits.progress import progress
    from dpbandits.stats import bootstrap_ci

    means, params, target, compare = inputs["means"], inputs["params"], inputs["target"], inputs["compare"]
    checkpoints = np.unique(np.geomspace(len(means), args.horizon, 40).astype(int))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows, curves = [], {}
    rng = np.random.default_rng(args.seed)
    jobs = [(_label(args.algorithm), target, params)] + [(c, c, {}) for c in compare]
    for name, algorithm, kw in progress(jobs, "simulate", total=len(jobs), stream=sys.stderr):
        res = simulate(algorithm, means, args.epsilon, args.horizon, args.runs, args.seed, kw or None,
                       checkpoints=checkpoints)
        est, lo, hi = bootstrap_ci(res.final_regret, np.mean, rng)
        rows.append({"algorithm": name, "epsilon": args.epsilon, "horizon": args.horizon, "runs": args.runs,
                     "mean_final_regret": est, "ci_low": lo, "ci_high": hi})
        curves[name] = res.regret
    table = pd.DataFrame(rows)
    table.to_csv(out / "simulate.csv", index=False)
    _plot_regret(curves, checkpoints, _label(args.algorithm), means, args, out)
    return table


def _plot_regret(curves: dict, checkpoints, mine: str, means, args, out: Path) -> None:
    import matplotlib.pyplot as plt

    from dpbandits.plotting import algorithm_palette, apply_style, save_figure

    apply_style()
    fig, ax = plt.subplots(figsize=(6.0, 4.0))
    colours = algorithm_palette(list(curves))
    for name, regret in curves.items():
        mean, sd = regret.mean(axis=0), regret.std(axis=0)
        style = {"linewidth": 2.4} if name == mine else {"linewidth": 1.2, "linestyle": "--"}
        ax.plot(checkpoints, mean, color=colours[name], label=name, **style)
        ax.fill_between(checkpoints, mean - sd, mean + sd, color=colours[name], alpha=0.12)
    ax.set_xlabel("round t")
    ax.set_ylabel("cumulative pseudo-regret")
    ax.set_title(f"mu = ({', '.join(f'{m:g}' for m in means)}), eps = {args.epsilon:g}, {args.runs} runs (+-1 sd)",
                 fontsize=9)
    ax.legend(fontsize=8)
    save_figure(fig, out / "regret.pdf", out / "regret.png")


def audit_inputs(args) -> dict:
    """The checked inputs of ``dpbandits audit`` (every error before any work)."""
    from dpbandits.online.interface import ExtraAlgorithm

    _check("--epsilon", args.epsilon, args.epsilon > 0, "a number > 0")
    _check("--samples", args.samples, 1000 <= args.samples <= 20_000_000, "an integer in [1000, 2e7]")
    _check("--confidence", args.confidence, 0.5 <= args.confidence < 1, "a number in [0.5, 1)")
    _check("--horizons", args.horizons, all(4 <= t <= 16 for t in args.horizons) and
           len(set(args.horizons)) == len(args.horizons), "distinct integers in [4, 16]")
    _check("--arms", args.arms, 2 <= args.arms <= 8, "an integer in [2, 8]")
    _check("--rounds", args.rounds, all(1 <= h <= 16 for h in args.rounds) and len(set(args.rounds)) == len(args.rounds),
           "distinct integers in [1, 16]")
    _check("--control", args.control, 0 < args.control < 1, "a number in (0, 1)")
    _check("--accounting", args.accounting, args.accounting > 0, "a number > 0")
    params = parse_params(args.param)
    if ":" not in args.algorithm:
        raise UsageError(f"ALGORITHM {args.algorithm!r}: expected path/to/file.py:Class or package.module:Class")
    _load(args.algorithm, params)
    name = "".join(c if c.isalnum() else "_" for c in _label(args.algorithm).lower())
    spec = ExtraAlgorithm(name=name, import_path=args.algorithm, params=params, epsilon_accounting=args.accounting,
                          label=_label(args.algorithm), audit_samples=args.samples, control_noise_multiplier=args.control,
                          audit_horizons=tuple(args.horizons), audit_arms=args.arms, audit_rounds=tuple(args.rounds))
    problems = spec.audit_problems()
    if problems:
        field_name, value, allowed = problems[0]
        raise UsageError(f"{'--arms' if field_name == 'audit_arms' else '--rounds'} {value}: allowed {allowed}")
    return {"spec": spec, "a": {"epsilon": args.epsilon, "confidence": args.confidence,
                                "control_noise_multiplier": args.control}}


def audit_command(args, inputs: dict) -> pd.DataFrame:
    """``dpbandits audit``: the X-AUDIT rows of the workflow for this algorithm, judged by the
    guards, and a figure of the audit's lower bounds (the algorithm, its control, the leak
    classes at the same size) against the claimed epsilon."""
    from dpbandits.evidence.guards import judge_all
    from dpbandits.online.checks.extra import (
        _audit_rows,
        audit_extra,
        audit_power,
        control_multiplier,
    )

    spec, a = inputs["spec"], inputs["a"]
    print(f"auditing {args.algorithm} at K = {args.arms}, T = {', '.join(map(str, args.horizons))} with {args.samples} runs per "
          "table (the algorithm, its control and four leak classes)...", file=sys.stderr)
    start = time.perf_counter()
    real, control, how = audit_extra(spec, args.seed, a)
    middle = time.perf_counter()
    reference, power = audit_power(spec, args.seed, a)
    print(f"audit took {middle - start:.1f} s for the algorithm and its control, {time.perf_counter() - middle:.1f} s "
          "for the power table (fewer --samples or --horizons make both shorter)", file=sys.stderr)
    rows = judge_all(_audit_rows(spec, real, control, how, "cli", control_multiplier(spec, a), power))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    table = pd.DataFrame([{"check_id": r.check_id, "verdict": r.verdict, "reason": r.reason,
                           "lower_bound": r.value, "claim": r.claim} for r in rows])
    table.to_csv(out / "audit.csv", index=False)
    _plot_audit(spec, real, control, reference, power, out)
    return table


def _plot_audit(spec, real, control, reference, power, out: Path) -> None:
    import matplotlib.pyplot as plt

    from dpbandits.plotting import apply_style, save_figure

    apply_style()
    names = [spec.label, "its control", "eps-DP reference", *[p.description.split(" (")[0] for p in power]]
    bounds = [real.epsilon_lower_bound, control.epsilon_lower_bound, reference.epsilon_lower_bound,
              *[p.lower_bound for p in power]]
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    colours = ["#4477aa", "#999999", "#66aa55", *["#dd7733"] * len(power)]
    ax.barh(names, bounds, color=colours)
    ax.axvline(real.epsilon, color="black", linestyle="--", linewidth=1)
    ax.text(real.epsilon, -0.7, " claimed eps", fontsize=8, va="center")
    ax.invert_yaxis()
    ax.set_xlabel("Clopper-Pearson lower bound on the privacy loss")
    ax.set_title(f"audit of {spec.label}: above the line = refuted", fontsize=9)
    save_figure(fig, out / "audit.pdf", out / "audit.png")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dpbandits", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="run an online algorithm beside the paper's on the same seeds")
    sim.add_argument("algorithm", help="path/to/file.py:Class, package.module:Class or a paper algorithm")
    sim.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="its parameters")
    sim.add_argument("--setting", choices=sorted(SETTINGS), default="1", help="the arm means of Figure 1 or 2")
    sim.add_argument("--means", help="comma-separated arm means instead of a setting")
    sim.add_argument("--epsilon", type=float, default=0.5)
    sim.add_argument("--horizon", type=int, default=100_000)
    sim.add_argument("--runs", type=int, default=20)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--compare", default=",".join(COMPARE), help="comma-separated paper algorithms")
    sim.add_argument("--out", default="dpbandits-out/simulate", help="folder of the table and the figure")
    aud = sub.add_parser("audit", help="black-box privacy audit of an online algorithm, with its power")
    aud.add_argument("algorithm", help="path/to/file.py:Class or package.module:Class")
    aud.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="its parameters")
    aud.add_argument("--epsilon", type=float, default=1.0, help="the epsilon it is built with")
    aud.add_argument("--accounting", type=float, default=1.0, help="it claims (accounting x epsilon)-DP")
    aud.add_argument("--samples", type=int, default=100_000, help="runs per neighbouring reward table")
    aud.add_argument("--horizons", type=int, nargs="+", default=[8, 16], help="horizons of the reward tables")
    aud.add_argument("--arms", type=int, default=2, help="arms of the reward tables")
    aud.add_argument("--rounds", type=int, nargs="+", default=[1, 3, 4],
                     help="rounds whose reward vector a neighbouring table mirrors")
    aud.add_argument("--confidence", type=float, default=0.999)
    aud.add_argument("--control", type=float, default=0.5, help="the negative control's noise multiplier")
    aud.add_argument("--seed", type=int, default=1)
    aud.add_argument("--out", default="dpbandits-out/audit", help="folder of the rows and the figure")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    prepare, run = ((simulate_inputs, simulate_command) if args.command == "simulate"
                    else (audit_inputs, audit_command))
    try:  # the inputs: an algorithm that does not import, a parameter it does not take, a value out of range
        inputs = prepare(args)
    except (UsageError, ImportError, TypeError, ValueError) as err:
        print(f"dpbandits {args.command}: {err}", file=sys.stderr)
        return 2
    table = run(args, inputs)
    with pd.option_context("display.max_colwidth", 200, "display.width", 200):
        print(table.drop(columns=["claim"], errors="ignore").to_string(index=False))
    if args.command == "audit":
        print("\n" + "\n\n".join(f"{r.check_id}: {r.claim}" for r in table.itertuples()))
    print(f"\nwritten: {args.out}/", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
