"""Statistics conventions of ARCHITECTURE.md: bootstrap CIs over runs, log-log slopes with
bootstrap CIs, Clopper-Pearson, Holm, Mann-Whitney with ties."""

from dpbandits.stats.core import (
    bootstrap_ci,
    bootstrap_ratio_of_means,
    clopper_pearson,
    holm,
    loglog_slope,
    mann_whitney_less,
    mean_ci,
    paired_loglog_slope,
    wilcoxon_less,
)

__all__ = [
    "bootstrap_ci",
    "bootstrap_ratio_of_means",
    "clopper_pearson",
    "holm",
    "loglog_slope",
    "paired_loglog_slope",
    "mann_whitney_less",
    "mean_ci",
    "wilcoxon_less",
]
