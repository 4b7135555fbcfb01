"""ABSE, the non-private baseline of Table 2 (Adaptively Binned Successive Elimination, Perchet &
Rigollet 2013), as the spec recommends it (section 5.1, "practical alternative"): Algorithm 2 run
without privacy, i.e. the LDPMAB engine with exact U and V (no Laplace noise), radius
r = sqrt(C_n / sum U), uniform choice among the active arms, the same max-edge binary splits and
the same calibrated thresholds as the ``primary`` preset (tau_s = 2^(-s/d), band max(r, tau_s),
refine when every active arm has r < tau_s, depth cap s_max, warm-up floor(log2 n)^2). The
authors describe LDPMAB as an LDP adaptation of ABSE; this is the adaptation with the privacy
removed, which is what the Table 2 denominators need (they depend on this choice, stated in the
table). The preset itself lives in :data:`dpbandits.contextual.config.PRESETS` (``"abse"``).
"""

from __future__ import annotations

import math

import numpy as np

from dpbandits.contextual.config import LDPMABConfig, preset
from dpbandits.contextual.ldpmab import LDPMABResult, Source, run_ldpmab

__all__ = ["abse_config", "run_abse"]


def abse_config(batch: int) -> LDPMABConfig:
    return preset("abse", batch=batch)


def run_abse(n: int, batch: int, seed: np.random.SeedSequence, **feeder) -> LDPMABResult:
    """ABSE on the target stream only (``feeder``: ``instance=`` or ``data=, k=, d=``)."""
    return run_ldpmab(abse_config(batch), [Source(n, math.inf, target=True)], seed, **feeder)
