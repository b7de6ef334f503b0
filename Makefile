# The two commands of the README. Both set up .venv from scratch when it is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# The suite's one command (the interp-claims console script), run as a module so that it works
# where nothing is installed too; every target below that runs a tool of the suite calls it.
CLI := $(PY) -m harness.cli
# The locked environment: every package pinned with its sha256, one lock per platform and Python
# (harness/lock.py lists them). requirements.lock (Linux x86-64, Python 3.11) has torch's CPU build
# and names PyTorch's CPU index, its source, at its top; requirements-cuda.lock has PyPI's
# CUDA build of the same torch; locks/ the other platforms and Pythons. Each command installs the
# one this machine needs (`python3 -m harness.lock` says which, and names the supported platforms
# where none fits): the CUDA lock where an NVIDIA driver lists a GPU, the CPU lock elsewhere;
# `make setup LOCK=...` chooses. An index the lock names that does not answer is left out of the
# install (`harness.lock_index.pip_file`): pip would retry it for every package. `harness.install`
# installs each lock with the pinned uv of requirements-uv.lock (into .uv-tool/, hashes checked),
# from the sources pip is configured with, and with pip where uv cannot (uv is several times
# faster: pip spends most of its time unpacking torch). The stamp names its lock, so another lock re-creates .venv;
# the run record names the lock and its sha256.
ifeq ($(origin LOCK),undefined)
LOCK := $(shell $(PYTHON) -m harness.cli lock)
endif
STAMP := $(VENV)/.installed-$(subst /,-,$(LOCK))
LOCK_TOOLS := .lock-tools
PIP_TOOLS := pip-tools==7.6.2
UV := uv==0.13.9
CANARY := .canary
# The linter, in a venv of its own from its own hashed lock (requirements-lint.in names it), so the
# locked test environment stays as it is.
LINT := .lint
LINT_STAMP := $(LINT)/.installed-requirements-lint.lock

# Python caches compiled and assertion-rewritten modules in __pycache__/ (git ignores them) even
# where the environment sets PYTHONDONTWRITEBYTECODE: make test starts about twenty Python
# processes (the rehearsal's sources, the hub tier, the xdist workers, the plugin's own pytest
# runs), and each after the first then reads the suite's modules instead of compiling them again.
# The install compiles nothing (uv does not, pip is given --no-compile): the modules a run imports
# are compiled by its first process, a small part of the ~26 s pip spends compiling every
# installed module (torch's most).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: test test-meta test-slow mutate replicate setup report clean gpu-rehearsal lock canary plan bench wheelhouse

$(STAMP): $(LOCK) pyproject.toml
	@test -n "$(LOCK)" || { echo "no lock fits this machine (see above); make setup LOCK=<file>" >&2; exit 2; }
	$(PYTHON) -m venv --clear $(VENV)
	$(PYTHON) -m harness.cli install $(LOCK) $(VENV) --editable .
	$(PY) -c "import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest(), sys.argv[1])" \
	  $(LOCK) > $(VENV)/interp-claims-lock.sha256
	touch $(STAMP)

setup: $(STAMP)

$(LINT_STAMP): requirements-lint.lock
	$(PYTHON) -m venv --clear $(LINT)
	$(PYTHON) -m harness.cli install requirements-lint.lock $(LINT)
	touch $(LINT_STAMP)

# `make test`: ruff (pyproject.toml's rules), then three timed tiers (reports/tiers.json, checked against their budgets at the end,
# failing past twice a budget): the published-shape rehearsal on CPU, and beside it (one process
# sharing the two cores with the rehearsal's lanes; its output shown when both end) the published tokenizer
# checks (`hub`) against whatever Hugging Face cache HF_HOME names, offline (each skips with its
# reason where the cache lacks its files); then the suite's own tests and every claim on the tiny
# profile (CPU organisms), less the `meta` tests, whose rehearsal and hub tests read the two
# records before it rather than run them again.
test: $(STAMP) $(LINT_STAMP)
	$(LINT)/bin/ruff check .
	@$(CLI) budget reset
	@mkdir -p reports/hub
	HF_HUB_OFFLINE=1 $(CLI) budget time hub -- $(PY) -m pytest --claims-profile=published \
	  -m hub claims -p no:cacheprovider --results=reports/hub/results.json \
	  > reports/hub/log.txt 2>&1 & hub=$$!; \
	$(CLI) budget time rehearsal -- $(CLI) rehearse --device cpu --audit none \
	  --out reports/rehearsal.json; rehearsal=$$?; \
	wait $$hub; hub=$$?; cat reports/hub/log.txt; test $$rehearsal = 0 && test $$hub = 0
	INTERP_CLAIMS_REHEARSAL=reports/rehearsal.json INTERP_CLAIMS_HUB=reports/hub/results.json \
	  $(CLI) budget time tiny -- \
	  $(PY) -m pytest --claims-profile=tiny -n 2 -m "not slow and not meta" -p no:cacheprovider
	$(CLI) budget check

# The checks that re-run whole families or pytest itself to test a mechanism (fast mode equals
# faithful, the NDIF simulation equals local, the default CPU kernels give the same verdicts, a
# split run equals an unsplit one: paired runs on the micro profile, sharing one faithful run;
# the organisms' competence, reading what the tiny tier's claims measured where it is the same
# number; the CPU rehearsal under the device audit, the CUDA rehearsal's dry run; every test that
# starts a process of its own, tests/test_tiers.py checks): CI runs them after `make test`.
# The `quiet` ones time something (the benchmark's A/A agreement): they run after, one process, so
# no other test shares the two cores with them.
test-meta: $(STAMP)
	INTERP_CLAIMS_TINY=reports/results.json $(CLI) budget time meta -- \
	  $(PY) -m pytest --claims-profile=tiny -n 2 -m "meta and not quiet" -p no:cacheprovider
	$(PY) -m pytest --claims-profile=tiny -n 0 -m "meta and quiet" -p no:cacheprovider

# Mutation testing of the judging core (issue 45): mutmut mutates each module pyproject.toml's
# [tool.mutmut] names (criteria, verdicts, snapshots, the catalogue's derived anchor checks, claims,
# register values, blocking, judging, record, nightly, report) and runs the unit tests that reach
# each mutant; at least 95% of each module's mutants must fail a test, and every survivor must be
# listed with its reason in tests/mutation/equivalent.toml. Scores: reports/mutation.json. mutmut
# comes from its own hashed lock, installed into .venv on top of the test lock (whose pins it
# shares). CI runs it last.
MUTATE_STAMP := $(VENV)/.installed-requirements-mutate.lock
$(MUTATE_STAMP): $(STAMP) requirements-mutate.lock
	$(PY) -m pip install --quiet --no-deps --require-hashes -r requirements-mutate.lock
	touch $(MUTATE_STAMP)

mutate: $(MUTATE_STAMP)
	$(CLI) budget time mutate -- $(CLI) mutate

# The organisms re-trained from their recipes (about 20 minutes on 2 cores: cot and patching are
# trained, heads and lookback compiled): bit-identical under the ATen CPU capability and MKL branch
# each manifest records, where this CPU has it and the manifest records the branch, and as
# competent on any CPU. The nightly's CPU job runs it.
test-slow: $(STAMP)
	$(CLI) budget time slow -- \
	  $(PY) -m pytest --claims-profile=tiny -m slow -p no:cacheprovider tests/integration/test_organisms.py

# The published code path at full size on CUDA, on seeded random weights drawn on the GPU (no hub
# needed; the published configs and tokenizers come from HF_HOME or ../shared/hf-cache, never their
# weight shards). SOURCES="cot heads" runs just those. Each source runs in fast mode, then faithful,
# at the published sizes with every decode step capped (the full-size time extrapolated and
# labelled so), each mode within a budget of its own that the build does not count; then a short
# device-audit pass. Writes time, peak GPU memory and tokens/s per source, mode and test to
# reports/gpu-rehearsal.json. `interp-claims rehearse --dry-run-of cuda` runs the same path on
# the CPU, narrowed (make test-meta does, on every source, and on patching through
# `make gpu-rehearsal OFFLINE=1` in its simulated offline machine).
#
# OFFLINE=1: on a borrowed machine that brings its own Python and CUDA torch and has no package
# index, no .venv: the machine's $(PYTHON) runs it all. harness.offline installs, into
# $(OFFLINE_SITE) (pip --target, put on PYTHONPATH; the machine's python3 is itself a venv's, whose
# --system-site-packages would see its base Python's packages, not its torch), what the machine
# lacks from $(WHEELHOUSE)/ (no index, no dependencies, hashes checked against the CUDA lock);
# then checks that everything the suite needs imports (exit 2 naming what is absent), records the
# versions that ran in $(OFFLINE_RECORD), and rehearses with the plugin loaded through
# PYTEST_PLUGINS. GPU_REHEARSAL_ARGS replaces --device cuda (the meta test's dry run).
WHEELHOUSE ?= wheelhouse
OFFLINE_SITE ?= .offline/site
OFFLINE_RECORD ?= reports/offline-environment.json
GPU_REHEARSAL_ARGS ?= --device cuda --out reports/gpu-rehearsal.json
OFFLINE_ENV = PYTHONPATH=$(CURDIR):$(abspath $(OFFLINE_SITE))$(if $(PYTHONPATH),:$(PYTHONPATH)) \
  PYTEST_PLUGINS=harness.plugin
gpu-rehearsal: $(if $(filter 1,$(OFFLINE)),,$(STAMP))
ifeq ($(OFFLINE),1)
	$(PYTHON) -m harness.cli offline install --wheelhouse $(WHEELHOUSE) --target $(OFFLINE_SITE)
	$(OFFLINE_ENV) $(PYTHON) -m harness.cli offline check
	$(OFFLINE_ENV) $(PYTHON) -m harness.cli offline versions --out $(OFFLINE_RECORD)
	$(OFFLINE_ENV) $(PYTHON) -m harness.cli rehearse $(GPU_REHEARSAL_ARGS) $(if $(SOURCES),--sources $(SOURCES))
else
	$(CLI) rehearse $(GPU_REHEARSAL_ARGS) $(if $(SOURCES),--sources $(SOURCES))
endif

# The wheels an offline GPU machine lacks (`make gpu-rehearsal OFFLINE=1`), on a machine with
# network: exactly harness.offline_packages' WHEELHOUSE (nnsight, syrupy and what they need that the
# machine has not) at requirements-cuda.lock's pins, for the machine's Python (PY=3.12, its
# default; PY names a version here, not an interpreter), each sha256 checked against the lock.
# Prints each wheel and the total; carry $(WHEELHOUSE)/ with the repository.
wheelhouse:
	$(PYTHON) -m harness.cli offline wheelhouse --dest $(WHEELHOUSE) \
	  $(if $(filter command line,$(origin PY)),--python-version $(PY))

# The claims with each source on the best model this machine runs: its published model where the
# device and the weights allow (GPT-2 on any CPU with its weights cached or the hub reachable), else
# its organism; one record (reports/results.json) and one page saying which model each ran on.
replicate: $(STAMP)
	$(CLI) replicate

# Re-resolve the locks after pyproject.toml changed, keeping the pins that still fit;
# `make lock UPGRADE=1` moves every pin to the newest release. Network: PyPI for all;
# requirements.lock takes torch's CPU build from PyTorch's CPU index where it answers, else from the
# index or find-links pip is configured with (here: this machine's wheels), and fails if neither has
# it; requirements-cuda.lock is resolved against PyPI alone. Then `harness.lock compile` writes
# requirements.lock's index line and resolves locks/ with uv for each platform and Python,
# constrained to those two locks' pins: the CUDA and macOS locks from PyPI, the Linux CPU ones
# (locks/linux-<machine>-py<version>.lock) with PyTorch's CPU index too, and only where it answers.
PIP_COMPILE = $(LOCK_TOOLS)/bin/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras \
  --no-reuse-hashes --no-emit-find-links --no-emit-index-url $(if $(UPGRADE),--upgrade)
lock:
	$(PYTHON) -m venv $(LOCK_TOOLS)
	$(LOCK_TOOLS)/bin/pip install --quiet $(PIP_TOOLS) $(UV)
	$(PIP_COMPILE) $$($(PYTHON) -m harness.cli lock index-option) --extra test -o requirements.lock pyproject.toml
	env -u PIP_FIND_LINKS -u PIP_EXTRA_INDEX_URL PIP_CONFIG_FILE=/dev/null \
	  $(PIP_COMPILE) --extra test -o requirements-cuda.lock pyproject.toml
	$(PIP_COMPILE) -o requirements-lint.lock requirements-lint.in
	$(PIP_COMPILE) -o requirements-uv.lock requirements-uv.in
	grep -E '^[A-Za-z0-9_.-]+==' requirements.lock | cut -d' ' -f1 > $(LOCK_TOOLS)/test-pins.txt
	env -u PIP_FIND_LINKS -u PIP_EXTRA_INDEX_URL PIP_CONFIG_FILE=/dev/null \
	  $(PIP_COMPILE) -c $(LOCK_TOOLS)/test-pins.txt -o requirements-mutate.lock requirements-mutate.in
	$(PYTHON) -m harness.cli lock compile --uv $(LOCK_TOOLS)/bin/uv $(if $(UPGRADE),--upgrade)

# Upgrade canary: the tiny profile in the locked environment (reports/results.json) and in .canary/
# with the newest release of every dependency (pyproject.toml's names, not its ranges, not the
# lock), compared by harness.reporting.canary into reports/canary.json. torch stays at the locked version:
# PyPI serves newer torch for Linux only as CUDA builds (GBs of nvidia-* wheels). Not part of `make test`.
CANARY_PYTEST = -m pytest --claims-profile=tiny claims -p no:cacheprovider -q
canary: $(STAMP)
	@start=$$(date +%s); set -e; \
	$(PYTHON) -m venv --clear $(CANARY); \
	$(CANARY)/bin/python -m pip install --quiet --upgrade pip; \
	torch=$$(grep -E '^torch==' $(LOCK) | cut -d' ' -f1); \
	deps=$$($(PY) -c "import re, tomllib; print(' '.join(re.split(r'[<>=!~ ;\[]', d)[0] for d in tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies'] if not d.startswith('torch')))"); \
	$(CANARY)/bin/python -m pip install --quiet --upgrade "$$torch" $$deps; \
	$(CANARY)/bin/python -m pip install --quiet --no-deps --no-build-isolation -e . || \
	  $(CANARY)/bin/python -m pip install --quiet --no-deps -e .; \
	mkdir -p reports/canary; \
	$(CANARY)/bin/python -m pip freeze --all --exclude-editable > reports/canary/packages.txt; \
	set +e; \
	$(PY) $(CANARY_PYTEST) --results=reports/results.json; \
	$(CANARY)/bin/python $(CANARY_PYTEST) --results=reports/canary/results.json; \
	set -e; \
	$(CLI) canary --locked reports/results.json --canary reports/canary/results.json \
	  --locked-packages $(LOCK) --canary-packages reports/canary/packages.txt \
	  --note "torch kept at the locked $$torch: newer torch on PyPI for Linux is a CUDA build only (GBs of nvidia-* wheels)" \
	  --wall-s $$(( $$(date +%s) - start )); \
	$(CLI) report reports/results.json

# The cost plan: each source's and claim's model work and estimated GPU time, in both modes, for
# the published and the tiny profile; loads configs and tokenizers (HF_HOME, else
# ../shared/hf-cache), no weights. PLAN_GPU=A6000 prices it on another GPU; PLAN_GPUS=4 sets the
# GPUs its several-GPU figures assume (else --plan-gpus's default).
PLAN_GPU ?= H200
PLAN_ARGS = --plan-gpu=$(PLAN_GPU) $(if $(PLAN_GPUS),--plan-gpus=$(PLAN_GPUS))
plan: $(STAMP)
	HF_HUB_OFFLINE=1 $(CLI) plan $(PLAN_ARGS) --claims-profile=published
	$(CLI) plan $(PLAN_ARGS) --claims-profile=tiny

# Speed ratios on the CPU organisms, measured side by side (reports/bench.json); asserts nothing.
bench: $(STAMP)
	$(CLI) bench --out reports/bench.json

report: $(STAMP)
	$(CLI) report reports/results.json

# Everything the runs wrote under reports/ (all but its README), the environments and caches.
clean:
	rm -rf $(VENV) $(CANARY) $(LOCK_TOOLS) $(LINT) .uv-tool .offline mutants
	find reports -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf {} +
	find . -name __pycache__ -type d -not -path "./.venv/*" -prune -exec rm -rf {} +
