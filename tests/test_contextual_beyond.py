"""Beyond the paper's horizon: the coarse_fixed preset (a labelled addition), the grid
and its jobs, the onset and its scaling in eps, Theorem 2.6 past the onset with its guards, and
the "why it is slow" report (noise standard error of a bin's estimate against the arms' gap)."""

from __future__ import annotations

import copy
import math

import numpy as np
import pandas as pd
import pytest
import yaml

from dpbandits.contextual import ldpmab
from dpbandits.contextual.checks import beyond as beyond_checks
from dpbandits.contextual.config import CODE_RADIUS_C, RADIUS_C_RANGE, LDPMABConfig, preset
from dpbandits.contextual.experiments.beyond_designs import (
    BEYOND_DIMS,
    BEYOND_EPS,
    BEYOND_JOBS,
    MAX_BLOCKS,
    beyond_cells,
    curve_n,
    simulate_beyond,
    uniform_per_round,
)
from dpbandits.contextual.instances import BumpInstance
from dpbandits.contextual.ldpmab import Source, run_ldpmab
from dpbandits.contextual.reference import ReferenceLDPMAB
from dpbandits.evidence import registry
from dpbandits.evidence.guards import judge_all
from dpbandits.mechanisms import laplace_sum
from dpbandits.rng import derive_seed
from dpbandits.workflow.config import cross_field_problems

INST = BumpInstance(3, 2, "code")
U = uniform_per_round()


@pytest.fixture(scope="module")
def paper_cfg():
    with open("config/config.yaml") as fh:
        return yaml.safe_load(fh)


@pytest.fixture(scope="module")
def smoke_cfg():
    with open("config/smoke.yaml") as fh:
        return yaml.safe_load(fh)


# ---------------------------------------------------------------------------------------------
# the coarse_fixed preset


def test_coarse_fixed_is_a_fixed_four_bin_partition():
    res = run_ldpmab(preset("coarse_fixed", batch=20), [Source(4000, 64.0, target=True)], derive_seed(3, "c"),
                     instance=INST, trace=True)
    assert res.n_splits == 3 and res.max_depth == 2  # the complete depth-2 tree, built before any user
    assert not [e for e in res.trace if e["kind"] == "decision" and e["refined"]]
    assert res.leaves["lo"].shape[0] == 4 and set(res.leaves["depth"]) == {2}
    edges = res.leaves["hi"] - res.leaves["lo"]
    assert np.allclose(edges, 0.5)  # every coordinate halved once
    # a bin-average band needs a fixed partition
    with pytest.raises(ValueError, match="refine_rule"):
        LDPMABConfig("x", band="r")
    with pytest.raises(ValueError, match="initial_depth"):
        LDPMABConfig("x", initial_depth=-1)


def test_coarse_fixed_release_is_the_primary_randomiser():
    """Every user reports to every bin of the public partition and every active arm (U-PRIV-2's
    property, which makes the release the audited randomiser), whatever its context."""
    ref = ReferenceLDPMAB(preset("coarse_fixed", batch=10), INST, [Source(2000, 64.0, target=True)], 4)
    res = ref.run(record_messages=True)
    assert res.messages == res.expected_messages
    assert res.messages[0] == 4 * 3 and min(res.messages) >= 4


def test_coarse_fixed_learns_earlier_than_primary():
    """At eps = 8 and n = 6e4 (n eps^2 = 3.8e6) coarse_fixed is already below the uniform policy's
    regret in every run, primary in none (its onset is near n eps^2 = 8e6)."""
    n, eps = 62_500, 8.0
    coarse = [run_ldpmab(preset("coarse_fixed"), [Source(n, eps, target=True)], derive_seed(5, r), instance=INST).regret
              for r in range(4)]
    primary = [run_ldpmab(preset("primary"), [Source(n, eps, target=True)], derive_seed(5, r), instance=INST).regret
               for r in range(4)]
    assert max(coarse) < 0.95 * n * U
    assert min(primary) > 0.999 * n * U


def test_moment_cache_returns_what_a_computation_returns():
    """A run computed with empty caches, then the same run again with only the run cache emptied
    (every bin's moments now come from the moment cache): the same regret and splits."""
    cfg = preset("primary", batch=100)
    ldpmab._MOMENTS_CACHE.clear()
    ldpmab._RUN_CACHE.clear()
    a = run_ldpmab(cfg, [Source(200_000, 8.0, target=True)], derive_seed(9, "m"), instance=BumpInstance(3, 2, "code"))
    assert a.n_splits > 0 and ldpmab._MOMENTS_CACHE  # the run refined: the moments of its children were cached
    ldpmab._RUN_CACHE.clear()
    b = run_ldpmab(cfg, [Source(200_000, 8.0, target=True)], derive_seed(9, "m"), instance=BumpInstance(3, 2, "code"))
    assert b is not a
    assert a.regret == b.regret and a.n_splits == b.n_splits and np.array_equal(a.regret_curve, b.regret_curve)
    # the run cache: a repeated run is the computed result object itself
    assert run_ldpmab(cfg, [Source(200_000, 8.0, target=True)], derive_seed(9, "m"),
                      instance=BumpInstance(3, 2, "code")) is b


# ---------------------------------------------------------------------------------------------
# the grid and its jobs


def test_grid_curves_start_at_the_same_n_eps2_and_stop_at_their_caps(paper_cfg):
    b = paper_cfg["contextual"]["beyond"]
    for i, eps in enumerate(BEYOND_EPS):
        ns = curve_n(b, "primary", eps)
        assert ns[0] * eps**2 >= b["min_n_eps2"] and ns[0] * eps**2 < 2 * b["min_n_eps2"]
        assert ns[-1] <= b["n_max"][i] < 2 * ns[-1]
        assert all(m == 2 * k for k, m in zip(ns, ns[1:], strict=False))  # geometric, factor 2
        assert len(ns) >= 3
    for i, d in enumerate(BEYOND_DIMS):
        assert curve_n(b, "primary", 8.0, d)[-1] <= b["dim_n_max"][i]


def test_jobs_cover_every_point_and_repetition_once(smoke_cfg):
    cfg = copy.deepcopy(smoke_cfg["contextual"])
    cfg["beyond"]["runs"] = 5
    seen = {}
    for job in BEYOND_JOBS:
        table = simulate_beyond(job, cfg, 7)
        for row in table.itertuples():
            key = (row.c_C, row.preset, row.epsilon, row.d, row.n_target, row.rep)
            assert key not in seen, key
            seen[key] = row.regret
    cells = {(BEYOND_JOBS[job].c_C, c.preset, c.epsilon, c.d, c.n_target)
             for job in BEYOND_JOBS for c in beyond_cells(job, cfg)}
    assert len(seen) == 5 * len(cells)


def test_primary_curves_run_at_every_radius_constant_of_the_range(smoke_cfg, monkeypatch):
    """Proposition 2.7 leaves c in C_n = c ln n open: every primary curve (each eps, and the
    dimension curves) is run at each c of the range, the engine given that c (the released code's
    by default), with the seeds of the code's c (common random numbers)."""
    from dpbandits.contextual.experiments import beyond_designs

    for c in RADIUS_C_RANGE:
        curves = {(eps, d) for spec in BEYOND_JOBS.values() if spec.variant == "primary" and spec.c_C == c
                  for eps in spec.epsilons for d in spec.dims}
        assert curves == {(e, 2) for e in BEYOND_EPS} | {(8.0, d) for d in BEYOND_DIMS}, c
    calls = []

    def record(preset_name, inst, eps, n, runs, seeds, params):
        calls.append((params, [s.entropy for s in seeds], [s.spawn_key for s in seeds]))
        raise StopIteration

    monkeypatch.setattr(beyond_designs, "simulate", record)
    cfg = copy.deepcopy(smoke_cfg["contextual"])
    for job in ("beyond_primary_eps8_b0", "beyond_c1_primary_eps8_b0"):
        with pytest.raises(StopIteration):
            simulate_beyond(job, cfg, 7)
    (code, code_seeds, code_keys), (one, one_seeds, one_keys) = calls
    assert "c_C" not in code and one["c_C"] == 1.0
    assert (code_seeds, code_keys) == (one_seeds, one_keys)
    assert LDPMABConfig("x").c_C == CODE_RADIUS_C == RADIUS_C_RANGE[-1]


def test_cross_field_rules_name_the_cap(paper_cfg):
    cfg = copy.deepcopy(paper_cfg)
    cfg["contextual"]["beyond"]["n_max"][0] = 2_000_000  # eps = 1: 1e6, 2e6 only
    problems = cross_field_problems(cfg)
    assert any("contextual.beyond.n_max[0]" in p and "at least 3" in p for p in problems), problems
    cfg = copy.deepcopy(paper_cfg)
    cfg["contextual"]["beyond"]["batch"] = 20_000
    assert any("contextual.beyond.batch" in p for p in cross_field_problems(cfg))
    cfg = copy.deepcopy(paper_cfg)
    cfg["contextual"]["beyond"]["runs"] = MAX_BLOCKS - 1  # a repetition block would have no run
    assert any("contextual.beyond.runs" in p and f">= {MAX_BLOCKS}" in p for p in cross_field_problems(cfg))
    assert not [p for p in cross_field_problems(paper_cfg) if "contextual.beyond" in p]


# ---------------------------------------------------------------------------------------------
# onset, exponent and Theorem 2.6 past the onset on synthetic curves


def _table(law, runs=10, m_lo=1e6, caps=(3.2e7, 1.6e7, 8e6, 8e6), dims=True, seed=0):
    """A beyond table whose per-round regret / the uniform policy's is law(n, eps, d) x noise."""
    rng = np.random.default_rng(seed)
    b = {"n_base": 15625, "min_n_eps2": m_lo, "n_max": list(caps), "coarse_max_n_eps2": 1.6e7,
         "dim_n_max": [8e6, 4e6]}
    curves = [("primary", e, 2) for e in BEYOND_EPS] + [("coarse_fixed", e, 2) for e in BEYOND_EPS]
    if dims:
        curves += [("primary", 8.0, d) for d in BEYOND_DIMS]
    rows = []
    for variant, eps, d in curves:
        for n in curve_n(b, variant, eps, d):
            for rep in range(runs):
                ratio = law(n, eps, d, variant)
                noisy = ratio if ratio >= 1 else ratio * rng.normal(1, 0.01)
                rows.append({"preset": variant, "epsilon": eps, "d": d, "n_target": n, "rep": rep, "batch": 100,
                             "per_round": noisy * U, "regret": noisy * U * n})
    return pd.DataFrame(rows)


def _rate(m0=8e6, exponent=1 / 3):
    """Theorem 2.6's shape: the uniform policy's regret until n eps^2 = m0, then (n eps^2 / m0)^-1/3
    (d = 2; in d the exponent (1 + beta)/(2 + 2d))."""
    def law(n, eps, d, variant):
        m = n * eps**2 * (4.0 if variant == "coarse_fixed" else 1.0)
        e = exponent if d == 2 else 2.0 / (2 + 2 * d)
        return 1.0 if m < m0 else 0.9 * (m / m0) ** (-e)
    return law


def _judged(check, out):
    return {c.check_id: c for c in judge_all(out.claims, registry.get("contextual", check).guards)}


def test_onset_is_the_first_n_below_the_uniform_regret_and_scales_as_eps_minus_2():
    rng = np.random.default_rng(1)
    out = beyond_checks.check_onset({"beyond": _table(_rate())}, rng, 400, "smoke")
    rows = {c.check_id: c for c in out.claims}
    for eps in BEYOND_EPS:
        expect = 8e6 / eps**2
        n_grid = 15625 * 2 ** math.ceil(math.log2(expect / 15625) - 1e-9)
        assert rows[f"BH-ONSET-EPS{eps:g}"].value == n_grid, eps
        assert rows[f"BH-ONSET-COARSE-EPS{eps:g}"].value == n_grid / 4  # four times earlier
    a = rows["BH-ONSET-EXPONENT"]
    assert a.ci_low - 1e-9 <= 2.0 <= a.ci_high + 1e-9 and abs(a.value - 2.0) < 0.2
    table = out.table
    assert set(table.variant) == {"primary", "coarse_fixed"} and np.isfinite(table.onset).all()
    shown = beyond_checks.onset_display(table)
    assert "a (primary)" in shown and shown["onset n"].iloc[0] == f"{8e6:,.0f}"


def test_onset_beyond_the_cap_is_reported_with_the_scaling_extrapolation():
    rng = np.random.default_rng(2)
    out = beyond_checks.check_onset({"beyond": _table(_rate(m0=1.5e7), caps=(8e6, 1.6e7, 8e6, 8e6))}, rng, 300, "smoke")
    row = {c.check_id: c for c in out.claims}["BH-ONSET-EPS1"]
    assert math.isinf(row.value) and "> 8e+06 (cap)" in row.claim and "n eps^2 scaling predicts" in row.claim


def test_floor_curves_have_no_onset_and_the_theorem_rows_are_pre_asymptotic():
    rng = np.random.default_rng(3)
    t = _table(lambda n, eps, d, v: 1.0)
    assert all(math.isinf(c.value) for c in beyond_checks.check_onset({"beyond": t}, rng, 200, "smoke").claims
               if c.check_id.startswith("BH-ONSET-EPS"))
    j = _judged("T-2.6-PAST", beyond_checks.check_t26_past({"beyond": t}, rng, 200, "smoke"))
    for cid in ("T-2.6-PAST-EPS1", "T-2.6-PAST-EPS8", "T-2.6-PAST-EPSEXP", "T-2.6-PAST-D1", "T-2.6-PAST-D3"):
        assert j[cid].verdict == "INCONCLUSIVE" and j[cid].reason == "pre_asymptotic", cid


def test_theorem_rate_past_the_onset_passes_with_power():
    rng = np.random.default_rng(4)
    j = _judged("T-2.6-PAST", beyond_checks.check_t26_past({"beyond": _table(_rate(m0=4e6))}, rng, 400, "smoke"))
    for eps in (2, 4, 8):
        row = j[f"T-2.6-PAST-EPS{eps}"]
        assert row.verdict == "PASS" and row.reason == "supported", (eps, row.claim)
        assert abs(row.value - 2 / 3) < 0.15
    row = j["T-2.6-PAST-EPSEXP"]
    assert row.verdict == "PASS" and row.ci_low <= -2 / 3 <= row.ci_high
    assert j["T-2.6-PAST-D1"].verdict == "PASS" and abs(j["T-2.6-PAST-D1"].value - 0.5) < 0.15
    assert j["T-2.6-PAST-DIM"].verdict == "REPORT"
    # powered against a wrong paper of the claim's form: an exponent off by more than the band
    for cid in ("T-2.6-PAST-EPS8", "T-2.6-PAST-D1", "T-2.6-PAST-EPSEXP"):
        assert j[cid].reason == "supported" and j[cid].evidence.power_form == "exponent_off", cid
        assert "[power against an exponent off by more than the claim's band: " in j[cid].claim, cid
    assert "slope 0.9 (the theorem's 0.5 off by twice the tolerance 0.2)" in j["T-2.6-PAST-D1"].claim
    assert "linear regret" in j["T-2.6-PAST-EPS8"].claim  # 2/3 + 2 x 0.2 > 1: capped at a linear regret
    assert "eps-exponent -1.73 (a privacy cost steeper" in row.claim and "eps-exponent 0.0667" in row.claim


def test_rate_powers_are_exponents_off_the_band():
    """sublinear_power: a sublinear claim against a linear regret, Theorem 2.6's exponent against
    itself off by twice the tolerance (at most 1); a wide CI falls back on a one-sided bootstrap
    test whose null is the band's edge. eps_exponent_power: the theory off by twice the band's
    margin on both sides, both must FAIL (an eps-exponent of 0 alone is a straw man for noise
    that scales as 1/eps)."""
    from types import SimpleNamespace

    from dpbandits.contextual.checks.evidence import eps_exponent_power, sublinear_power

    fit = SimpleNamespace(slope=0.5, ci_low=0.45, ci_high=0.55, boots=None)
    ev = sublinear_power(fit)
    assert (ev["power"], ev["power_form"]) == ("FAIL", "exponent_off") and "= 1:" in ev["power_note"]
    ev = sublinear_power(fit, 0.7, theory=0.5)
    assert ev["power"] == "FAIL" and "slope 0.9 " in ev["power_note"]
    wide = SimpleNamespace(slope=0.5, ci_low=0.2, ci_high=0.8, boots=np.linspace(0.2, 0.8, 101))
    ev = sublinear_power(wide, 0.7, theory=0.5)  # shifted to 0.9: [0.6, 1.2] straddles 0.7
    assert ev["power"] is None and ev["power_form"] == "exponent_off" and "null slope >= 0.7" in ev["power_note"]
    narrow = SimpleNamespace(slope=-0.67, ci_low=-0.8, ci_high=-0.55)
    ev = eps_exponent_power(narrow, -2 / 3, -1.2, -0.3)
    assert (ev["power"], ev["power_form"]) == ("FAIL", "exponent_off")
    broad = SimpleNamespace(slope=-0.67, ci_low=-1.15, ci_high=-0.35)  # at +0.067 the CI reaches below -0.3
    assert eps_exponent_power(broad, -2 / 3, -1.2, -0.3)["power"] == "INCONCLUSIVE"


def test_linear_regret_past_the_onset_is_contradicted():
    """Below the uniform policy's regret but no longer learning (a constant per-round regret):
    slope 1 past the onset FAILs the theorem where it applies."""
    rng = np.random.default_rng(5)

    def law(n, eps, d, variant):
        return 1.0 if n * eps**2 < 4e6 else 0.5

    j = _judged("T-2.6-PAST", beyond_checks.check_t26_past({"beyond": _table(law)}, rng, 400, "smoke"))
    assert j["T-2.6-PAST-EPS8"].verdict == "FAIL" and j["T-2.6-PAST-EPS8"].reason == "contradicted"
    assert j["T-2.6-PAST-EPSEXP"].verdict == "FAIL"  # no eps dependence at a fixed n past the onsets


def _over_c(laws):
    """A beyond table with runs at each radius constant c of ``laws`` (c -> law)."""
    return pd.concat([_table(law, seed=i).assign(c_C=c) for i, (c, law) in enumerate(laws.items())],
                     ignore_index=True)


def test_theorem_rows_past_the_onset_are_judged_over_the_radius_constant():
    """A smaller c learns earlier; the verdict stands when it holds at every c of the range, and is
    undecided (naming where each verdict holds) when it depends on c."""
    def linear(n, eps, d, variant):
        return 1.0 if n * eps**2 < 4e6 else 0.5

    rng = np.random.default_rng(6)
    t = _over_c({1.0: _rate(m0=1e6), 2.0: _rate(m0=2e6), CODE_RADIUS_C: _rate(m0=4e6)})
    j = _judged("T-2.6-PAST", beyond_checks.check_t26_past({"beyond": t}, rng, 300, "smoke"))
    row = j["T-2.6-PAST-EPS8"]
    assert row.verdict == "PASS" and row.reason == "supported", row.claim
    assert "over the radius constant the paper leaves open, C_n = c ln n (c = 1: " in row.claim
    assert "c = 2: " in row.claim and "c = 2.89: " in row.claim
    # the statistic is the code's c's: the same as a table with only those runs
    alone = beyond_checks.check_t26_past({"beyond": _table(_rate(m0=4e6), seed=2)}, np.random.default_rng(6), 300,
                                         "smoke")
    assert {c.check_id: c.value for c in alone.claims}["T-2.6-PAST-EPS8"] == row.value
    assert j["T-2.6-PAST-DIM"].verdict == "REPORT"

    t = _over_c({1.0: _rate(m0=1e6), 2.0: _rate(m0=2e6), CODE_RADIUS_C: linear})
    j = _judged("T-2.6-PAST", beyond_checks.check_t26_past({"beyond": t}, rng, 300, "smoke"))
    row = j["T-2.6-PAST-EPS8"]
    assert row.verdict == "INCONCLUSIVE" and row.reason == "undecided", row.claim
    assert "depends on a constant the paper leaves open (PASS at c = 1, 2; FAIL at c = 2.89)" in row.claim


# ---------------------------------------------------------------------------------------------
# why it is slow


def test_noise_standard_error_formula_matches_the_mechanism():
    """The report's SE of f~ = SV / SU from the Laplace(4/eps) noise of t reports,
    sqrt(2 (4/eps)^2 t (1 + f^2)) / E[SU], against the spread of the ratio of noisy sums drawn
    with the engine's mechanism (bin mass 1/4, 3 active arms, f = 0.6)."""
    rng = np.random.default_rng(6)
    t, mass, k, f, eps = 40_000, 0.25, 3, 0.6, 4.0
    n_in = rng.binomial(t, mass / k, size=20_000)
    y = rng.binomial(n_in, f)
    su = n_in + laplace_sum(rng, t, 4 / eps, size=n_in.size)
    sv = y + laplace_sum(rng, t, 4 / eps, size=n_in.size)
    se = math.sqrt(2 * (4 / eps) ** 2 * t * (1 + f**2)) / (t * mass / k)
    assert abs(np.std(sv / su) / se - 1) < 0.1


def test_why_slow_table_from_the_engines_bins():
    table = beyond_checks.why_slow_table(60_000, 2, 11, epsilons=(8.0,), batch=100)
    assert set(table.columns) >= {"epsilon", "depth", "bins", "se_median", "radius_median", "gap_median", "snr_median"}
    assert list(table.depth) == sorted(table.depth) and table.depth.iloc[0] == 0
    assert (table.radius_median > table.se_median).all()  # the radius is several noise SEs
    out = beyond_checks.check_why_slow(11, "smoke", {"report_n": 20_000, "report_runs": 1, "batch": 100})
    assert {c.check_id for c in out.claims} == {f"BH-WHY-EPS{e:g}" for e in BEYOND_EPS}
    assert all(c.verdict == "REPORT" for c in out.claims)
    assert len(beyond_checks.why_display(out.table)) == len(out.table)
    # at n = 4000 eps = 1 never refines the root: the row says so instead of a vacuous "every depth"
    small = beyond_checks.check_why_slow(11, "smoke", {"report_n": 4_000, "report_runs": 1, "batch": 100})
    assert small.table[small.table.epsilon == 1.0].depth.max() == 0
    root_only = {c.check_id: c for c in small.claims}["BH-WHY-EPS1"]
    assert "no bin reached depth >= 1" in root_only.claim and "nan" not in root_only.claim


@pytest.mark.parametrize("job", ["beyond:" + next(iter(BEYOND_JOBS)), "design:fig8"])
def test_a_simulation_table_is_the_same_bytes_when_rerun(smoke_cfg, tmp_path, job):
    # no wall time, or anything else of the machine's moment, in a simulation table
    from dpbandits.contextual.experiments.designs import simulate_job
    from dpbandits.io import write_results

    kind, name = job.split(":")
    cfg = copy.deepcopy(smoke_cfg["contextual"])
    paths = []
    for i in range(2):
        table = simulate_beyond(name, cfg, 7) if kind == "beyond" else simulate_job(name, cfg, 7)
        assert "seconds" not in table.columns
        paths.append(tmp_path / f"{i}.parquet")
        write_results(table, paths[-1])
    assert paths[0].read_bytes() == paths[1].read_bytes()
