# One entry point for readers, contributors and CI.
#   make serve   set up, then serve the course on http://127.0.0.1:8000
#   make test    set up, then run every test (unit tests, every page's code blocks, the strict build)
#   make build   set up, then build the static site into site/ (SITE_DIR=..., SITE_URL=... to change)
#   make bench   set up, then print speed ratios measured side by side

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SITE_DIR ?= site

# The corpora: ../shared/data when it exists (developers and CI), else the package's own cache.
ifneq ($(wildcard ../shared/data/SHA256SUMS),)
export MINIGPT_DATA ?= $(abspath ../shared/data)
endif
export NO_MKDOCS_2_WARNING := 1
export PYTHONHASHSEED := 0

.PHONY: setup serve build test bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[docs,test]'
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8000

build: $(STAMP)
	$(BIN)/mkdocs build --strict --site-dir $(SITE_DIR)

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/minigpt bench

clean:
	rm -rf site $(VENV)
