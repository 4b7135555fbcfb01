"""Run engines: the plain per-step reference engine and the checkpoint recorder used by the fast
(event-driven / chunked / vectorised) engines of each algorithm."""

from dpbandits.sim.checkpoints import CheckpointRecorder, checkpoint_grid
from dpbandits.sim.reference import RunResult, run_reference

__all__ = ["CheckpointRecorder", "RunResult", "checkpoint_grid", "run_reference"]
