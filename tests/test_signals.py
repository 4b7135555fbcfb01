"""SIGTERM while Snakemake's scheduling loop holds its lock: the replaced handler records the stop
and wakes the loop without waiting for that lock (dpbandits.workflow.signals)."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from dpbandits.workflow import signals


def _scheduler():
    return SimpleNamespace(_lock=threading.Lock(), _open_jobs=threading.Semaphore(0), _user_kill=None)


def _handled_within(handler, scheduler, seconds=5.0) -> bool:
    """Run ``handler`` as the signal would, on a thread that holds the scheduler's lock (as the
    main thread does inside ``_finish_jobs``); whether it returned within ``seconds``."""
    done = threading.Event()

    def main_thread():
        with scheduler._lock:  # the interrupted frame holds it
            handler(scheduler)
        done.set()

    threading.Thread(target=main_thread, daemon=True).start()
    return done.wait(seconds)


def test_the_stop_is_recorded_and_the_loop_woken_while_the_lock_is_held():
    scheduler = _scheduler()
    assert _handled_within(signals.exit_gracefully_without_lock, scheduler)
    assert scheduler._user_kill == "graceful"
    assert scheduler._open_jobs.acquire(timeout=5)  # the scheduling loop wakes up


def test_snakemakes_own_handler_would_deadlock_there_and_is_replaced():
    from snakemake.scheduling.job_scheduler import JobScheduler

    original = JobScheduler.exit_gracefully
    try:
        if original is not signals.exit_gracefully_without_lock:  # the defect the module works around
            assert not _handled_within(original, _scheduler(), seconds=1.0)
        assert signals.install()
        assert JobScheduler.exit_gracefully is signals.exit_gracefully_without_lock
    finally:
        JobScheduler.exit_gracefully = original


@pytest.mark.parametrize("missing", ["module", "method"])
def test_install_changes_nothing_where_there_is_nothing_to_replace(monkeypatch, missing):
    import sys

    if missing == "module":
        monkeypatch.setitem(sys.modules, "snakemake.scheduling.job_scheduler", None)
    else:
        from snakemake.scheduling import job_scheduler

        monkeypatch.setattr(job_scheduler, "JobScheduler", type("JobScheduler", (), {}))
    assert signals.install() is False
