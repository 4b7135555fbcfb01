"""The library as a researcher's tool: one typed entry point per paper
(``dpbandits.<paper>.simulate``). Its docstring examples run as doctests; parameters are typed
(an unknown key is an error naming the allowed ones); int seeds are root seeds; a SeedSequence
gives exactly the engines' runs (the workflow's path, so its results are unchanged)."""

from __future__ import annotations

import doctest
import importlib
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpbandits.rng import derive_seed, stream_rngs

API_MODULES = ["dpbandits.online.api", "dpbandits.quantile.api", "dpbandits.dueling.api",
               "dpbandits.contextual.api", "dpbandits.online", "dpbandits.quantile", "dpbandits.dueling",
               "dpbandits.contextual", "dpbandits.params", "dpbandits.rng"]


@pytest.mark.parametrize("name", API_MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0, result


# ---------------------------------------------------------------------------------------------
# online


def test_online_seed_sequence_gives_the_engines_runs():
    from dpbandits.online import api, lazy_dp_ts, ucb1

    means, cps, seed = np.array([0.7, 0.5, 0.4]), np.array([10, 500, 3000]), derive_seed(5, "t")
    res = api.simulate("lazy_dp_ts", means, 0.5, 3000, 3, seed, checkpoints=cps)
    for r, run_seed in enumerate(derive_seed(5, "t").spawn(3)):
        rngs = stream_rngs(run_seed, api.STREAMS)
        one = lazy_dp_ts.simulate_fast(means, 0.5, 3000, cps, rngs["rewards"], rngs["noise"], rngs["policy"])
        np.testing.assert_array_equal(res.regret[r], one.regret)
        np.testing.assert_array_equal(res.pulls[r], one.pulls)
    ref = api.simulate("ucb1", means, None, 3000, 4, derive_seed(6, "t"), checkpoints=cps)
    rngs = stream_rngs(derive_seed(6, "t"), api.STREAMS)
    regret, pulls = ucb1.simulate_fast_runs(means, 3000, cps, 4, rngs["rewards"])
    np.testing.assert_array_equal(ref.regret, regret)
    assert ref.epsilon is None and (ref.releases == 0).all()


def test_online_int_seed_is_a_root_seed_and_reproducible():
    from dpbandits.online import simulate

    a = simulate("lazy_dp_ts", [0.6, 0.4], 1.0, 5000, 3, seed=11)
    b = simulate("lazy_dp_ts", [0.6, 0.4], 1.0, 5000, 3, seed=derive_seed(11, "online", "api"))
    c = simulate("lazy_dp_ts", [0.6, 0.4], 1.0, 5000, 3, seed=12)
    np.testing.assert_array_equal(a.regret, b.regret)
    assert not np.array_equal(a.regret, c.regret)
    ss = derive_seed(3, "x")
    np.testing.assert_array_equal(simulate("lazy_dp_ts", [0.6, 0.4], 1.0, 5000, 2, ss).regret,
                                  simulate("lazy_dp_ts", [0.6, 0.4], 1.0, 5000, 2, ss).regret)  # not advanced


def test_online_typed_params():
    from dpbandits.online import AdaPKLUCBParams, simulate

    with pytest.raises(ValueError, match=r"unknown parameter\(s\) 'Alpha' for adap_klucb; allowed: alpha"):
        simulate("adap_klucb", [0.6, 0.4], 1.0, 100, params={"Alpha": 3.5})
    with pytest.raises(ValueError, match=r"alpha = 0.5 is not allowed; allowed: a number >= 1"):
        AdaPKLUCBParams(alpha=0.5)
    with pytest.raises(ValueError, match="allowed: none"):
        simulate("ucb1", [0.6, 0.4], None, 100, params={"alpha": 3.5})
    res = simulate("adap_klucb", [0.6, 0.4], 1.0, 200, 2, 1, AdaPKLUCBParams(alpha=4.0))
    assert res.params.alpha == 4.0
    with pytest.raises(ValueError, match="epsilon must be > 0"):
        simulate("lazy_dp_ts", [0.6, 0.4], None, 100)
    with pytest.raises(ValueError, match="unknown algorithm 'nope'"):
        simulate("nope", [0.6, 0.4], 1.0, 100)


def test_online_full_information_and_frames():
    from dpbandits.online import simulate

    res = simulate("rnm_ftnl", [0.5, 0.7, 0.5], 1.0, 1000, 3, 2, {"noise_factor": 2.0}, checkpoints=[10, 1000])
    assert res.releases is None and res.pulls.sum(axis=1).tolist() == [1000] * 3
    long = res.to_frame()
    assert len(long) == 6 and list(long.t[:2]) == [10, 1000]
    assert "releases_0" not in res.to_frame(per="run")
    bandit = simulate("anytime_lazy_ucb", [0.6, 0.4], 1.0, 500, 2, 2)
    runs = bandit.to_frame(per="run")
    assert list(runs.final_regret) == list(bandit.final_regret) and runs.releases_0.min() >= 1
    with pytest.raises(ValueError, match="per must be"):
        bandit.to_frame(per="arm")


def test_online_reference_engine_through_the_api():
    from dpbandits.online import simulate

    res = simulate("ts_beta", [0.6, 0.4], None, 300, 2, 4, engine="reference", checkpoints=[100, 300])
    assert res.regret.shape == (2, 2) and (np.diff(res.regret, axis=1) >= 0).all()


# ---------------------------------------------------------------------------------------------
# quantile


def test_quantile_matches_the_engines_and_marks_censored_runs():
    from dpbandits.quantile import api, dp_seq, seq
    from dpbandits.quantile.instances import disc, zero_gap

    inst, ss = disc(0.4, 0.2), derive_seed(2, "q")
    res = api.simulate("seq", inst, runs=4, seed=ss)
    rec = seq.simulate_seq(inst, 0.05, api.default_cap(inst, 0.05), 4, derive_seed(2, "q"))
    np.testing.assert_array_equal(res.k_hat, rec.k_hat)
    np.testing.assert_array_equal(res.pulls, rec.pulls)
    assert res.cap == api.default_cap(inst, 0.05) == int(20 * seq.explicit_bound(0.2, 2, 0.05, 0.4))
    dp = api.simulate("dp_seq", disc(0.4, 0.1875), 1.0, 3, ss, {"delta": 0.1})
    ref = dp_seq.simulate_dp_seq(disc(0.4, 0.1875), 1.0, 0.1, 3, derive_seed(2, "q"), 30)
    np.testing.assert_array_equal(dp.n_final, ref.final_epoch)
    zg = api.simulate("seq", zero_gap(0.0), runs=2, seed=1, cap=500)  # never terminates
    assert zg.censored.all() and not zg.correct.any() and (zg.k_hat == -1).all()
    frame = zg.to_frame()
    assert list(frame.columns[:5]) == ["algorithm", "run", "k_hat", "correct", "censored"]
    assert zg.error_rate() == 1.0
    with pytest.raises(ValueError, match="no positive gap: give cap explicitly"):
        api.simulate("seq", zero_gap(0.0))


def test_quantile_typed_params():
    from dpbandits.quantile import make_instance, simulate

    inst = make_instance("gauss", 0.7, 1.0, 0.5)
    with pytest.raises(ValueError, match=r"'Delta' for seq; allowed: delta"):
        simulate("seq", inst, params={"Delta": 0.1})
    with pytest.raises(ValueError, match="max_q: parameter approx_eps = None is not allowed"):
        simulate("max_q", inst)
    with pytest.raises(ValueError, match="seq is not private"):
        simulate("seq", inst, epsilon=1.0)
    with pytest.raises(ValueError, match="dp_seq is private"):
        simulate("dp_seq", inst)
    with pytest.raises(ValueError, match=r"qpac: parameter variant = 'v3' is not allowed; allowed: strict or v2"):
        simulate("qpac", inst, params={"variant": "v3"})
    with pytest.raises(ValueError, match=r"seq: parameter delta = 1.5 is not allowed; allowed: a number in \(0, 1\)"):
        simulate("seq", inst, params={"delta": 1.5})
    res = simulate("qpac", inst, runs=2, seed=3, params={"variant": "v2"})
    assert res.params.variant == "v2" and res.runs == 2


# ---------------------------------------------------------------------------------------------
# dueling and contextual


def test_dueling_matches_the_engines():
    from dpbandits.dueling import api
    from dpbandits.dueling.baselines import BASELINES
    from dpbandits.dueling.ebs_fast import simulate_ebs
    from dpbandits.dueling.ebs_params import EBSConfig
    from dpbandits.dueling.instances import f1, f3

    res = api.simulate("dp_ebs_elimination", f1(4), 0.5, 20000, 2, derive_seed(1, "d"), {"variant": "naive"})
    raw = simulate_ebs(f1(4), EBSConfig(variant="naive", epsilon=0.5), 20000, np.array([20000]), 2,
                       derive_seed(1, "d"))
    np.testing.assert_array_equal(res.regret_pref, raw.regret_pref)
    rcs = api.simulate("rcs", f3(4, 0.2), None, 2000, 2, derive_seed(2, "d"), checkpoints=[1000, 2000])
    base = BASELINES["rcs"](f3(4, 0.2), 2000, np.array([1000, 2000]), 2, derive_seed(2, "d"))
    np.testing.assert_array_equal(rcs.regret_util, base.regret_util)
    assert len(rcs.to_frame()) == 4
    with pytest.raises(ValueError, match="rcs is not private"):
        api.simulate("rcs", f3(4, 0.2), 1.0, 100)
    with pytest.raises(ValueError, match=r"'kappa' for maxinp; allowed: kappa_mode"):
        api.simulate("maxinp", f3(4, 0.2), None, 100, params={"kappa": "thm"})


def test_contextual_matches_the_engine():
    from dpbandits.contextual import api
    from dpbandits.contextual.config import preset
    from dpbandits.contextual.instances import BumpInstance
    from dpbandits.contextual.ldpmab import Source, run_ldpmab

    seeds = [derive_seed(3, "c", r) for r in range(2)]
    aux = [{"n": 500, "epsilon": 8.0}]
    res = api.simulate("primary", BumpInstance(), 1.0, 1000, 2, seeds, {"batch": 50}, aux=aux)
    for r in range(2):
        one = run_ldpmab(preset("primary", batch=50), [Source(500, 8.0), Source(1000, 1.0, target=True)],
                         derive_seed(3, "c", r), instance=BumpInstance())
        assert res.regret[r] == one.regret
    assert list(res.to_frame().regret) == list(res.regret)
    with pytest.raises(ValueError, match="auxiliary-source key"):
        api.simulate("primary", BumpInstance(), 1.0, 1000, aux=[{"size": 5}])
    with pytest.raises(ValueError, match="one per run"):
        api.simulate("primary", BumpInstance(), 1.0, 1000, 3, seeds)
    assert math.isinf(api.simulate("abse", BumpInstance(), None, 500, 1, 0).epsilon)
    assert isinstance(res.to_frame(), pd.DataFrame)


def test_the_smallest_epsilon_the_config_allows_runs_finite():
    """The schema's floor on every epsilon (1e-6) is one the engines honour: Laplace scales of 1e6
    and optimistic shifts of order ln T / eps stay finite (at 1e-310 they overflow)."""
    import warnings

    import yaml

    from dpbandits.contextual import api as contextual_api
    from dpbandits.contextual.instances import BumpInstance
    from dpbandits.online import simulate
    from dpbandits.online.api import BANDIT_ALGORITHMS

    schema = yaml.safe_load((Path(__file__).resolve().parents[1] / "workflow/schemas/config.schema.yaml").read_text())
    floor = schema["properties"]["online"]["properties"]["figures"]["properties"]["epsilons"]["items"]["minimum"]
    assert floor == 1e-6
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow is an error here
        for name in BANDIT_ALGORITHMS:
            regret = np.asarray(simulate(name, np.array([0.9, 0.5, 0.4]), floor, 2000, 2, 0).regret)
            assert np.isfinite(regret).all(), name
        res = contextual_api.simulate("primary", BumpInstance(), floor, 2000, 1, 0)
        assert np.isfinite(np.asarray(res.regret)).all()
