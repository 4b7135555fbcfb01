"""The quantile paper's experiments: its instances' grids, the simulation designs the workflow runs
(cells, seed blocks, Parquet layout) and the drawing of the paper's figures and tables. Imports
the core and this paper's algorithms (:mod:`dpbandits.quantile`), never its checks."""
