"""Examples of a researcher's own bandit algorithm for ``online.extra_algorithms`` (README,
"The Python API, and bringing your own algorithm"): a private DP-UCB with tree-based counters and a deliberately
leaky UCB that the black-box audit refutes."""
