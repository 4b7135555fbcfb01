"""The workflow wing: what Snakemake needs besides the library. Config validation
(:mod:`.config`), provenance of every job (config values and code digests, :mod:`.provenance`),
the job runner and its warm worker pool (:mod:`.jobs`), the integrity guard (:mod:`.guard`), and
the writers of captions, the notebook and the README's generated tables (:mod:`.captions`,
:mod:`.notebook`, :mod:`.readme`). It may import anything in the library; nothing in the library
imports it. Its packages (Snakemake, jsonschema, the notebook's) come with the ``workflow``
extra (``pip install dpbandits[workflow]``)."""
