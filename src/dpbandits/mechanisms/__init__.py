"""Privacy mechanisms shared by all papers.

Each mechanism states its privacy parameter, its sensitivity and its noise scale explicitly, so
the accounting can be checked (tests/test_mechanisms.py) and audited (dpbandits.audit).
"""

from dpbandits.mechanisms.hybrid_counter import HybridCounter
from dpbandits.mechanisms.laplace import LaplaceMechanism, laplace_sum, laplace_tail_probability
from dpbandits.mechanisms.tree_counter import BinaryTreeCounter

__all__ = ["BinaryTreeCounter", "HybridCounter", "LaplaceMechanism", "laplace_sum",
           "laplace_tail_probability"]
