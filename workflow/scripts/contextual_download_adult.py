"""Entry point of rule contextual_download_adult: fetch UCI Adult (needs the network)."""

from dpbandits.contextual.realdata import download_adult


def main(job):
    download_adult(job.output[0])
