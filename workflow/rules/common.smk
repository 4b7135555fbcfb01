# Shared set-up: config validation (before any job runs), the output roots, what each job depends
# on (params.config and params.code, see dpbandits.workflow.provenance) and the helper functions, so that
# rules carry no lambdas.
import copy
import hashlib
from pathlib import Path

from dpbandits import records
from dpbandits.evidence import registry
from dpbandits.workflow.config import validate_workflow_config
from dpbandits.workflow.provenance import code_digest, select_config
from dpbandits.workflow.jobs import run_job
from dpbandits.workflow.guard import prepare_workdir
from dpbandits.workflow import signals

# The workflow's own files (schema, entry points, report templates), wherever it runs: in this
# checkout, or used as a Snakemake module by a deployment (snakedeploy deploy-workflow) whose
# working directory holds only its config; workflow.basedir would be the deployment's folder.
WORKFLOW_ROOT = (
    Path(workflow.current_basedir.get_path_or_uri(secret_free=True)).resolve().parents[1]
)
CONFIG_SCHEMA = WORKFLOW_ROOT / "workflow" / "schemas" / "config.schema.yaml"


def workflow_file(relative):
    """A file of the workflow as an input path: relative when the workflow runs in its own
    checkout (as always here), absolute when a deployment uses it as a module."""
    path, here = WORKFLOW_ROOT / relative, Path.cwd().resolve()
    return str(path.relative_to(here)) if path.is_relative_to(here) else str(path)


# A --configfile is the whole configuration (each must be complete, checked below): the workflow's
# own config/config.yaml fills in nothing it leaves out (a figure setting, extra_algorithms);
# --config key=value still overrides. Snakemake would merge the two.
if workflow.overwrite_configfiles:
    config.clear()
    config.update(copy.deepcopy(workflow.config_settings.overwrite_config))
# Every config file re-read strictly (duplicate keys), each --configfile complete, the merged
# config (schema, cross-field rules, DAG size): all problems in one error, before any job.
validate_workflow_config(
    config, workflow.configfiles, workflow.overwrite_configfiles, CONFIG_SCHEMA
)
# Optional keys (a researcher's own algorithms, extra.smk): none unless the config names some.
for _family in ("online", "dueling", "quantile", "contextual"):
    config[_family].setdefault("extra_algorithms", [])

# Recover from an interrupted or damaged earlier run before scheduling (main process only):
# stale locks of a killed run, temporaries of unfinished jobs, corrupt intermediate tables; of
# this scale's outputs only (a run never removes what it would not rebuild).
if workflow.is_main_process:
    signals.install()  # a SIGTERM ends the run instead of hanging it (dpbandits.workflow.signals)
    for message in prepare_workdir(
        ".", dryrun=workflow.output_settings.dryrun, scale=config["scale"]
    ).messages():
        logger.warning(f"dpbandits: {message}")

# ---- output roots --------------------------------------------------------------------------
# Scales never mix: every scale has its own results and reports (the paper scale writes the
# committed reports/; the smoke scale reports/smoke/, git-ignored). Everything a root seed
# determines lives under results/<scale>/seed<seed>/, so runs under several seeds (the stability
# sweep) coexist; checks that draw no random numbers live under results/<scale>/exact/.
SCALE = config["scale"]
SEED = config["seed"]
RESULTS = f"results/{SCALE}"
RUN = f"{RESULTS}/seed{{seed}}"  # pattern: the seed is a wildcard of every seeded job
MAIN = f"{RESULTS}/seed{SEED}"  # the run the reports show
EXACT = f"{RESULTS}/exact"
REPORTS = "reports" if SCALE == "paper" else f"reports/{SCALE}"
LOGS = f"logs/{SCALE}"
SCRIPTS = WORKFLOW_ROOT / "workflow" / "scripts"


wildcard_constraints:
    seed="[0-9]+",
    setting="[A-Za-z0-9_]+",
    algorithm="[a-z0-9_]+",
    eps="[0-9.e+-]+|nonprivate",
    block="[0-9]+",
    figure="[A-Za-z0-9_]+",
    design="[a-z0-9_]+",
    variant="[a-z0-9_]+",
    baseline="[a-z0-9_]+",


def script(name):
    """Path of the entry point workflow/scripts/<name>.py."""
    return str(SCRIPTS / f"{name}.py")


def code(*entries):
    """Digest of the code of a job (its entry points and every dpbandits module they import)
    (``params.code``: an edit reruns exactly the rules that execute the edited file)."""
    return code_digest(
        *[e.partition(":")[0] if e.startswith("dpbandits") else Path(script(e)) for e in entries]
    )


def job_config(*paths):
    """``params.config`` of a job: the config values at ``paths`` (plus the scale). In a seeded
    rule the seed is the ``seed`` wildcard; formatted paths take the job's wildcards
    (``online.figures.settings.{setting}``)."""

    def select(wildcards):
        values = dict(wildcards.items())
        chosen = [p.format(**values) for p in ("scale", *paths) if p != "seed"]
        out = select_config(config, chosen)
        if "seed" in paths:
            out = {"seed": int(values.get("seed", SEED)), **out}
        return out

    return select


def at_seed(path):
    """A seeded result path of the main run (the seed the reports show)."""
    return path.replace("{seed}", str(SEED))


def main_run(paths):
    return [at_seed(p) for p in paths]


# ---- checks: one registry for the four papers (dpbandits.evidence.registry) ---------------------------
CHECKS = {paper: registry.checks_of(paper) for paper in registry.PAPERS}


def check_root(spec, seed_pattern=True):
    """Where a check's outputs live: its run's seed root, or the exact root for checks that
    draw no random numbers and read no seeded results (they run once, whatever the seed).
    """
    if not spec.seeded and not spec.inputs:
        return EXACT
    return RUN if seed_pattern else MAIN


def check_claims(spec, seed_pattern=False):
    return f"{check_root(spec, seed_pattern)}/claims/{spec.paper}/{spec.id}.parquet"


def check_figure_data(spec, seed_pattern=False):
    return f"{check_root(spec, seed_pattern)}/figures/{spec.paper}/{spec.id}.parquet"


def check_table_data(spec, seed_pattern=False):
    return f"{check_root(spec, seed_pattern)}/tables/{spec.paper}/{spec.table.name}.parquet"


def check_outputs(spec):
    """A check rule's outputs: its claim rows, and its figure's or table's data."""
    out = {"claims": check_claims(spec, seed_pattern=True)}
    if spec.figure:
        out["figure"] = check_figure_data(spec, seed_pattern=True)
    if spec.table is not None:
        out["table"] = check_table_data(spec, seed_pattern=True)
    return out


def check_log(spec):
    if check_root(spec) == EXACT:
        return f"{LOGS}/{spec.paper}/exact/check_{spec.id}.log"
    return f"{LOGS}/{spec.paper}/seed{{seed}}/check_{spec.id}.log"


def check_inputs(spec):
    """A check's input files (registry order), in its run's seed root."""
    return [f"{RUN}/{p}" for files in spec.inputs.values() for p in files]


def check_params_config(spec):
    return job_config(*spec.config_paths)


def claim_files(paper):
    """The claim rows of every check of one paper, for the main run."""
    return [check_claims(spec) for spec in CHECKS[paper].values()]


def check_figures(paper):
    return [
        f"{REPORTS}/figures/{paper}/check_{spec.id}.{ext}"
        for spec in CHECKS[paper].values()
        if spec.figure
        for ext in ("pdf", "png")
    ]


def check_tables(paper):
    return [
        f"{REPORTS}/tables/{paper}/{spec.table.name}.{ext}"
        for spec in CHECKS[paper].values()
        if spec.table is not None
        for ext in ("tex", "csv")
    ]


# ---- the verdict-stability sweep (stability.smk) ---------------------------------------------
STABILITY_SEEDS = [SEED, *config["stability"]["seeds"]]
STABILITY_PAPERS = config["stability"].get("papers", list(registry.PAPERS))
STABILITY_TABLE = f"{REPORTS}/verdict_stability.csv"


def stability_inputs():
    """Every check's claim rows under every seed of the sweep (exact checks once), for the papers
    of stability.papers."""
    files = []
    for paper in STABILITY_PAPERS:
        for spec in CHECKS[paper].values():
            path = check_claims(spec, seed_pattern=True)
            if check_root(spec) == EXACT:
                files.append(path)
            else:
                files += [path.format(seed=s) for s in STABILITY_SEEDS]
    return files


def stability_table():
    """``params.stability`` of the claims: the sweep's table and the SHA-256 of its bytes, once it
    exists (its rows fill the claims' stability column; a new sweep reruns the claims); empty
    before the first sweep. A param, not an input, so that the default target never pulls the
    sweep (N times the work) into its DAG, e.g. after a code change or on a fresh clone."""
    path = Path(STABILITY_TABLE)
    if not path.is_file():
        return {}
    return {"table": STABILITY_TABLE, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


# ---- online paper (Hu, Huang, Mehta & Hegde) ---------------------------------------------------
from dpbandits.online.experiments import figure_designs as online_exp

ONLINE_FIG = config["online"]["figures"]


def online_sim_blocks(wildcards):
    """Every simulation block of the Figures 1-2 grid, in the run's seed root."""
    return [
        f"{RUN}/{cell.path}".format(seed=wildcards.seed) for cell in online_exp.figure_cells(config)
    ]


def online_figure_subcategory(wildcards):
    """Report subcategory of Figures 1-2: "Figure 1", "Figure 2"."""
    return f"Figure {wildcards.figure.removeprefix('fig')}"


def online_figure_setting(wildcards):
    for setting, spec in ONLINE_FIG["settings"].items():
        if spec["figure"] == wildcards.figure:
            return setting
    raise ValueError(f"no setting draws figure {wildcards.figure!r}")


def online_figure_config(wildcards):
    setting = online_figure_setting(wildcards)
    return select_config(
        config,
        [
            "scale",
            "online.figures.horizon",
            "online.figures.checkpoints.linear",
            f"online.figures.settings.{setting}",
        ],
    )


# A researcher's own algorithms (online.extra_algorithms; rules in extra.smk): simulated on the
# Figures 1-2 grid, drawn in the figures and the final-regret table, audited (checks X-*).
from dpbandits.online.interface import extra_algorithms as _extra_algorithms
from dpbandits.online.interface import source_file as _source_file

ONLINE_EXTRAS = {spec.name: spec for spec in _extra_algorithms(config["online"])}
ONLINE_EXTRA_LABELS = {name: spec.label for name, spec in ONLINE_EXTRAS.items()}


def online_extra_blocks(wildcards):
    """Every simulation block of the researcher's algorithms (none: an empty list)."""
    return [
        f"{RUN}/{cell.path}".format(seed=wildcards.seed) for cell in online_exp.extra_cells(config)
    ]


def online_extra_entry(wildcards):
    """What the simulate job of one extra algorithm reads of its config entry (``params.extra``):
    its name, import and params; its label, audit settings and accounting rerun no simulation."""
    for entry in config["online"]["extra_algorithms"]:
        if entry["name"] == wildcards.algorithm:
            return {k: entry[k] for k in ("name", "import", "params") if k in entry}
    raise ValueError(f"no extra algorithm {wildcards.algorithm!r} in online.extra_algorithms")


def _sources_digest(specs):
    """SHA-256 of the source files of researcher's classes (their module's file, and a contextual
    policy's randomiser's), so that an edit of the class reruns its jobs like an edit of the library
    does (params.code)."""
    import hashlib
    import inspect

    digest = hashlib.sha256()
    for spec in specs:
        paths = [_source_file(spec.import_path)]
        # a contextual policy's local randomiser
        randomizer = getattr(spec.load(), "randomizer", None)
        if isinstance(randomizer, type) and randomizer.__module__ != "builtins":
            paths.append(Path(inspect.getsourcefile(randomizer)).resolve())
        for path in paths:
            digest.update(f"{spec.name} {path.name if path else '?'}\n".encode())
            if path is not None and path.is_file():
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def online_extra_code(wildcards):
    sources = _sources_digest([ONLINE_EXTRAS[wildcards.algorithm]])
    return f"{code('online_extra_simulate')}+{sources}"


from dpbandits.contextual.checks.extra import extra_algorithms as _contextual_extras
from dpbandits.dueling.checks.extra import extra_algorithms as _dueling_extras
from dpbandits.quantile.checks.extra import extra_algorithms as _quantile_extras

EXTRAS = {
    "online.extra_algorithms": list(ONLINE_EXTRAS.values()),
    "dueling.extra_algorithms": _dueling_extras(config["dueling"]),
    "quantile.extra_algorithms": _quantile_extras(config["quantile"]),
    "contextual.extra_algorithms": _contextual_extras(config["contextual"]),
}


def check_code(spec):
    """``params.code`` of a check rule: its code, and the researcher's classes it runs."""
    digest = code("check", spec.module)
    for key, specs in EXTRAS.items():
        if key in spec.config_paths:
            digest = f"{digest}+{_sources_digest(specs)}"
    return digest


def online_figures():
    names = [spec["figure"] for spec in ONLINE_FIG["settings"].values()]
    return expand(
        f"{REPORTS}/figures/online/{{figure}}{{variant}}.{{ext}}",
        figure=names,
        variant=["", "_logx"],
        ext=["pdf", "png"],
    )


# ---- dueling paper (Saha & Asi) ----------------------------------------------------------------
from dpbandits.dueling.experiments import designs as dueling_exp


def explore_notebook_dueling_inputs():
    """The dueling tables the exploration notebook plots (Theorem 2 and Remark 4)."""
    return [
        f"{MAIN}/sim/dueling/alg1/{design}/{variant}.parquet"
        for design in ("eps_grid", "k_grid")
        for variant in dueling_exp.ALG1_VARIANTS[design]
    ] + [f"{MAIN}/sim/dueling/alg2/dense_runs.parquet"]


def explore_notebook_figures():
    """Every PNG figure the exploration notebook shows or lists (reports/figures/<paper>/*.png):
    declared, so that the notebook runs after all of them and again when any changes."""
    files = [*online_figures(), *paper_figures()]
    files += [f for paper in CHECKS for f in check_figures(paper)]
    return sorted({f for f in files if f.endswith(".png") and "/figures/" in f})


# ---- contextual paper (Ma, Jiang, Zhao, Yang & Yu) ---------------------------------------------
from dpbandits.contextual import realdata as contextual_realdata
from dpbandits.contextual.experiments import designs as contextual_exp
from dpbandits.contextual.experiments import beyond_designs as contextual_beyond_exp


wildcard_constraints:
    job="|".join(contextual_exp.JOBS),
    dataset="|".join(contextual_exp.DATASETS),
    beyond="|".join(contextual_beyond_exp.BEYOND_JOBS),


CONTEXTUAL_ADULT_MANIFEST = contextual_realdata.manifest_path(
    config["contextual"]["download"]["adult_dir"]
).as_posix()


def contextual_table_data(wildcards):
    """Input of table_adult: the Adult download manifest (unless a local Adult file is set)."""
    if wildcards.dataset == "adult" and not config["contextual"]["tables"]["adult_csv"]:
        return {"adult_manifest": CONTEXTUAL_ADULT_MANIFEST}
    return {}


def contextual_adult_retry(wildcards):
    """Unchanged for a good download, new after an 'unavailable' record (so it is retried)."""
    return contextual_realdata.download_retry_token(CONTEXTUAL_ADULT_MANIFEST)


# ---- simulations and figures: the papers' records (dpbandits.records) ----------------------
SIMULATIONS = {paper: records.simulations_of(paper) for paper in records.PAPERS}
FIGURES = {paper: records.figures_of(paper) for paper in records.PAPERS}


def describe(rule_name, text):
    """The docstring of a rule made in a loop (what `snakemake --list-rules` prints beside it)."""
    if text:
        workflow.get_rule(rule_name).docstring = text


def record_digest(record):
    """A digest of a registry record (a check's, a simulation's or a figure's: function, inputs,
    config, sizes, ...): editing one record reruns its jobs only."""
    return hashlib.sha256(repr(record).encode()).hexdigest()[:16]


def simulation_outputs(sim):
    """A simulation rule's outputs: its path patterns in the run's seed root."""
    return {name: f"{RUN}/{path}" for name, path in sim.outputs.items()}


def simulation_config(sim):
    """``params.config`` of a simulation job: the seed, the scale and the paths its record
    declares for these wildcards."""

    def select(wildcards):
        return job_config("seed", *sim.config_paths(dict(wildcards.items())))(wildcards)

    return select


def figure_inputs(fig):
    """A figure rule's named inputs, in the main run (the seed the reports show)."""
    return {
        name: f"{MAIN}/{paths}" if isinstance(paths, str) else [f"{MAIN}/{p}" for p in paths]
        for name, paths in fig.inputs.items()
    }


def figure_outputs(fig):
    """A figure's PDF and PNG (a table's TeX and CSV); the second goes into the report."""
    first, second = (
        f"{REPORTS}/{fig.folder}/{fig.paper}/{fig.name}.{ext}" for ext in fig.extensions
    )
    shown = report(
        second,
        caption=report_caption(fig.paper, fig.name),
        category=fig.paper,
        subcategory=fig.subcategory,
    )
    return dict(zip(fig.extensions, (first, shown)))


def paper_figures():
    """Every figure and table of the figure records (rule all)."""
    return [
        f"{REPORTS}/{fig.folder}/{paper}/{fig.name}.{ext}"
        for paper, figs in FIGURES.items()
        for fig in figs.values()
        for ext in fig.extensions
    ]


# ---- the Snakemake report (make report): captions rendered with the verdicts of each run ------
REPORT_CAPTIONS = f"{RESULTS}/report/captions"


def report_caption(paper, name):
    """Caption of a report item: workflow/report/<paper>/<name>.rst rendered with the verdicts of
    the checks it names (rule report_captions), as a path relative to workflow/rules/.
    """
    if (
        WORKFLOW_ROOT != Path.cwd().resolve()
    ):  # a module: the captions are in the deployment's folder
        return str(Path.cwd() / REPORT_CAPTIONS / paper / f"{name}.rst")
    return f"../../{REPORT_CAPTIONS}/{paper}/{name}.rst"


def report_caption_templates():
    return sorted(
        workflow_file(p.relative_to(WORKFLOW_ROOT))
        for p in (WORKFLOW_ROOT / "workflow" / "report").glob("*/*.rst")
    )


def replication_report_figures(wildcards):
    """The figures of one paper (PNG) that its replication report may show beside its claims."""
    return [
        f
        for f in check_figures(wildcards.paper) + online_figures() + paper_figures()
        if f.endswith(".png") and f"/figures/{wildcards.paper}/" in f
    ]


def replication_report_tables(wildcards):
    """The paper's tables (CSV) its replication report links from its table claims."""
    return [f for f in paper_figures() if f.endswith(".csv") and f"/tables/{wildcards.paper}/" in f]


def replication_pdf_figures(wildcards):
    """The vector figures the PDF report embeds: the PDF beside every PNG the Markdown may show."""
    pngs = replication_report_figures(wildcards)
    pngs.append(f"{REPORTS}/figures/{wildcards.paper}/claims_summary.png")
    return [f.removesuffix(".png") + ".pdf" for f in pngs]


def paper_checks_tables():
    return expand(
        f"{REPORTS}/tables/{{paper}}/checks.{{ext}}",
        paper=registry.PAPERS,
        ext=["tex", "csv"],
    )


def all_table_files(wildcards):
    """Every LaTeX table the workflow builds (the inputs of rule all), for all_tables.tex."""
    return sorted(
        f
        for f in rules.all.input
        if f.startswith(f"{REPORTS}/tables/")
        and f.endswith(".tex")
        and f != f"{REPORTS}/tables/all_tables.tex"
    )
