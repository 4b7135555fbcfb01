"""dpbandits: the science behind the dpbandits-replication workflow.

One package per paper (``online``, and later ``dueling``, ``quantile``, ``contextual``), and one
place for each shared concept: ``mechanisms`` (Laplace, tree and hybrid counters), ``rng`` (seed
derivation), ``stats`` (bootstrap, slopes, exact tests), ``audit`` (black-box privacy audits),
``claims`` (the verdict record every check returns), ``plotting`` and ``tables``.
"""

__version__ = "0.1.0"
