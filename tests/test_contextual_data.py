"""Real-data side of the contextual paper: the Adult loader on a generated CSV with Adult's
schema (both the raw UCI format and a CSV with a header), the generic Jobs/Taxi-shaped loader,
the surrogates' shapes, and the Linear / NN baselines against a plain per-user implementation."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from dpbandits.contextual import realdata
from dpbandits.contextual.linear import LogisticModel, _sigmoid, private_sgd_bandit
from dpbandits.contextual.nn import MLPModel
from dpbandits.experiments.contextual import load_table_data, simulate_table

COUNTRIES = ["United-States"] * 8 + ["Mexico", "India", "Germany", "Philippines", "?"]


def _adult_rows(n: int, rng) -> list[list[str]]:
    rows = []
    for _ in range(n):
        rows.append([str(rng.integers(17, 90)), "Private", str(rng.integers(10000, 500000)), "Bachelors",
                     str(rng.integers(1, 17)), "Never-married", "Sales", "Husband", "White", "Male",
                     "0", "0", str(rng.integers(1, 99)), str(rng.choice(COUNTRIES)),
                     str(rng.choice(["<=50K", ">50K"], p=[0.75, 0.25]))])
    return rows


def test_load_adult_raw_uci_files(tmp_path):
    rng = np.random.default_rng(0)
    rows = _adult_rows(400, rng)
    (tmp_path / "adult.data").write_text("\n".join(", ".join(r) for r in rows[:300]) + "\n")
    test_rows = [r[:-1] + [r[-1] + "."] for r in rows[300:]]  # adult.test labels end with "."
    (tmp_path / "adult.test").write_text("|1x3 Cross validator\n" + "\n".join(", ".join(r) for r in test_rows) + "\n")
    data = realdata.load_adult(tmp_path)
    frame = pd.DataFrame(rows, columns=realdata.ADULT_COLUMNS)
    complete = frame[frame["native-country"] != "?"]
    assert data.label_target.size == int((complete["native-country"] == "United-States").sum())
    assert sum(a.size for a in data.label_aux) == int((complete["native-country"] != "United-States").sum())
    assert len(data.x_aux) == 7 and data.k == 2 and data.d == 3 and data.origin == "real"
    assert data.label_target.mean() == pytest.approx(
        (complete.loc[complete["native-country"] == "United-States", "income"] == ">50K").mean())
    for x in [data.x_target, *[a for a in data.x_aux if a.size]]:
        assert x.min() > 0 and x.max() < 1
    region = complete["native-country"].map(realdata.ADULT_REGIONS)
    for m in range(7):
        assert data.x_aux[m].shape[0] == int((region == m).sum())


def test_load_adult_csv_with_header_and_aliases(tmp_path):
    rng = np.random.default_rng(1)
    cols = [c.replace("education-num", "educational-num").replace("sex", "gender") for c in realdata.ADULT_COLUMNS]
    frame = pd.DataFrame(_adult_rows(200, rng), columns=cols)
    frame.to_csv(tmp_path / "adult.csv", index=False)
    data = realdata.load_adult(tmp_path / "adult.csv")
    assert data.label_target.size == int(((frame["native-country"] == "United-States")).sum())
    bad = frame.drop(columns=["hours-per-week"])
    bad.to_csv(tmp_path / "bad.csv", index=False)
    with pytest.raises(ValueError, match="hours-per-week"):
        realdata.load_adult(tmp_path / "bad.csv")


def test_generic_loader_and_table_config(tmp_path):
    rng = np.random.default_rng(2)
    n = 600
    frame = pd.DataFrame({"a": rng.random(n), "b": rng.random(n), "c": rng.integers(0, 5, n),
                          "y": rng.integers(0, 2, n), "site": rng.choice(["home", "x", "y"], n)})
    path = tmp_path / "jobs.csv"
    frame.to_csv(path, index=False)
    cfg = {"jobs_csv": str(path), "target_fraction": {"adult": 1.0, "jobs": 1.0, "taxi": 1.0},
           "jobs_columns": {"features": ["a", "b", "c"], "label": "y", "group": "site", "target_value": "home"}}
    data = load_table_data("jobs", cfg, 0)
    assert data.origin == "real" and data.label_target.size == int((frame.site == "home").sum())
    assert len(data.x_aux) == 2
    assert load_table_data("jobs", {**cfg, "jobs_csv": ""}, 0).origin == "surrogate"


def test_surrogates_have_table1_shapes():
    rng = np.random.default_rng(3)
    for name in ("adult", "jobs"):
        d = realdata.make_surrogate(name, rng)
        shape, paper = d.shape_row(), realdata.TABLE1[name]
        assert shape["n_target"] == paper["n_target"] and shape["M"] == paper["M"] and shape["d"] == 3
        assert shape["total_n_aux"] == paper["max_n_aux"]  # Adult: the 3,930 rows in 7 groups
        assert abs(d.label_target.mean() - realdata.BASE_RATES[name]) < 0.02
    taxi = realdata.make_surrogate("taxi", rng, fraction=0.01)
    assert taxi.label_target.size == round(realdata.TABLE1["taxi"]["n_target"] * 0.01)


def test_simulate_table_on_a_small_real_csv(tmp_path):
    rng = np.random.default_rng(4)
    rows = _adult_rows(1500, rng)
    pd.DataFrame(rows, columns=realdata.ADULT_COLUMNS).to_csv(tmp_path / "adult.csv", index=False)
    cfg = {"tables": {"runs": 2, "batch": 50, "target_fraction": {"adult": 1.0, "jobs": 1.0, "taxi": 1.0},
                      "adult_csv": str(tmp_path / "adult.csv"),
                      "jobs_csv": "", "taxi_csv": ""}}
    t = simulate_table("adult", cfg, 0)
    assert set(t.origin) == {"real"}
    assert set(t.method) == {"ABSE", "LDPMAB", "Linear", "NN"}
    assert (t.reward_full >= t.reward_quarter).all()


# ---------------------------------------------------------------------------------------------
# Linear / NN against a plain per-user implementation


def _plain_linear(x, y, order, eps, batch, rng, clip=1.0, lr=0.01):
    """One repetition, user by user: greedy logistic arm, clipped gradient, Laplace noise on all
    K (d + 1) coordinates, batch-mean SGD step."""
    n, d = x.shape
    k = y.shape[1]
    theta = np.zeros((k, d + 1))
    total = 0.0
    scale = 2 * clip * math.sqrt(k * (d + 1)) / eps
    for i in range(n // batch):
        grads = np.zeros_like(theta)
        for j in order[i * batch:(i + 1) * batch]:
            xt = np.append(x[j], 1.0)
            pred = _sigmoid(theta @ xt) + 1e-9 * rng.random(k)
            a = int(np.argmax(pred))
            total += y[j, a]
            g = np.zeros_like(theta)
            g[a] = (_sigmoid(theta[a] @ xt) - y[j, a]) * xt
            g *= min(1.0, clip / max(np.linalg.norm(g), 1e-300))
            grads += g + rng.laplace(0.0, scale, size=g.shape)
        theta -= lr * grads / batch
    return total


def test_linear_matches_a_plain_per_user_implementation():
    rng = np.random.default_rng(5)
    n, reps = 2000, 40
    x = rng.random((n, 2))
    eta = 1 / (1 + np.exp(-(4 * x[:, 0] - 2)))
    lab = (rng.random(n) < eta).astype(int)
    y = np.column_stack([lab == 0, lab == 1]).astype(float)
    order = np.argsort(rng.random((reps, n)), axis=1)
    for eps in (1.0, 50.0):  # noise-dominated, and learning (mean reward well above 1/2)
        fast = private_sgd_bandit(LogisticModel(2), x, y, order, eps, 50, rng, lr=0.5).reward_curve.sum(axis=1)
        plain = [_plain_linear(x, y, order[r], eps, 50, rng, lr=0.5) for r in range(reps)]
        assert stats.ks_2samp(fast, plain).pvalue > 0.01
    assert np.mean(plain) > 0.55 * n
    frozen = private_sgd_bandit(LogisticModel(2), x, y, order, 50.0, 50, rng, lr=0.0).reward_curve.sum(axis=1)
    assert stats.mannwhitneyu(frozen, plain).pvalue < 0.01  # the comparison has power


def test_mlp_gradient_matches_finite_differences():
    rng = np.random.default_rng(6)
    model = MLPModel(3)
    params = model.init(2, 2, rng)
    x = rng.random((2, 4, 3))
    arm = rng.integers(0, 2, (2, 4))
    y = rng.integers(0, 2, (2, 4)).astype(float)
    g = model.grad(params, x, arm, y)

    def loss(p):
        f = np.take_along_axis(model.predict(p, x), arm[..., None], axis=-1)[..., 0]
        return -(y * np.log(f) + (1 - y) * np.log(1 - f))

    h = 1e-6
    for j in range(model.p):
        dp = np.zeros_like(params)
        dp[:, :, j] = h
        num = (loss(params + dp) - loss(params - dp)) / (2 * h)  # each user's loss moves with its own arm's params
        np.testing.assert_allclose(g[..., j], num, atol=1e-5)
