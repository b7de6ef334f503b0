"""A new source, added from outside the repository (registered by an entry point) or inside a
copy of it (a package under harness/sources/), then run, judged, recorded and drawn, with no edit
to any file that was there before: the shared test lists derive it from the registry
(docs/adding-a-source.md)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

# A minimal source in the shape docs/adding-a-source.md describes: its declaration, register rows,
# task, experiment, declared steps and figure, and a claims folder with no conftest, where each
# test is a declaration that names the step it reads and its readout. One anchor, which guards the
# step the claim reads, and one claim.
EXTRA_SOURCE = {
    "extra_source/__init__.py": '''
"""An extra source: vowels counted in a fixed word list (a model-free check)."""
from pathlib import Path

from harness.source import Source

SOURCE = Source(name="extra", package=__name__, seed_file="extra.txt",
                title="Counting vowels (an extra source)", models={},
                organisms_dir=Path(__file__).parent / "organisms")
''',
    "extra_source/register.md": '''
## Source `extra`: notebook `extra.txt`, "Counting vowels"

| id | kind | § | what |
|---|---|---|---|
| extra.vowel-total | measurement [cpu] | 2 | the vowels in the word list |

## Checks the suite adds

| id | added because |
|---|---|
| extra.repeatable | the count is the experiment's own machinery: made again, it must agree |
''',
    "extra_source/task.py": '''
"""The task: its sample set is a named constant."""
WORDS = ("banana", "kiwi", "fig")
''',
    "extra_source/experiments.py": '''
"""The experiment: vowels per word, and the count made again."""
from dataclasses import dataclass

from extra_source.task import WORDS


@dataclass(frozen=True)
class Vowels:
    per_word: tuple[int, ...]
    total: int


@dataclass(frozen=True)
class Recount:
    equal: bool


def count_vowels(words: tuple[str, ...] = WORDS) -> Vowels:
    per_word = tuple(sum(ch in "aeiou" for ch in w) for w in words)
    return Vowels(per_word, sum(per_word))


def recount(first: Vowels) -> Recount:
    return Recount(count_vowels() == first)
''',
    "extra_source/steps.py": '''
"""The steps, each declared once: the count, and the count made again."""
from harness.declared_steps import Step

from extra_source.experiments import count_vowels, recount

STEPS = (Step("extra_vowels", count_vowels, ()),
         Step("extra_recount", recount, ("extra_vowels",)))
''',
    "extra_source/figures.py": '''
"""The extra source's figure: vowels per word."""
from harness.plotting import MEASURED_STYLE, plt, svg
from harness.source import Figures


def per_word(entry):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.bar(range(len(entry["measured"]["per_word"])), entry["measured"]["per_word"],
           color=MEASURED_STYLE["color"])
    return svg(fig)


FIGURES = Figures(of_entry={"extra.vowel-total": per_word})
''',
    "extra_source-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: extra-source\nVersion: 0.1\n",
    "extra_source-0.1.dist-info/entry_points.txt": "[interp_claims.sources]\nextra = extra_source\n",
    "pytest.ini": "[pytest]\ntestpaths = claims\n",
    "claims/extra/__init__.py": "",
    "claims/extra/test_extra.py": '''
from harness.attribute_readout import attributes
from harness.claims import claim
from harness.criteria import Exact

test_repeatable = claim("extra.repeatable", kind="anchor", section="1", needs="cpu",
    reads="extra_recount", readout=attributes("equal"), guards=("extra_vowels",),
    statement="Counting twice gives the same counts.", published={"equal": True},
    provenance="the experiment's own machinery", criterion=Exact("equal"))

test_vowel_total = claim("extra.vowel-total", needs="cpu",
    reads="extra_vowels", readout=attributes("total", "per_word"),
    statement="The word list holds {total} vowels.", published={"total": 6},
    provenance="extra.txt, worked example", criterion=Exact("total"))
''',
}


# The same source inside the repository: its package under harness/sources/, no entry point.
IN_REPO_SOURCE = {name.replace("extra_source/", "harness/sources/extra/"):
                  text.replace("extra_source", "harness.sources.extra")
                  for name, text in EXTRA_SOURCE.items()
                  if not name.startswith(("extra_source-", "pytest.ini"))}
# What a copy of the repository needs to run a source's claims and derive the shared test lists.
REPO_PARTS = ("harness", "tests", "conftest.py", "pytest.ini", "pyproject.toml")


def write_source(root: Path, files: dict[str, str] = EXTRA_SOURCE) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.lstrip())


def copy_repository(root: Path) -> None:
    """The tracked files of REPO_PARTS, as a fresh clone has them."""
    listed = subprocess.run(["git", "ls-files", *REPO_PARTS], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    for name in listed:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes((ROOT / name).read_bytes())


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = os.environ | {"PYTHONPATH": str(cwd)}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True)


def tracked_changes() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout


def pin_judge_report(root: Path) -> dict:
    """Pin the extra source's snapshots in `root`, re-run it against them, render its report."""
    pytest_args = ["-m", "pytest", "--claims-profile=tiny", "-p", "no:cacheprovider", "claims/extra"]
    pinned = run([*pytest_args, "--snapshot-update"], root)
    judged = run(pytest_args, root)
    report = run(["-m", "harness.reporting.report", "reports/results.json"], root)
    return {"root": root, "pinned": pinned, "judged": judged, "report": report}


pytestmark = pytest.mark.meta  # two pytest processes and a report per placement: make test-meta

IN_REPO = "in repository"


@pytest.fixture(scope="module", params=["entry point", IN_REPO])
def extra_run(request, tmp_path_factory) -> dict:
    """The extra source added by an entry point, or inside a copy of this repository; then
    pinned, judged and drawn."""
    root = tmp_path_factory.mktemp("extra")
    before = tracked_changes()
    if request.param == "in repository":
        copy_repository(root)
        write_source(root, IN_REPO_SOURCE)
    else:
        write_source(root)
    return {**pin_judge_report(root), "where": request.param,
            "repo_untouched": tracked_changes() == before}


def test_the_extra_source_is_registered(extra_run):
    listed = run(["-c", "from harness.registry import registered; print(sorted(registered()))"],
                 extra_run["root"])
    assert "'extra'" in listed.stdout and "'cot'" in listed.stdout


@pytest.mark.parametrize("extra_run", [IN_REPO], indirect=True)
def test_the_shared_test_lists_derive_an_in_repo_source(extra_run):
    derived = run(["-c", "from tests.integration.test_fast_mode import RUNS; print(RUNS)"],
                  extra_run["root"])
    assert derived.returncode == 0, derived.stderr[-2000:]
    assert "'extra'" in derived.stdout


def test_its_claims_run_and_pass_against_their_own_snapshots(extra_run):
    assert extra_run["pinned"].returncode == 0, extra_run["pinned"].stdout[-3000:]
    assert extra_run["judged"].returncode == 0, extra_run["judged"].stdout[-3000:]
    pins = sorted(p.name for p in (extra_run["root"] / "snapshots" / "tiny" / "extra").iterdir())
    assert pins == ["test_repeatable.json", "test_vowel_total.json"]


def recorded(extra_run) -> dict[str, dict]:
    """The run record's entries by claim id."""
    record = json.loads((extra_run["root"] / "reports" / "results.json").read_text())
    return {e["id"]: e for e in record["tests"]}


def test_its_verdicts_are_in_the_run_record(extra_run):
    verdicts = {i: (e["verdict"], e["drift"]) for i, e in recorded(extra_run).items()}
    assert verdicts == {"extra.repeatable": ("replicated", "no drift"),
                        "extra.vowel-total": ("replicated", "no drift")}


def test_a_claim_requires_the_anchor_guarding_the_step_it_reads(extra_run):
    assert recorded(extra_run)["extra.vowel-total"]["requires"] == ["extra.repeatable"]


def test_a_registered_claim_takes_its_kind_and_section_from_its_row(extra_run):
    entry = recorded(extra_run)["extra.vowel-total"]
    assert (entry["kind"], entry["section"]) == ("measurement", "2")


def test_the_report_draws_its_section_rows_and_figure(extra_run):
    assert extra_run["report"].returncode == 0, extra_run["report"].stderr[-3000:]
    page = (extra_run["root"] / "reports" / "claims.html").read_text()
    assert "Counting vowels (an extra source)" in page
    assert 'id="claim-extra.vowel-total"' in page and 'id="claim-extra.repeatable"' in page
    assert "<svg" in page


def test_adding_it_edits_no_file_of_this_repository(extra_run):
    assert extra_run["repo_untouched"]
