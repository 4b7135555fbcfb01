"""Examples of a researcher's own bandit algorithm for ``online.extra_algorithms`` (README,
"Using the library from Python"): a private DP-UCB with tree-based counters and a deliberately
leaky UCB that the black-box audit refutes."""
