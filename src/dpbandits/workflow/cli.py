"""The command line of a researcher's own algorithm, in any of the four families (``--family``
online, the default, dueling, quantile or contextual): ``dpbandits simulate`` runs it beside the
paper's algorithms on the same seeds (common random numbers) and writes a table and a figure;
``dpbandits audit`` runs the black-box privacy audit of the workflow's X-AUDIT rows on it, with
its negative control and what the audit could have found at its size (the family's leak classes,
e.g. :mod:`dpbandits.online.checks.leaks`), and writes the rows and a figure. No config file, no
Snakemake: the algorithm is named as ``path/to/file.py:Class`` or ``package.module:Class`` (or,
online, a paper algorithm's name), its parameters as ``--param name=value``.

    dpbandits simulate examples/dp_ucb_tree.py:DPUCBTree --param width=1 --epsilon 0.5 --horizon 100000
    dpbandits audit examples/leaky_ucb.py:LeakyUCB --samples 20000

Bad input stops before any work with a message naming the argument and what it allows.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from dpbandits.workflow.cli_common import (
    UsageError,
    check,
    draw_curves,
    label,
    parse_params,
    same_runs_note,
)

__all__ = ["main", "parse_params"]

SETTINGS = ("1", "2")  # the arm means of Figures 1 and 2 (dpbandits.online.checks.figures.FIG_SETTINGS)
COMPARE = ("lazy_dp_ts", "adap_klucb", "anytime_lazy_ucb", "dp_se")  # the algorithms of Figures 1-2
FAMILY_NAMES = ("online", "dueling", "quantile", "contextual")


def _means(args) -> list[float]:
    if args.means and args.setting:
        raise UsageError("--setting and --means: give one (the arm means of Figure 1 or 2, or your own)")
    if args.means:
        try:
            means = [float(x) for x in args.means.split(",")]
        except ValueError as err:
            raise UsageError(f"--means {args.means!r}: expected comma-separated numbers in [0, 1]") from err
        if len(means) < 2 or not all(0 <= m <= 1 for m in means):
            raise UsageError(f"--means {args.means!r}: expected at least two arm means in [0, 1]")
        return means
    from dpbandits.online.checks.figures import FIG_SETTINGS

    return list(FIG_SETTINGS["settings"][f"setting{args.setting or '1'}"]["means"])


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
    from dpbandits.workflow.cli_families import class_dry_run, family_hint, named_class

    problems = class_dry_run("online", cls, params)
    if problems:
        raise UsageError(f"{named_class(cls, params)}: {problems[0]}{family_hint(cls, params, 'online')}")
    return cls


def simulate_inputs(args) -> dict:
    """The checked inputs of ``dpbandits simulate`` (every error before any work)."""
    if args.family != "online":
        from dpbandits.workflow.cli_families import family_simulate_inputs

        return family_simulate_inputs(args)
    if args.instance is not None:
        raise UsageError("--instance is for the dueling, quantile and contextual families; the online family takes "
                         "--setting or --means")
    args.horizon = 100_000 if args.horizon is None else args.horizon
    args.runs = 20 if args.runs is None else args.runs
    means = _means(args)
    check("--epsilon", args.epsilon, args.epsilon > 0, "a number > 0")
    check("--horizon", args.horizon, len(means) <= args.horizon <= 10**8, f"an integer in [{len(means)}, 1e8]")
    check("--runs", args.runs, 1 <= args.runs <= 10_000, "an integer in [1, 10000]")
    check("--seed", args.seed, args.seed >= 0, "an integer >= 0")
    params = parse_params(args.param)
    target = _load(args.algorithm, params)
    compare = [c for c in args.compare.split(",") if c] if args.compare is not None else list(COMPARE)
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
    jobs = [(label(args.algorithm), target, params)] + [(c, c, {}) for c in compare]
    for name, algorithm, kw in progress(jobs, "simulate", total=len(jobs), stream=sys.stderr):
        res = simulate(algorithm, means, args.epsilon, args.horizon, args.runs, args.seed, kw or None,
                       checkpoints=checkpoints)
        est, lo, hi = bootstrap_ci(res.final_regret, np.mean, rng)
        rows.append({"algorithm": name, "epsilon": args.epsilon, "horizon": args.horizon, "runs": args.runs,
                     "mean_final_regret": est, "ci_low": lo, "ci_high": hi, "note": same_runs_note(res.final_regret)})
        curves[name] = res.regret
    table = pd.DataFrame(rows)
    table.to_csv(out / "simulate.csv", index=False)
    _plot_regret(curves, checkpoints, label(args.algorithm), means, args, out)
    return table


def _plot_regret(curves: dict, checkpoints, mine: str, means, args, out: Path) -> None:
    import matplotlib.pyplot as plt

    from dpbandits.plotting import algorithm_palette, apply_style, save_figure

    apply_style()
    fig, ax = plt.subplots(figsize=(6.0, 4.0))
    draw_curves(ax, {name: (checkpoints, regret) for name, regret in curves.items()}, mine,
                algorithm_palette(list(curves)))
    ax.set_ylabel("cumulative pseudo-regret")
    ax.set_title(f"mu = ({', '.join(f'{m:g}' for m in means)}), eps = {args.epsilon:g}, {args.runs} runs (+-1 sd)",
                 fontsize=9)
    ax.legend(fontsize=8)
    save_figure(fig, out / "simulate.pdf", out / "simulate.png")


def audit_inputs(args) -> dict:
    """The checked inputs of ``dpbandits audit`` (every error before any work)."""
    from dpbandits.online.interface import ExtraAlgorithm

    if args.family != "online":
        from dpbandits.workflow.cli_families import family_audit_inputs

        return family_audit_inputs(args)
    if args.epochs is not None:
        raise UsageError("--epochs is the quantile audit's (dpbandits audit --help says which family takes which "
                         "option)")
    if args.pilot is not None or args.no_power:
        raise UsageError(f"--{'pilot' if args.pilot is not None else 'no-power'} is the dueling and quantile audits' "
                         "(the online audit's events come from a pilot of a quarter of --samples, and its power table "
                         "is always measured)")
    defaults = {"accounting": 1.0, "horizons": [8, 16], "arms": 2, "rounds": [1, 3, 4], "samples": 100_000}
    for name, value in defaults.items():
        setattr(args, name, value if getattr(args, name) is None else getattr(args, name))
    check("--epsilon", args.epsilon, args.epsilon > 0, "a number > 0")
    check("--samples", args.samples, 1000 <= args.samples <= 20_000_000, "an integer in [1000, 2e7]")
    check("--confidence", args.confidence, 0.5 <= args.confidence < 1, "a number in [0.5, 1)")
    check("--horizons", args.horizons, all(4 <= t <= 16 for t in args.horizons) and
           len(set(args.horizons)) == len(args.horizons), "distinct integers in [4, 16]")
    check("--arms", args.arms, 2 <= args.arms <= 8, "an integer in [2, 8]")
    check("--rounds", args.rounds, all(1 <= h <= 16 for h in args.rounds) and len(set(args.rounds)) == len(args.rounds),
           "distinct integers in [1, 16]")
    check("--control", args.control, 0 < args.control < 1, "a number in (0, 1)")
    check("--accounting", args.accounting, args.accounting > 0, "a number > 0")
    params = parse_params(args.param)
    if ":" not in args.algorithm:
        raise UsageError(f"ALGORITHM {args.algorithm!r}: expected path/to/file.py:Class or package.module:Class")
    _load(args.algorithm, params)
    name = "".join(c if c.isalnum() else "_" for c in label(args.algorithm).lower())
    spec = ExtraAlgorithm(name=name, import_path=args.algorithm, params=params, epsilon_accounting=args.accounting,
                          label=label(args.algorithm), audit_samples=args.samples, control_noise_multiplier=args.control,
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
        reads_published,
    )

    spec, a = inputs["spec"], inputs["a"]
    reads = "its actions and published values" if reads_published(spec) else "its actions"
    print(f"auditing {args.algorithm} at K = {args.arms}, T = {', '.join(map(str, args.horizons))} with {args.samples} runs per "
          f"table, reading {reads} (the algorithm, its control and four leak classes)...", file=sys.stderr)
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


class _Defaults(argparse.ArgumentDefaultsHelpFormatter):
    """``--help`` shows an option's default where it has one (a family-dependent default is in its
    help text)."""

    def _get_help_string(self, action):
        if action.default in (None, [], argparse.SUPPRESS) or "%(default)" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dpbandits", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", formatter_class=_Defaults, help="run an algorithm of your own beside the paper's with the same seed")
    sim.add_argument("algorithm", help="path/to/file.py:Class, package.module:Class (online: or a paper algorithm)")
    sim.add_argument("--family", choices=FAMILY_NAMES, default="online", help="the class's family (its protocol)")
    sim.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="its parameters")
    sim.add_argument("--setting", choices=SETTINGS, help="online: the arm means of Figure 1 (default) or 2")
    sim.add_argument("--means", help="online: comma-separated arm means instead of a setting")
    sim.add_argument("--instance", help="dueling, quantile, contextual: a constructor call, e.g. 'f1(8)', "
                     "'disc(0.4, 0.2)', 'BumpInstance()' (default: that one)")
    sim.add_argument("--epsilon", type=float, default=0.5, help="the privacy parameter of the private algorithms")
    sim.add_argument("--horizon", type=int, help="rounds or target users (default: online 1e5, where Figures 1-2 "
                     "use 1e6; dueling 2e4; contextual 5000; quantile: none)")
    sim.add_argument("--runs", type=int, help="runs per algorithm (default 20; contextual 10)")
    sim.add_argument("--seed", type=int, default=1, help="the root seed of every algorithm's runs")
    sim.add_argument("--compare", help="comma-separated paper algorithms (default: online "
                     f"{','.join(COMPARE)}; dueling dp_ebs_elimination,rucb; quantile seq,dp_seq; contextual "
                     "primary,linear,nn)")
    sim.add_argument("--out", default="dpbandits-out/simulate", help="folder of the table and the figure")
    aud = sub.add_parser("audit", formatter_class=_Defaults,
                         help="black-box privacy audit of an online, dueling or quantile algorithm, or a contextual "
                         "randomiser")
    aud.add_argument("algorithm", help="path/to/file.py:Class or package.module:Class")
    aud.add_argument("--family", choices=FAMILY_NAMES, default="online",
                     help="online, dueling or quantile (an algorithm; quantile: the epoch form), or contextual (a "
                     "local randomiser, audited per user)")
    aud.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="its parameters")
    aud.add_argument("--epsilon", type=float, default=1.0, help="the epsilon it is built with")
    aud.add_argument("--accounting", type=float, help="online: it claims (accounting x epsilon)-DP (default 1)")
    aud.add_argument("--samples", type=int, help="runs per neighbouring table (default 100000; dueling, quantile "
                     "20000); "
                     "contextual: releases per input (default 100000)")
    aud.add_argument("--horizons", type=int, nargs="+", help="online, dueling: horizons of the tables (default "
                     "8 16; dueling 16 64)")
    aud.add_argument("--arms", type=int, help="online, dueling: arms of the tables (default 2)")
    aud.add_argument("--pilot", type=int, help="dueling, quantile: runs per candidate table of the pilot that "
                     "chooses the neighbouring pair (default 1000)")
    aud.add_argument("--epochs", type=int, help="quantile: the epochs the class runs for (default 3)")
    aud.add_argument("--no-power", action="store_true", help="dueling, quantile: skip the power table (the leak "
                     "classes and the reference), most of the audit's time")
    aud.add_argument("--rounds", type=int, nargs="+",
                     help="online: rounds whose reward vector a neighbouring table mirrors (default 1 3 4)")
    aud.add_argument("--confidence", type=float, default=0.999, help="of the lower bound on the privacy loss")
    aud.add_argument("--control", type=float, default=0.5, help="the negative control's noise multiplier")
    aud.add_argument("--seed", type=int, default=1, help="the root seed of the audit's runs")
    aud.add_argument("--out", default="dpbandits-out/audit", help="folder of the rows and the figure")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    prepare, run = ((simulate_inputs, simulate_command) if args.command == "simulate"
                    else (audit_inputs, audit_command))
    if args.family != "online":
        from dpbandits.workflow import cli_families

        run = (cli_families.family_simulate_command if args.command == "simulate"
               else cli_families.family_audit_command)
    try:  # the inputs: an algorithm that does not import, a parameter it does not take, a value out of range
        inputs = prepare(args)
    except (UsageError, ImportError, TypeError, ValueError) as err:
        print(f"dpbandits {args.command}: {err}", file=sys.stderr)
        return 2
    table = run(args, inputs)
    with pd.option_context("display.max_colwidth", 200, "display.width", 200):
        print(table.drop(columns=["claim"], errors="ignore").to_string(index=False))
    if args.command == "audit" and "claim" in table:
        print("\n" + "\n\n".join(f"{r.check_id}: {r.claim}" for r in table.itertuples()))
    elif args.command == "audit":
        print(f"\n{table.verdict.iloc[0]}")
    print(f"\nwritten: {args.out}/", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
