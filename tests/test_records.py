"""The simulation and figure registries (dpbandits.records): every record of every paper is
well formed, names a function that exists, and gets a rule name no other rule has."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpbandits import records
from dpbandits.evidence import registry

ROOT = Path(__file__).resolve().parents[1]
SIMS = [s for p in records.PAPERS for s in records.simulations_of(p).values()]
FIGS = [f for p in records.PAPERS for f in records.figures_of(p).values()]


@pytest.mark.parametrize("record", SIMS + FIGS, ids=lambda r: f"{r.paper}-{r.id}")
def test_every_record_names_a_callable_of_its_papers_package(record):
    assert callable(record.load())
    assert record.module.startswith(f"dpbandits.{record.paper}.")


def test_rule_names_are_unique_across_the_three_registries():
    rules = [r.rule for r in SIMS + FIGS] + [c.rule for c in registry.all_checks()]
    assert len(rules) == len(set(rules)), sorted({r for r in rules if rules.count(r) > 1})


@pytest.mark.parametrize("sim", SIMS, ids=lambda r: f"{r.paper}-{r.id}")
def test_simulations_write_under_their_papers_sim_folder(sim):
    for path in sim.outputs.values():
        assert path.startswith(f"sim/{sim.paper}/") and path.endswith(".parquet"), path


@pytest.mark.parametrize("fig", FIGS, ids=lambda r: f"{r.paper}-{r.id}")
def test_every_figure_has_its_caption_and_reads_simulated_tables(fig):
    caption = ROOT / "workflow" / "report" / fig.paper / f"{fig.name}.rst"
    assert caption.is_file(), caption
    for paths in fig.inputs.values():
        for path in [paths] if isinstance(paths, str) else paths:
            assert path.startswith(f"sim/{fig.paper}/"), path


def test_config_of_gives_the_designs_own_paths():
    sim = records.get_simulation("quantile", "designs")
    assert sim.config_paths({"design": "dp_k"}) and all(p.startswith("quantile.") for p in
                                                          sim.config_paths({"design": "dp_k"}))
    online = records.get_simulation("online", "figures")
    assert "online.figures.settings.setting1.means" in online.config_paths({"setting": "setting1"})


def test_bad_records_are_refused_with_the_field_named():
    with pytest.raises(ValueError, match="paper must be one of"):
        records.Simulation("nope", "x", "r", "m:f", {"table": "sim/x.parquet"}, "x.log")
    with pytest.raises(ValueError, match="module:attribute"):
        records.Figure("online", "x", "r", "no_colon", "x")
    with pytest.raises(ValueError, match="kind must be"):
        records.Figure("online", "x", "r", "m:f", "x", kind="movie")
    with pytest.raises(ValueError, match="config_of names wildcard"):
        records.Simulation("online", "x", "r", "m:f", {"table": "sim/online/x.parquet"}, "x.log",
                           config_of=("design", "m:f"))
    with pytest.raises(KeyError, match="no simulation"):
        records.get_simulation("online", "nope")
