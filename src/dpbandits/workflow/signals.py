"""A SIGTERM that ends a local run instead of hanging it.

Snakemake's scheduler (``snakemake.scheduling.job_scheduler.JobScheduler``, Snakemake 9) handles
SIGTERM with ``exit_gracefully``, which takes the scheduler's ``_lock`` to record the stop. Python
runs a signal handler on the main thread, between two bytecodes of whatever that thread was doing;
when the signal arrives while the main thread itself holds ``_lock`` (the scheduling loop takes it
to collect finished jobs, ``schedule`` -> ``_finish_jobs``), the handler waits for a lock that
only the interrupted frame beneath it can release: the run hangs for good, its locks kept, and
only SIGKILL ends it. Seen as 1 hang in about 7 tries of ``timeout 25 snakemake --cores 1
--configfile config/smoke.yaml`` (a stack dump showed the main thread in ``exit_gracefully``
inside ``_finish_jobs``).

:func:`install` replaces that handler, before the scheduler is built (the workflow's
``common.smk``, main process only), by one that takes no lock: it records the stop (an attribute
assignment, atomic under the GIL; the loop reads it under the lock at its next turn) and wakes the
loop from a helper thread (the semaphore's own lock may be held by the interrupted frame too).
Snakemake then does what it always does on SIGTERM: it starts no new job, waits for the running
ones (the warm pool's workers, in the same process group, are stopped by the same signal, so their
jobs fail at once) and removes its locks; the next run resumes.
"""

from __future__ import annotations

import threading

__all__ = ["install", "exit_gracefully_without_lock"]


def exit_gracefully_without_lock(scheduler, *args) -> None:
    """The SIGTERM handler of the scheduler, without its lock (module docstring)."""
    scheduler._user_kill = "graceful"
    threading.Thread(target=scheduler._open_jobs.release, name="dpbandits-sigterm", daemon=True).start()


def install() -> bool:
    """Make Snakemake's scheduler use :func:`exit_gracefully_without_lock`; False (and nothing
    changed) when this Snakemake has no such scheduler method to replace."""
    try:
        from snakemake.scheduling.job_scheduler import JobScheduler
    except ImportError:
        return False
    if not callable(getattr(JobScheduler, "exit_gracefully", None)):
        return False
    JobScheduler.exit_gracefully = exit_gracefully_without_lock
    return True
