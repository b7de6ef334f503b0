"""`interp-claims replicate` without network (issue 48): with a Hugging Face cache holding GPT-2's
published config and tokenizer and seeded random weights at the pinned revision, the two GPT-2
sources run the published path on the CPU and the others their organisms; the record and page
say which per source."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from harness.models.resources import snapshot_dir
from harness.registry import get_profile
from harness.rehearsal.build import build_model
from tests.paths import ROOT, SHARED_CACHE

pytestmark = pytest.mark.meta  # builds GPT-2 and runs pytest twice: make test-meta

GPT2 = get_profile("published").models["patching"]
ORGANISM = "heads"  # one source on its organism, its catalogue left out (-k) for time
# Findings whose published values only a model doing the IOI task gives (patching.layer-flip, a
# sign, random weights pass about half the time: its decisions say so).
NEED_THE_TASK = ("ioi_tutorial.clean-logit-diff", "ioi_tutorial.corrupted-logit-diff",
                 "patching.minimal-pair-behaviour")


@pytest.fixture(scope="module")
def replicated(tmp_path_factory):
    if not (snapshot_dir(SHARED_CACHE, GPT2) / "config.json").is_file():
        pytest.skip(f"GPT-2's published config is not in {SHARED_CACHE}")
    home = tmp_path_factory.mktemp("gpt2-cache")
    build_model(SHARED_CACHE, home, GPT2, full_size=True)
    reports = tmp_path_factory.mktemp("reports")
    env = {**os.environ, "HF_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    env.pop("HF_HUB_CACHE", None)
    proc = subprocess.run(
        [sys.executable, "-m", "harness.cli", "replicate", "--reports", str(reports),
         "--sources", "patching", "ioi_tutorial", ORGANISM, "--", "-k", "not breakages_caught"],
        cwd=ROOT, env=env, capture_output=True, text=True)
    return proc, json.loads((reports / "results.json").read_text()), reports


def test_the_gpt2_sources_run_published_and_the_other_its_organism(replicated):
    _, record, _ = replicated
    chosen = {name: c["profile"] for name, c in record["environment"]["sources"].items()}
    assert chosen == {"patching": "published", "ioi_tutorial": "published", ORGANISM: "tiny"}
    assert "no CUDA device" in record["environment"]["sources"][ORGANISM]["why"]
    assert record["environment"]["models"]["patching"]["hf_id"] == GPT2.hf_id


def test_every_source_ran_and_no_test_errored(replicated):
    proc, record, _ = replicated
    assert {t["source"] for t in record["tests"]} == {"patching", "ioi_tutorial", ORGANISM}
    errors = [f"{t['id']}: {t['message']}" for t in record["tests"] if t["verdict"] == "error"]
    assert errors == [], proc.stdout[-3000:]


def test_the_gpt2_findings_are_judged_against_their_published_values(replicated):
    _, record, _ = replicated
    judged = {t["id"]: t["verdict"] for t in record["tests"]
              if t["source"] in ("patching", "ioi_tutorial") and t["kind"] != "anchor"
              and t["published"]}
    assert judged and set(judged.values()) <= {"replicated", "not replicated", "inconclusive"}


def test_the_findings_that_need_the_ioi_behaviour_are_not_replicated_on_random_weights(replicated):
    _, record, _ = replicated
    verdicts = {t["id"]: t["verdict"] for t in record["tests"]}
    assert [verdicts[i] for i in NEED_THE_TASK] == ["not replicated"] * len(NEED_THE_TASK)


def test_the_organisms_findings_read_no_published_verdict(replicated):
    _, record, _ = replicated
    organism = {t["verdict"] for t in record["tests"] if t["source"] == ORGANISM
                and t["kind"] != "anchor"}
    assert organism and not organism & {"replicated", "not replicated", "inconclusive"}


def test_the_page_says_which_model_each_source_ran_on(replicated):
    _, _, reports = replicated
    page = (reports / "claims.html").read_text()
    assert 'id="ran-on-patching"' in page and 'id="ran-on-heads"' in page
    assert "Ran on: " + GPT2.label + " (published profile)" in page
