"""The warm worker pool of a local run is sized to the CPUs that exist, not to ``--cores``."""

from __future__ import annotations

import os

import pytest

from dpbandits.workflow import jobs


def test_the_pool_never_has_more_workers_than_cpus(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert jobs.available_cpus() == 2
    assert jobs.pool_size(8) == 2  # make reproduce's --cores 8 on a 2-CPU machine
    assert jobs.pool_size(2) == 2
    assert jobs.pool_size(1) == 1
    assert jobs.pool_size(0) == 1


def test_without_an_affinity_mask_the_cpu_count_bounds_the_pool(monkeypatch):
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert jobs.pool_size(8) == 3


@pytest.mark.parametrize("cores", [1, 8])
def test_the_running_pool_has_pool_size_workers(cores):
    try:
        pool = jobs._pool(cores)
        assert pool._max_workers == jobs.pool_size(cores)
    finally:
        jobs.shutdown_pool()
