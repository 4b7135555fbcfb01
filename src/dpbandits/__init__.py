"""dpbandits: the science behind the dpbandits-replication workflow.

One package per paper (``online``, ``dueling``, ``quantile``, ``contextual``), each with one entry
point of the same shape, ``dpbandits.<paper>.simulate(algorithm, instance, epsilon, horizon, runs,
seed, params)`` (module ``<paper>.api``; the quantile algorithms stop by themselves and take a
``cap`` instead of a horizon), which the workflow's experiments call too; typed parameters in
``params``; a researcher's own online bandit algorithm implements ``online.interface``. And one
place for each shared concept: ``mechanisms`` (Laplace, tree and hybrid counters), ``rng`` (seed
derivation), ``stats`` (bootstrap, slopes, exact tests), ``audit`` (black-box privacy audits),
``claims`` (the verdict record every check returns), ``plotting`` and ``tables``.
"""

__version__ = "0.1.0"
