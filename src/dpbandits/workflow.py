"""Helpers for the thin Snakemake entry points in ``workflow/scripts``: logging to the rule's
log file, and the config values every script needs."""

from __future__ import annotations

import logging
import sys
import time
import traceback
from collections.abc import Callable

__all__ = ["run_script"]


def run_script(snakemake, main: Callable[[object], None]) -> None:
    """Run ``main(snakemake)`` with logging to the rule's log; tracebacks go to the log too."""
    log_path = snakemake.log[0] if len(snakemake.log) else None
    handlers = [logging.FileHandler(log_path, mode="w")] if log_path else [logging.StreamHandler()]
    logging.basicConfig(level=logging.INFO, handlers=handlers, force=True,
                        format="%(asctime)s %(levelname)s %(message)s")
    start = time.perf_counter()
    try:
        main(snakemake)
    except BaseException:
        logging.error("failed:\n%s", traceback.format_exc())
        raise
    logging.info("done in %.2f s", time.perf_counter() - start)
    sys.stdout.flush()
