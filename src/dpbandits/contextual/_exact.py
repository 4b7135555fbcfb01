"""Numba helpers that add floating-point numbers in exactly numpy's order, so that a compiled
kernel returns the very bits of the numpy expression it replaces (the Table 2 baselines and
the authors' code preset were first written in numpy, and the workflow's outputs must not move).

* :func:`einsum_dot`: a sum of products as ``np.einsum`` computes it for a contracted axis that
  is contiguous in both operands (``"rbp,rkp->rbk"`` and the like; numpy's
  ``sum_of_products_contig_contig_outstride0_two``): two accumulator lanes (the x86-64 baseline's
  128-bit vectors), even positions in one and odd in the other, blocks of 8 multiply-added from
  the last pair to the first, then the lanes summed and added to the zero-initialised output.
* :func:`pairwise_sum`: ``np.add.reduce`` along a contiguous axis (``arr.sum(axis=-1)``,
  ``np.linalg.norm(arr, axis=-1)``): numpy's pairwise summation (8 accumulators up to 128 terms,
  halving above), added to the identity 0.
* :func:`np_maximum`, :func:`np_minimum`: ``np.maximum`` / ``np.minimum`` of two floats (a NaN
  propagates, a tie returns the second argument: ``np.maximum(-0.0, 0.0)`` is ``+0.0``), unlike
  Python's ``max`` / ``min``.

* :func:`libm_exp`, :func:`libm_log`: ``np.exp`` / ``np.log`` of an array, elementwise through
  the C library, as a compiled kernel's ``math.exp`` / ``math.log`` computes them. numpy has its
  own float64 ``exp`` and ``log`` on AVX-512 CPUs, which differ from the C library's in the last
  bit (about 5% of ``exp`` values, 0.2% of ``log`` values); elsewhere numpy calls the C library.
  A numpy path that a compiled kernel must reproduce calls these, so that both agree on every CPU.

The sums are tested bit for bit against numpy over term counts 1-300 (``tests/test_contextual_data.py``).
No fused multiply-add is used (numba contracts nothing without ``fastmath``). Other transcendental
functions are not reimplemented: ``np.tanh`` differs from the C library's ``tanh`` in the last
bit, so callers leave it to numpy.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["einsum_dot", "pairwise_sum", "np_maximum", "np_minimum", "libm_exp", "libm_log"]


@njit(cache=True, inline="always")
def einsum_dot(a, i, b, j, n):
    """sum_t a[i + t] b[j + t], t < n (1-d arrays) in np.einsum's order (module docstring); exact
    for up to 8192 terms (numpy's iterator buffer: longer contractions are summed chunk by
    chunk). Offsets instead of slices keep the kernels' inner loops free of array views."""
    lane0 = 0.0
    lane1 = 0.0
    t = 0
    while n - t >= 8:  # a block of 4 pairs, multiply-added onto the lanes from the last pair
        for q in (6, 4, 2, 0):
            lane0 = a[i + t + q] * b[j + t + q] + lane0
            lane1 = a[i + t + q + 1] * b[j + t + q + 1] + lane1
        t += 8
    while t < n:  # the tail, a pair at a time (a missing partner is a zero product)
        lane0 = a[i + t] * b[j + t] + lane0
        lane1 = (a[i + t + 1] * b[j + t + 1] if t + 1 < n else 0.0) + lane1
        t += 2
    return 0.0 + (lane0 + lane1)


@njit(cache=True)
def _block(a, lo, n):
    """numpy's pairwise_sum of a[lo:lo + n] for n <= 128 (no split)."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    while i < n - n % 8:
        j = lo + i
        r0 += a[j]
        r1 += a[j + 1]
        r2 += a[j + 2]
        r3 += a[j + 3]
        r4 += a[j + 4]
        r5 += a[j + 5]
        r6 += a[j + 6]
        r7 += a[j + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@njit(cache=True)
def _left_size(n):
    half = n // 2
    return half - half % 8


@njit(cache=True)
def _pairwise(a, lo, n):
    """numpy's pairwise_sum of a[lo:lo + n]: blocks of <= 128 terms; a longer range is split at
    _left_size(n) and its halves' sums added. The recursion runs on an explicit stack (numba's
    on-disk cache does not support recursive functions)."""
    if n <= 128:
        return _block(a, lo, n)
    los = np.empty(64, np.int64)  # frames: range start, size, left half's sum, left done?
    sizes = np.empty(64, np.int64)
    left = np.empty(64)
    done = np.zeros(64, np.bool_)
    los[0], sizes[0], done[0] = lo, n, False
    top = 1
    while True:
        f = top - 1
        if sizes[f] > 128:  # descend into the left half
            los[top], sizes[top], done[top] = los[f], _left_size(sizes[f]), False
            top += 1
            continue
        value = _block(a, los[f], sizes[f])
        top -= 1
        while top > 0:  # hand the value to the parent frames
            parent = top - 1
            if not done[parent]:
                left[parent], done[parent] = value, True
                half = _left_size(sizes[parent])
                los[top], sizes[top], done[top] = los[parent] + half, sizes[parent] - half, False
                top += 1
                break
            value = left[parent] + value
            top -= 1
        if top == 0:
            return value


@njit(cache=True, inline="always")
def pairwise_sum(a, lo, n):
    """a[lo:lo + n].sum() (1-d array) as ``np.add.reduce`` adds it (module docstring)."""
    return 0.0 + _pairwise(a, lo, n)


@njit(cache=True, inline="always")
def np_maximum(a, b):
    """np.maximum(a, b) of two floats (module docstring)."""
    return a if (a > b or a != a) else b


@njit(cache=True, inline="always")
def np_minimum(a, b):
    """np.minimum(a, b) of two floats (module docstring)."""
    return a if (a < b or a != a) else b


@njit(cache=True)
def _libm_exp(x):
    out = np.empty_like(x)
    for i in range(x.size):
        out[i] = math.exp(x[i])
    return out


@njit(cache=True)
def _libm_log(x):
    out = np.empty_like(x)
    for i in range(x.size):
        out[i] = math.log(x[i])  # numba's math.log follows numpy: -inf at 0, NaN below
    return out


def libm_exp(x) -> np.ndarray:
    """np.exp(x) with the C library's exp (module docstring); float64, x's shape."""
    x = np.asarray(x, dtype=np.float64)
    return _libm_exp(x.ravel()).reshape(x.shape)


def libm_log(x) -> np.ndarray:
    """np.log(x) with the C library's log (module docstring); float64, x's shape."""
    x = np.asarray(x, dtype=np.float64)
    return _libm_log(x.ravel()).reshape(x.shape)
