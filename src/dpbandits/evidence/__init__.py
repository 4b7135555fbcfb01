"""The evidence wing, shared by every paper's checks: the check registry (:mod:`.registry`), the
claim rows and their verdicts (:mod:`.claims`), the builders of check outputs and verdict rules
(:mod:`.checks`), the guards every row passes (:mod:`.guards`, the only place a verdict's reason
is decided), a check's evaluation (:mod:`.evaluation`) and the verdict-stability sweep
(:mod:`.stability`). It imports the core only, never a paper or the workflow wing."""
