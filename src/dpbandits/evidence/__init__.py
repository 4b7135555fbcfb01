"""The evidence wing, shared by every paper's checks: the check registry (:mod:`.registry`), the
check rows and their verdicts (:mod:`.claims`), the claims of the papers judged from those rows by
each paper's claim inventory (:mod:`.inventory`), the builders of check outputs and verdict rules
(:mod:`.checks`), the claim rows of a black-box audit (:mod:`.audits`), the guards every row
passes (:mod:`.guards`: ``judge`` gives every row its final reason; a few online checks still
propose ``no_power`` or ``undecided`` before it), a check's evaluation (:mod:`.evaluation`) and
the verdict-stability sweep (:mod:`.stability`). It imports the core only, never a paper or the
workflow wing (a paper's registry and inventory are loaded by their dotted names)."""
