"""How the workflow's rules run their entry points (``workflow/scripts/*.py``).

Every rule is a one-line ``run:`` directive, ``run_job(SCRIPT, input, output, params,
wildcards, log)``. The entry point is a module with a ``main(job)`` function; :class:`Job` gives
it the rule's named inputs, outputs, params, wildcards and log, the way Snakemake's ``snakemake``
object gives them to a ``script:``, but *no* config: a job sees only the config values its rule
declares in ``params.config`` (:mod:`dpbandits.workflow.provenance`), so that Snakemake's params trigger
reruns exactly the jobs a config change affects.

Where the entry point runs:

* In the main Snakemake process of a local run (``--force-use-threads``, set by the default
  profile, makes ``run:`` jobs execute in the main process's threads), jobs go to a pool of warm
  worker processes (one per core, but never more than the CPUs that exist, :func:`pool_size`;
  ``spawn`` start method): an interpreter and its imports (numpy,
  pandas, scipy, matplotlib, ...) are paid once per worker, not once per job, which is most of the
  cost of the workflow's ~300 small jobs. Workers run one job at a time, so non-thread-safe
  libraries (matplotlib) are safe, and jobs stay in separate processes, so they run in parallel.
* Anywhere else (a cluster job, a ``run:`` job spawned as a Snakemake subprocess, or
  ``DPBANDITS_INLINE=1``), the entry point runs in the calling process.

Either way the result is the same bytes: a job is a deterministic function of its inputs, its
params and the code.

Logging: the job's log file receives its messages and, on failure, the traceback. A worker whose
parent (the Snakemake process) dies exits on its own.
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib.util
import logging
import multiprocessing
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path

__all__ = ["Job", "Files", "run_job", "run_entry_point", "shutdown_pool", "record_outputs",
           "OUTPUT_RECORDS", "available_cpus", "pool_size"]

# One JSON record per finished output file that is not a checksummed Parquet table (CSV, TeX,
# Markdown, figures, HTML): its SHA-256, so that the next run finds a damaged deliverable and
# rebuilds it (dpbandits.workflow.guard). Parquet tables carry their own sidecar (dpbandits.io).
OUTPUT_RECORDS = Path(".snakemake") / "dpbandits" / "outputs"


class Files(list):
    """Paths with positional and named access, like Snakemake's ``input`` / ``output``:
    ``files[0]``, ``files.claims``, iteration over every path."""

    def __init__(self, items=(), names: Mapping[str, object] | None = None):
        super().__init__(str(p) for p in items)
        self._names = dict(names or {})

    def __getattr__(self, name):
        try:
            return self.__dict__["_names"][name]
        except KeyError:
            raise AttributeError(f"no file named {name!r}; named files: "
                                 f"{', '.join(self.__dict__.get('_names', {})) or 'none'}") from None

    def has(self, name: str) -> bool:
        return name in self._names

    def __reduce__(self):
        return (Files, (list(self), self._names))


class Params:
    """A rule's params as attributes (``params.check``) and by key."""

    def __init__(self, values: Mapping[str, object] | None = None):
        self.__dict__["_values"] = dict(values or {})

    def __getattr__(self, name):
        try:
            return self.__dict__["_values"][name]
        except KeyError:
            raise AttributeError(f"no param {name!r}; params: {', '.join(self._values) or 'none'}") from None

    def __getitem__(self, name):
        return self._values[name]

    def get(self, name, default=None):
        return self._values.get(name, default)

    def __contains__(self, name) -> bool:
        return name in self._values

    def __reduce__(self):
        return (Params, (self._values,))


class Job:
    """What an entry point's ``main(job)`` receives."""

    def __init__(self, input: Files, output: Files, params: Params, wildcards: Params,
                 log: Files):
        self.input, self.output, self.params, self.wildcards, self.log = input, output, params, wildcards, log

    @property
    def config(self) -> dict:
        """The config values this job's rule declared (``params.config``)."""
        return self.params.config


def _files(namedlist) -> Files:
    """Snakemake Namedlist -> Files (plain, picklable)."""
    if namedlist is None:
        return Files()
    names = {}
    if hasattr(namedlist, "items"):
        for name, value in namedlist.items():
            names[name] = [str(v) for v in value] if isinstance(value, list) else str(value)
    return Files(list(namedlist), names)


def _params(namedlist) -> Params:
    if namedlist is None:
        return Params()
    if isinstance(namedlist, Mapping):
        return Params(namedlist)
    return Params(dict(namedlist.items()))


# ---------------------------------------------------------------------------------------------
# Running one entry point


_MODULES: dict[str, object] = {}


def _load(script: str):
    """The entry-point module at ``script`` (loaded once per process)."""
    module = _MODULES.get(script)
    if module is None:
        spec = importlib.util.spec_from_file_location(f"dpbandits_entry_{Path(script).stem}", script)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load the entry point {script}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _MODULES[script] = module
    return module


def run_entry_point(script: str, job: Job) -> None:
    """Run ``main(job)`` of ``script`` with logging to the job's log (and the traceback on
    failure); the calling process's logging is restored afterwards."""
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    log_path = job.log[0] if len(job.log) else None
    if log_path:
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(log_path, mode="w") if log_path else logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    start = time.perf_counter()
    try:
        _load(script).main(job)
        logging.info("done in %.2f s", time.perf_counter() - start)
    except BaseException:
        logging.error("failed:\n%s", traceback.format_exc())
        raise
    finally:
        handler.close()
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        sys.stdout.flush()


# ---------------------------------------------------------------------------------------------
# The warm worker pool (main process of a local run)

_POOL: cf.ProcessPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(1)


def _worker_init(parent: int) -> None:
    """A worker exits when its parent (Snakemake) is gone, e.g. killed with SIGKILL."""
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask; ``os.cpu_count()`` where there is none)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def pool_size(cores: int) -> int:
    """Workers of the warm pool for a run with ``--cores cores``: one per core, but never more than
    :func:`available_cpus`. ``--cores 8`` on a 2-CPU machine (``make reproduce``) otherwise starts 8
    interpreters that share 2 CPUs: each pays its imports and, on a cold cache, compiles the numba
    kernels, and their working sets evict each other from the caches, for no job finished sooner.
    Snakemake may still start ``cores`` jobs at once; the pool queues them."""
    return max(1, min(int(cores), available_cpus()))


def _pool(workers: int) -> cf.ProcessPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = cf.ProcessPoolExecutor(max_workers=pool_size(workers),
                                           mp_context=multiprocessing.get_context("spawn"),
                                           initializer=_worker_init, initargs=(os.getpid(),))
        return _POOL


def shutdown_pool() -> None:
    """Stop the worker pool (tests; Snakemake's exit does it implicitly)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is not None:
            _POOL.shutdown(wait=True, cancel_futures=True)
            _POOL = None


def _use_pool(workflow) -> bool:
    if os.environ.get("DPBANDITS_INLINE") == "1" or workflow is None:
        return False
    return bool(getattr(workflow, "is_main_process", False))


def record_outputs(paths, root: str | Path = ".") -> None:
    """Record the SHA-256 of each finished output file that has no checksum sidecar."""
    import hashlib
    import json

    from dpbandits.io import atomic_path

    records = Path(root) / OUTPUT_RECORDS
    for path in map(Path, paths):
        if not path.is_file() or path.suffix == ".parquet":
            continue
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        name = hashlib.sha256(str(path).encode()).hexdigest()[:32]
        records.mkdir(parents=True, exist_ok=True)
        with atomic_path(records / f"{name}.json") as tmp:
            tmp.write_text(json.dumps({"path": str(path), "sha256": digest}))


def run_job(script: str | Path, input=None, output=None, params=None, wildcards=None, log=None,
            workflow=None, runner: Callable[[str, Job], None] | None = None) -> None:
    """Run the entry point ``script`` (``main(job)``) for one Snakemake job; called by every
    rule's ``run:`` directive (module docstring)."""
    job = Job(_files(input), _files(output), _params(params), _params(wildcards), _files(log))
    script = str(Path(script).resolve())
    if runner is not None:
        runner(script, job)
    elif _use_pool(workflow):
        pool = _pool(getattr(workflow, "cores", 1) or 1)
        try:
            pool.submit(run_entry_point, script, job).result()
        except cf.process.BrokenProcessPool:
            # a worker died (killed, out of memory): start afresh for the next job
            global _POOL
            with _POOL_LOCK:
                _POOL = None
            raise
    else:
        run_entry_point(script, job)
    record_outputs(job.output)
