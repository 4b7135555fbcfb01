"""Entry point of rule contextual_table_simulate: Table 2's methods on one dataset. The data's
provenance (real with the SHA-256 of the source files, surrogate, or surrogate fallback) is in
the table's columns and, as JSON, in its Parquet metadata ``data_provenance``."""

import json

from dpbandits.experiments.contextual import simulate_table
from dpbandits.io import write_results
from dpbandits.workflow import run_script


def main(smk):
    manifest = smk.input.get("adult_manifest") or None
    table = simulate_table(smk.wildcards.dataset, smk.config["contextual"], smk.config["seed"],
                           adult_manifest=str(manifest) if manifest else None)
    write_results(table, smk.output[0],
                  metadata={"data_provenance": json.dumps(table.attrs["provenance"], sort_keys=True)})


run_script(snakemake, main)
