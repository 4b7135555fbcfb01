"""Entry point of rule contextual_download_adult: fetch UCI Adult (needs the network)."""

from dpbandits.contextual.realdata import download_adult
from dpbandits.workflow import run_script


def main(smk):
    download_adult(smk.output[0])


run_script(snakemake, main)
