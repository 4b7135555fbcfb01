"""The dueling paper's experiments: its instances' grids, the simulation designs the workflow runs
(cells, seed blocks, Parquet layout); the paper has no figures or tables of its own. Imports
the core and this paper's algorithms (:mod:`dpbandits.dueling`), never its checks."""
