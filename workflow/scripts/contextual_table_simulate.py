"""Entry point of rule contextual_table_simulate: Table 2's methods on one dataset. The data's
provenance (real with the SHA-256 of the source files, surrogate, or surrogate fallback) is in
the table's columns and, as JSON, in its Parquet metadata ``data_provenance``."""

import json

from dpbandits.contextual.experiments.designs import simulate_table
from dpbandits.io import write_results


def main(job):
    manifest = job.input.adult_manifest if job.input.has("adult_manifest") else None
    table = simulate_table(job.wildcards.dataset, job.config["contextual"], job.config["seed"],
                           adult_manifest=manifest)
    write_results(table, job.output[0],
                  metadata={"data_provenance": json.dumps(table.attrs["provenance"], sort_keys=True)})
