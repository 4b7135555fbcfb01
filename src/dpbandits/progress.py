"""Progress bars for long simulations: shown (tqdm) when the job's stderr is a terminal, so a
user watching `snakemake --cores N` sees them; silent when stderr goes to a log file or a pipe
(CI, cluster jobs), so that logs stay readable."""

from __future__ import annotations

import sys
from collections.abc import Iterable

from tqdm.auto import tqdm

__all__ = ["progress"]


def progress(iterable: Iterable, desc: str, total: int | None = None, stream=None) -> Iterable:
    """``iterable`` wrapped in a tqdm bar on a terminal, and ``iterable`` itself otherwise."""
    stream = sys.stderr if stream is None else stream
    if not (hasattr(stream, "isatty") and stream.isatty()):
        return iterable
    return tqdm(iterable, desc=desc, total=total, file=stream, leave=False, dynamic_ncols=True)
