# The two commands of the README. Both set up .venv from scratch when it is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test replicate setup report clean gpu-rehearsal

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

setup: $(STAMP)

# The suite's own tests and every claim on the tiny profile (CPU organisms); then the published
# tokenizer checks (`hub`) against whatever Hugging Face cache HF_HOME names, offline: each skips
# with its reason where the cache lacks its files; then the published-shape rehearsal on CPU.
test: $(STAMP)
	$(PY) -m pytest --profile=tiny -n 2 -m "not slow" -p no:cacheprovider
	HF_HUB_OFFLINE=1 $(PY) -m pytest --profile=published -m hub claims -p no:cacheprovider \
	  --results=reports/hub/results.json
	$(PY) -m harness.rehearsal --device cpu --out reports/rehearsal.json

# The published code path at full size on CUDA, on seeded random weights (no hub needed; the
# published configs and tokenizers come from HF_HOME or ../shared/hf-cache). SOURCES="cot heads"
# runs just those. Writes time and peak GPU memory per source and test to reports/.
gpu-rehearsal: $(STAMP)
	$(PY) -m harness.rehearsal --device cuda --out reports/gpu-rehearsal.json \
	  $(if $(SOURCES),--sources $(SOURCES))

# The claims on the best profile this machine has (published with CUDA, else tiny).
replicate: $(STAMP)
	$(PY) -m pytest claims -p no:cacheprovider; status=$$?; \
	  if [ $$status -eq 5 ]; then echo "no claim tests were collected"; status=0; fi; \
	  $(PY) -m harness.report reports/results.json; exit $$status

report: $(STAMP)
	$(PY) -m harness.report reports/results.json

clean:
	rm -rf $(VENV) reports/results.json reports/claims.html reports/history
