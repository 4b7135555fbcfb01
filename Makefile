# Two commands do all the set-up on a fresh machine with Python 3.11:
#   make reproduce   paper-scale rebuild of every figure, table and claim (snakemake --cores 8)
#   make test        the whole test suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
CORES ?= 8
STAMP := $(VENV)/.installed
SNAKEMAKE_ARGS ?=

.PHONY: reproduce test smoke lint dryrun clean venv report stability config-docs tex

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[workflow,test]'
	touch $(STAMP)

reproduce: $(STAMP) tex
	$(BIN)/snakemake --cores $(CORES)

# pdflatex for the replication reports' PDFs: installed with apt (Debian, Ubuntu) when missing,
# as root or through sudo; elsewhere install a TeX distribution with pdflatex yourself.
TEX_PACKAGES := texlive-latex-base texlive-latex-recommended
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
tex:
	@command -v pdflatex > /dev/null || { \
	  echo "pdflatex missing: installing $(TEX_PACKAGES) with apt-get"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(TEX_PACKAGES); }

# The Snakemake report of the last run (figures with captions and verdicts, tables, claims):
# brings the workflow up to date first, then writes reports/report.zip (the workflow catalog's
# form: unzip it and open report.html; not tracked, ~10 MB). REPORT=reports/report.html writes
# one self-contained HTML file instead; e.g. make report SNAKEMAKE_ARGS="--configfile
# config/smoke.yaml" for the smoke run's report.
REPORT ?= reports/report.zip
report: $(STAMP) tex
	$(BIN)/snakemake --cores $(CORES) $(SNAKEMAKE_ARGS)
	$(BIN)/snakemake --report $(REPORT) $(SNAKEMAKE_ARGS)

# Every rule at a tiny scale; writes only results/smoke/ and reports/smoke/ (never the committed
# paper-scale reports/ or the README).
smoke: $(STAMP) tex
	$(BIN)/snakemake --cores 2 --configfile config/smoke.yaml

# The verdict-stability sweep (every seed-dependent check under the further root seeds of
# stability.seeds), then the default target, whose claims gain the `stability` column.
stability: $(STAMP) tex
	$(BIN)/snakemake --cores $(CORES) verdict_stability $(SNAKEMAKE_ARGS)
	$(BIN)/snakemake --cores $(CORES) $(SNAKEMAKE_ARGS)

# config/README.md (every key: type, allowed range, paper and smoke values) from the schema and
# the two configs; a test fails when it is stale.
config-docs: $(STAMP)
	$(BIN)/python -m dpbandits.workflow.config_docs

dryrun: $(STAMP)
	$(BIN)/snakemake -n --cores $(CORES)

test: $(STAMP) tex
	$(BIN)/python -m pytest -n 2 --dist loadgroup --durations=30

lint: $(STAMP)
	$(BIN)/ruff check src tests workflow/scripts benchmarks examples
	$(BIN)/snakefmt --check Snakefile workflow/rules
	$(BIN)/snakemake --lint --configfile config/smoke.yaml

clean:
	rm -rf results .snakemake logs reports/smoke
