"""The quantile paper's checks: the check registry (:mod:`.registry`, plain records the workflow
reads to build one rule per check), the claim inventory (:mod:`.claims`: every claim of the
paper, where it is stated and the check rows that test it) and the check modules the registry
names. Imports the core, the evidence wing (:mod:`dpbandits.evidence`), this paper's algorithms
and its experiments."""
