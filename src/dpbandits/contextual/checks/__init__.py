"""The contextual paper's checks: the check registry (:mod:`.registry`, plain records the workflow
reads to build one rule per check) and the check modules it names. Imports the core, the evidence
wing (:mod:`dpbandits.evidence`), this paper's algorithms and its experiments."""
