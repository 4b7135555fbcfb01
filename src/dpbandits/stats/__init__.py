"""The project's statistics conventions (docs/verdicts.md): bootstrap CIs over runs, log-log slopes with
bootstrap CIs that include lack of fit, Clopper-Pearson, Holm, Mann-Whitney with ties."""

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
from dpbandits.stats.slopes import SlopeFit, fit_line, slope_difference

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
    "SlopeFit",
    "fit_line",
    "slope_difference",
]
