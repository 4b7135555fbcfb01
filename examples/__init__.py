"""Examples of a researcher's own algorithms, one file per family (README, "The Python API, and
bringing your own algorithm"; docs/library.md, "Bring your own algorithm"), each with a correct
private algorithm and, where the family has a black-box audit, a deliberately broken one it
refutes: online (``dp_ucb_tree.py``, a DP-UCB with tree-based counters for
``online.extra_algorithms``, and ``leaky_ucb.py``), dueling (``dueling_algorithms.py``), quantile
(``quantile_algorithms.py``: a non-private per-sample class, and a correct and a broken private
epoch class) and
contextual (``contextual_policies.py``: a policy, a correct local randomiser and a broken one)."""
