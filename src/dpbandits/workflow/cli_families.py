"""``dpbandits simulate --family dueling | quantile | contextual`` and ``dpbandits audit --family
dueling | quantile | contextual``: a researcher's class of the dueling, quantile or contextual
family (the family's protocol, ``dpbandits.<family>.interface``) run beside the paper's algorithms
on one instance with the same root seed, written as a table (a 95% bootstrap CI of the mean per
algorithm) and a figure; a dueling class, a private quantile class in the epoch form, or a
contextual local randomiser per user, audited with its negative control and the audit's power per
leak class at its size. The online family's commands are :mod:`dpbandits.workflow.cli`'s.

Instances are named as a call of one of the family's constructors with literal arguments
(``--instance "f1(8)"``, ``"disc(0.4, 0.2)"``, ``"BumpInstance()"``); the dueling constructors
that draw an instance (``f4``, ``g2``) get a generator of the root seed.
"""

from __future__ import annotations

import ast
import math
import sys
from dataclasses import dataclass
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

__all__ = ["FAMILIES", "Family", "family_simulate_inputs", "family_simulate_command", "family_audit_inputs",
           "family_audit_command"]


@dataclass(frozen=True)
class Family:
    """What the command line needs of one family: its instance constructors (module and names),
    the default instance, the paper's algorithms compared by default and which of them are private
    (they get ``--epsilon``, the others None), its defaults of horizon and runs (None: it has no
    horizon), and what a run's table reports (``measure``)."""

    name: str
    module: str
    constructors: tuple[str, ...]
    default_instance: str
    compare: tuple[str, ...]
    private: tuple[str, ...]
    horizon: int | None
    runs: int
    measure: str

    def algorithms(self) -> tuple[str, ...]:
        import importlib

        return tuple(importlib.import_module(f"dpbandits.{self.name}.api").ALGORITHMS)


FAMILIES = {
    "dueling": Family("dueling", "dpbandits.dueling.instances", ("f1", "f2", "f3", "f4", "g1", "g2", "g3", "g4"),
                      "f1(8)", ("dp_ebs_elimination", "rucb"), ("dp_ebs_elimination", "goptimal_dpdb"), 20_000, 20,
                      "cumulative pseudo-regret (preference units) at the horizon"),
    "quantile": Family("quantile", "dpbandits.quantile.instances",
                       ("gauss", "logn", "logn10", "exponential", "disc", "bern12", "mix", "zero_gap", "cauchy"),
                       "disc(0.4, 0.2)", ("seq", "dp_seq"), ("dp_seq",), None, 20,
                       "samples drawn until an arm is recommended (all arms)"),
    "contextual": Family("contextual", "dpbandits.contextual.instances", ("BumpInstance", "SymmetricInstance"),
                         "BumpInstance()", ("primary", "linear", "nn"),
                         ("literal", "primary", "authors_code", "unit_constants", "coarse_fixed", "linear", "nn"),
                         5_000, 10, "cumulative regret over the target users"),
}


def parse_instance(family: Family, text: str, seed: int):
    """The instance ``text`` names: a call of one of ``family.constructors`` with literal
    arguments (module docstring)."""
    import importlib

    allowed = ", ".join(f"{c}(...)" for c in family.constructors)
    try:
        call = ast.parse(text, mode="eval").body
    except SyntaxError:
        call = None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        raise UsageError(f"--instance {text!r}: expected a call such as {family.default_instance!r}; allowed: {allowed}")
    if call.func.id not in family.constructors:
        raise UsageError(f"--instance {text!r}: unknown constructor {call.func.id!r} for the {family.name} family; "
                         f"allowed: {allowed}")
    try:
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    except ValueError as err:
        raise UsageError(f"--instance {text!r}: arguments must be literals (numbers, strings, lists)") from err
    constructor = getattr(importlib.import_module(family.module), call.func.id)
    if family.name == "dueling" and call.func.id in ("f4", "g2"):
        kwargs.setdefault("rng", np.random.default_rng(seed))
    if call.func.id == "g4":
        args = [np.asarray(a, dtype=float) for a in args]
    try:
        return constructor(*args, **kwargs)
    except (TypeError, ValueError) as err:
        raise UsageError(f"--instance {text!r}: {err}") from err


def _class(family: Family, algorithm: str, params: dict, horizon: int | None = None):
    """The researcher's class ``algorithm`` names, checked against the family's protocol, with
    its parameters checked and a dry run (:func:`class_dry_run`; ``horizon``: the run's, for a
    contextual policy), before any work."""
    import importlib

    from dpbandits.online.interface import load_algorithm

    if ":" not in algorithm:
        raise UsageError(f"ALGORITHM {algorithm!r}: expected path/to/file.py:Class or package.module:Class (a class "
                         f"of the {family.name} family's protocol; the paper's algorithms are compared with --compare)")
    cls = load_algorithm(algorithm)
    interface = importlib.import_module(f"dpbandits.{family.name}.interface")
    problems = interface.class_problems(cls)
    if problems:
        hint = ("; it is a local randomiser: audit it with dpbandits audit --family contextual"
                if family.name == "contextual" and callable(getattr(cls, "release", None)) else "")
        raise UsageError(f"{cls.__name__} cannot run as a {family.name} algorithm: {'; '.join(problems)} "
                         f"(dpbandits.{family.name}.interface){hint}")
    interface.class_params(cls, params)
    entry = {"horizon": horizon} if horizon is not None else {}
    problems = class_dry_run(family.name, cls, params, entry)
    if problems:
        raise UsageError(f"{named_class(cls, params)}: {problems[0]}{family_hint(cls, params, family.name)}")
    return cls


def class_dry_run(family: str, cls, params: dict, entry: dict | None = None) -> list[str]:
    """The problems a short dry run of ``cls`` as a ``family`` algorithm meets, each on one line
    (the config check's dry run: :func:`dpbandits.online.interface.dry_run_problems`, or the
    family's ``dry_run`` in ``dpbandits.<family>.checks.extra``, given ``entry``, the config
    entry's fields it reads); empty when it runs. A contextual policy's randomiser whose reports
    the workflow's audit could not read (the dry run's ``import`` problem) is no problem here: a
    simulation does not audit it, and ``dpbandits audit --family contextual`` audits a randomiser
    by itself."""
    import importlib

    if family == "online":
        from dpbandits.online.interface import dry_run_problems, interface_problems

        found = interface_problems(cls) or dry_run_problems(cls, params)
    else:
        interface = importlib.import_module(f"dpbandits.{family}.interface")
        module = importlib.import_module(f"dpbandits.{family}.checks.extra")
        found = interface.class_problems(cls) or [
            problem if key == "params" else f"--{key} {problem}"
            for key, problem in module.dry_run(cls, params, entry or {}) if key != "import"]
    return [" ".join(str(problem).split()) for problem in found]


def family_hint(cls, params: dict, family: str) -> str:
    """When ``cls`` fails as a ``family`` algorithm: "; it runs as a <other> algorithm: is --family
    <other> missing?" for the other families whose dry run it passes (else nothing)."""
    others = [f for f in ("online", *FAMILIES) if f != family]
    fits = []
    for other in others:
        try:
            if not class_dry_run(other, cls, params):
                fits.append(other)
        except Exception:  # noqa: BLE001 - a class that cannot even be tried as another family fits none
            continue
    return f"; it runs as a {' or '.join(fits)} algorithm: is --family {fits[0]} missing?" if fits else ""


def named_class(cls, params: dict) -> str:
    """The class and its --param values, as the error names them."""
    shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
    return f"{cls.__name__} (--param {shown})" if shown else cls.__name__


def family_simulate_inputs(args) -> dict:
    """The checked inputs of ``dpbandits simulate --family F`` (every error before any work)."""
    family = FAMILIES[args.family]
    for name, value in (("--setting", args.setting), ("--means", args.means)):
        if value is not None:
            raise UsageError(f"{name} is the online family's (Figures 1-2); the {family.name} family takes --instance")
    if family.horizon is None and args.horizon is not None:
        raise UsageError("--horizon: the quantile family has none (a run stops when it recommends an arm, or at its cap)")
    horizon = family.horizon if args.horizon is None else args.horizon
    runs = family.runs if args.runs is None else args.runs
    check("--epsilon", args.epsilon, 0 < args.epsilon < math.inf, "a finite number > 0")
    if horizon is not None:
        check("--horizon", horizon, 1 <= horizon <= 10**7, "an integer in [1, 1e7]")
    check("--runs", runs, 1 <= runs <= 10_000, "an integer in [1, 10000]")
    check("--seed", args.seed, args.seed >= 0, "an integer >= 0")
    instance = parse_instance(family, args.instance or family.default_instance, args.seed)
    params = parse_params(args.param)
    cls = _class(family, args.algorithm, params, horizon)
    compare = family.compare if args.compare is None else tuple(c for c in args.compare.split(",") if c)
    unknown = [c for c in compare if c not in family.algorithms()]
    if unknown:
        raise UsageError(f"--compare {','.join(unknown)}: allowed for the {family.name} family: "
                         f"{', '.join(family.algorithms())}")
    if family.name == "contextual":
        _check_batches(instance, args.epsilon, horizon, cls, params, compare, label(args.algorithm))
    if "goptimal_dpdb" in compare and type(instance).__name__ != "LinearInstance":
        raise UsageError(f"--compare goptimal_dpdb: Algorithm 2 needs a linear instance (g1, g2, g3 or g4), got "
                         f"--instance {args.instance or family.default_instance!r}")
    return {"family": family, "instance": instance, "params": params, "cls": cls, "compare": compare,
            "horizon": horizon, "runs": runs}


def _check_batches(instance, epsilon: float, horizon: int, cls, params: dict, compare, name: str) -> None:
    """A contextual policy plays whole batches only: ``--horizon`` must hold one batch of the
    class and of every comparator (else the run would stop on it, or a paper's preset would play
    no batch and report a regret of 0)."""
    from dpbandits.contextual import api, sgd_reference
    from dpbandits.contextual.config import preset

    batches = {name: cls(instance.k, instance.d, epsilon, horizon, np.random.default_rng(0), **params).batch}
    for c in compare:
        batches[c] = (getattr(sgd_reference, api.COMPARATORS[c])(instance.k, instance.d, epsilon, horizon,
                                                                  np.random.default_rng(0)).batch
                      if c in api.COMPARATORS else preset(c).batch)
    too_big = {c: b for c, b in batches.items() if not isinstance(b, (int, np.integer)) or b > horizon}
    if too_big:
        shown = ", ".join(f"{c} {b!r}" for c, b in too_big.items())
        raise UsageError(f"--horizon {horizon}: allowed at least one batch of every algorithm (batches: {shown})")


def _run(family: Family, algorithm, instance, epsilon, horizon, runs, seed, params) -> dict:
    """One algorithm's runs: the measure per run (``final``), for the dueling family its curve
    at 40 checkpoints, for the quantile family whether each run recommended the best arm."""
    if family.name == "dueling":
        from dpbandits.dueling import simulate

        if algorithm == "goptimal_dpdb":  # a horizon is one run of it: its final regret only, in the table
            res = simulate(algorithm, instance, epsilon, horizon, runs, seed, params or None)
            return {"final": res.regret_pref[:, -1]}
        checkpoints = np.unique(np.geomspace(1, horizon, 40).astype(int))
        res = simulate(algorithm, instance, epsilon, horizon, runs, seed, params or None, checkpoints=checkpoints)
        return {"final": res.regret_pref[:, -1], "curve": (checkpoints, res.regret_pref)}
    if family.name == "quantile":
        from dpbandits.quantile import simulate

        res = simulate(algorithm, instance, epsilon, runs, seed, params or None)
        return {"final": res.total_pulls.astype(float), "correct": res.correct, "censored": res.censored}
    from dpbandits.contextual import LDPMABConfig, simulate

    res = simulate(algorithm, instance, epsilon, horizon, runs, seed, params or None)
    kind = ("eq. (1): each batch's expected regret under the policy's arm law" if isinstance(res.config, LDPMABConfig)
            else "realised: sum of f*(x) - f_arm(x) over the users")
    return {"final": res.regret, "measure": f"{family.measure} ({kind}; the same in expectation)"}


def _epsilon(family: Family, algorithm, epsilon: float):
    """The epsilon an algorithm runs with: the private ones ``--epsilon``, the others None (a
    contextual policy always gets it: its randomiser states its privacy)."""
    if isinstance(algorithm, type):
        return epsilon if family.name == "contextual" or getattr(algorithm, "private", True) else None
    return epsilon if algorithm in family.private else None


def family_simulate_command(args, inputs: dict) -> pd.DataFrame:
    """``dpbandits simulate --family F``: the class and the paper's algorithms on one instance with
    the same root seed; a table (mean of the family's measure with a bootstrap 95% CI; quantile:
    also the error rate and the censored runs) and a figure."""
    from dpbandits.progress import progress
    from dpbandits.stats import bootstrap_ci

    family, instance, cls = inputs["family"], inputs["instance"], inputs["cls"]
    mine = label(args.algorithm)
    jobs = [(mine, cls, inputs["params"])] + [(c, c, {}) for c in inputs["compare"]]
    rng = np.random.default_rng(args.seed)
    rows, runs = [], {}
    for name, algorithm, kw in progress(jobs, "simulate", total=len(jobs), stream=sys.stderr):
        eps = _epsilon(family, algorithm, args.epsilon)
        res = runs[name] = _run(family, algorithm, instance, eps, inputs["horizon"], inputs["runs"], args.seed, kw)
        est, lo, hi = bootstrap_ci(res["final"], np.mean, rng)
        row = {"algorithm": name, "epsilon": eps if eps is not None else "none (not private)",
               "instance": args.instance or family.default_instance, "runs": inputs["runs"]}
        if inputs["horizon"] is not None:
            row["horizon"] = inputs["horizon"]
        row.update({"measure": res.get("measure", family.measure), "mean": est, "ci_low": lo, "ci_high": hi})
        row["note"] = same_runs_note(res["final"])
        if "correct" in res:
            row.update({"error_rate": float(1 - res["correct"].mean()), "censored": int(res["censored"].sum())})
        rows.append(row)
    table = pd.DataFrame(rows)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "simulate.csv", index=False)
    _plot(family, runs, mine, args, inputs, out)
    return table


def _plot(family: Family, runs: dict, mine: str, args, inputs: dict, out: Path) -> None:
    import matplotlib.pyplot as plt

    from dpbandits.plotting import algorithm_palette, apply_style, save_figure

    apply_style()
    colours = algorithm_palette(list(runs))
    fig, ax = plt.subplots(figsize=(6.0, 4.0))
    curves = {n: r["curve"] for n, r in runs.items() if "curve" in r}
    if curves:
        draw_curves(ax, curves, mine, colours)
        ax.set_ylabel("cumulative pseudo-regret (preference units)")
        ax.legend(fontsize=8)
    else:
        names = list(runs)
        parts = ax.boxplot([runs[n]["final"] for n in names], orientation="horizontal", patch_artist=True)
        for i, (patch, name) in enumerate(zip(parts["boxes"], names, strict=True)):
            patch.set_facecolor(colours[name])
            patch.set_alpha(0.6 if name == mine else 0.3)
            ax.scatter(runs[name]["final"], np.full(len(runs[name]["final"]), i + 1.0), s=8, color=colours[name],
                       zorder=3)
        labels = [f"{n}\n(error rate {1 - runs[n]['correct'].mean():.2f})" if "correct" in runs[n] else n for n in names]
        ax.set_yticks(range(1, len(names) + 1), labels)
        ax.invert_yaxis()
        ax.set_xlabel(family.measure)
        if family.name == "quantile":
            ax.set_xscale("log")
    horizon = "" if inputs["horizon"] is None else f", horizon {inputs['horizon']}"
    ax.set_title(f"{args.instance or family.default_instance}, eps = {args.epsilon:g}{horizon}, {inputs['runs']} runs",
                 fontsize=9)
    save_figure(fig, out / "simulate.pdf", out / "simulate.png")


def family_audit_inputs(args) -> dict:
    """The checked inputs of ``dpbandits audit --family contextual`` (a local randomiser),
    ``--family dueling`` or ``--family quantile`` (a class of the family's protocol; quantile: a
    private class in the epoch form), every error before any work."""
    from dpbandits.online.interface import load_algorithm

    check("--epsilon", args.epsilon, args.epsilon > 0, "a number > 0")
    check("--confidence", args.confidence, 0.5 <= args.confidence < 1, "a number in [0.5, 1)")
    check("--control", args.control, 0 < args.control < 1, "a number in (0, 1)")
    own = {"contextual": ("accounting", "rounds", "horizons", "arms", "pilot", "no_power", "epochs"),
           "dueling": ("accounting", "rounds", "epochs"),
           "quantile": ("accounting", "rounds", "horizons", "arms")}[args.family]
    for name in own:
        if getattr(args, name) not in (None, False):
            raise UsageError(f"--{name.replace('_', '-')} is not the {args.family} audit's (dpbandits audit --help says "
                             "which family takes which option)")
    if ":" not in args.algorithm:
        raise UsageError(f"ALGORITHM {args.algorithm!r}: expected path/to/file.py:Class or package.module:Class")
    if args.family == "contextual":
        cls = load_algorithm(args.algorithm)
        args.samples = 100_000 if args.samples is None else args.samples
        check("--samples", args.samples, 1000 <= args.samples <= 20_000_000, "an integer in [1000, 2e7]")
        if args.param:
            raise UsageError("--param: a contextual randomiser is built as (epsilon, rng) and takes no parameters")
        if not callable(getattr(cls, "release", None)):
            raise UsageError(f"{cls.__name__} has no release method: the contextual audit audits a local randomiser "
                             "(release(x, arm, reward, public), built as (epsilon, rng); dpbandits.contextual.interface)")
        return {"cls": cls}
    args.pilot = 1000 if args.pilot is None else args.pilot
    args.samples = 20_000 if args.samples is None else args.samples
    check("--samples", args.samples, 100 <= args.samples <= 10_000_000, "an integer in [100, 1e7]")
    if args.family == "quantile":
        from dpbandits.quantile.interface import class_form

        args.epochs = 3 if args.epochs is None else args.epochs
        check("--pilot", args.pilot, 100 <= args.pilot <= 1_000_000, "an integer in [100, 1e6]")
        check("--epochs", args.epochs, 1 <= args.epochs <= 6, "an integer in [1, 6]")
        params = parse_params(args.param)
        cls = _class(FAMILIES["quantile"], args.algorithm, params)
        if class_form(cls) != "epochs":
            raise UsageError(f"{cls.__name__} is in the per-sample form: the quantile audit reads the epoch form "
                             "(next_epoch, end_epoch, result; dpbandits.quantile.interface)")
        if not getattr(cls, "private", True):
            raise UsageError(f"{cls.__name__} says private = False: it claims no privacy to audit")
        return {"cls": cls, "params": params}
    args.horizons = [16, 64] if args.horizons is None else args.horizons
    args.arms = 2 if args.arms is None else args.arms
    check("--pilot", args.pilot, 20 <= args.pilot <= 1_000_000, "an integer in [20, 1e6]")
    check("--horizons", args.horizons, all(2 <= t <= 4096 for t in args.horizons) and
          len(set(args.horizons)) == len(args.horizons), "distinct integers in [2, 4096]")
    check("--arms", args.arms, 2 <= args.arms <= 8, "an integer in [2, 8]")
    params = parse_params(args.param)
    return {"cls": _class(FAMILIES["dueling"], args.algorithm, params), "params": params}


def family_audit_command(args, inputs: dict) -> pd.DataFrame:
    """``dpbandits audit --family contextual | dueling | quantile``: the family's class audit
    (:func:`dpbandits.contextual.checks.audits.audit_randomizer_class`,
    :func:`dpbandits.dueling.checks.class_audit.audit_dueling_class`,
    :func:`dpbandits.quantile.checks.class_audit.audit_quantile_class`), as rows (the class, its
    negative control, the leak classes at the same size) and a figure of their lower bounds."""
    if args.family == "contextual":
        from dpbandits.contextual.checks.audits import audit_randomizer_class

        print(f"auditing {args.algorithm} with {args.samples} releases per input (the randomiser, its control and "
              "the leak classes)...", file=sys.stderr)
        audit = audit_randomizer_class(inputs["cls"], args.epsilon, args.samples, args.seed, args.confidence,
                                       args.control)
    elif args.family == "quantile":
        from dpbandits.quantile.checks.class_audit import audit_quantile_class

        print(f"auditing {args.algorithm} on 2 arms for at most {args.epochs} epochs: a scan of its decision boundary, "
              f"a pilot of {args.pilot} runs per candidate table, then {args.samples} runs per table (the class, its "
              "control and the leak classes)...", file=sys.stderr)
        audit = audit_quantile_class(inputs["cls"], args.epsilon, inputs["params"], epochs=args.epochs,
                                     pilot=args.pilot, samples=args.samples, seed=args.seed,
                                     confidence=args.confidence, control_multiplier=args.control,
                                     power=not args.no_power)
    else:
        from dpbandits.dueling.checks.class_audit import audit_dueling_class

        print(f"auditing {args.algorithm} at K = {args.arms}, T = {', '.join(map(str, args.horizons))}: a pilot of "
              f"{args.pilot} runs per candidate table, then {args.samples} runs per table (the class, its control and "
              "the leak classes)...", file=sys.stderr)
        audit = audit_dueling_class(inputs["cls"], args.epsilon, inputs["params"], arms=args.arms,
                                    horizons=tuple(args.horizons), pilot=args.pilot, samples=args.samples,
                                    seed=args.seed, confidence=args.confidence, control_multiplier=args.control,
                                    power=not args.no_power)
    print(f"audit took {audit.seconds:.1f} s (fewer --samples make it shorter)", file=sys.stderr)
    name = label(args.algorithm)
    rows = [{"audited": name, "lower_bound": audit.real.epsilon_lower_bound, "claimed_eps": args.epsilon,
             "refuted": audit.real.refuted},
            {"audited": f"its control (built at {args.epsilon / args.control:g} = eps / {args.control:g})",
             "lower_bound": audit.control.epsilon_lower_bound, "claimed_eps": args.epsilon, "refuted": audit.control.refuted}]
    if audit.reference is not None:
        rows.append({"audited": "the family's eps-DP reference (must not be refuted)", "lower_bound":
                     audit.reference.epsilon_lower_bound, "claimed_eps": args.epsilon, "refuted": audit.reference.refuted})
    rows += [{"audited": f"leak class: {leak.leak}", "lower_bound": leak.lower_bound, "claimed_eps": args.epsilon,
              "refuted": leak.caught} for leak in audit.leaks]
    table = pd.DataFrame(rows)
    table["verdict"] = [audit.verdict] + [""] * (len(rows) - 1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "audit.csv", index=False)
    _plot_bounds(name, table, args.epsilon, out)
    return table


def _plot_bounds(name: str, table: pd.DataFrame, epsilon: float, out: Path) -> None:
    import matplotlib.pyplot as plt

    from dpbandits.plotting import apply_style, save_figure

    apply_style()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    colours = ["#4477aa", "#999999", *["#66aa55" if "reference" in a else "#dd7733" for a in table.audited[2:]]]
    bounds = np.minimum(table.lower_bound.to_numpy(dtype=float), 50.0)  # an unbounded loss drawn at 50
    ax.barh(table.audited, bounds, color=colours)
    ax.axvline(epsilon, color="black", linestyle="--", linewidth=1)
    ax.text(epsilon, -0.7, " claimed eps", fontsize=8, va="center")
    ax.invert_yaxis()
    ax.set_xlabel("lower bound on the privacy loss")
    ax.set_title(f"audit of {name}: above the line = refuted", fontsize=9)
    save_figure(fig, out / "audit.pdf", out / "audit.png")

