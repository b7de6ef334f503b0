"""Writing a draft: the register page, the source's stubs, the draft claim tests and the checklist.

Out of `out/` (default `drafts/<name>/`):

- `register.md`: the draft register, one row per claim, each provenance a link to its line of
  `notebook.html` (the notebook, one anchor per line, as the report's seed pages);
- `source/<name>/`: the source package as stubs (`__init__`, task, steps, sizes, organism:
  harness/drafting/source_stubs.py) and its register rows (`register.md`, the suite's five
  columns);
- `claims/<name>/`: one draft test per claim, each skipped saying what is missing (the plugin
  gives the folder its source's fixtures: it needs no conftest); the module skips whole while the
  source is not registered, so a draft never breaks a run;
- `CHECKLIST.md`: what the researcher must still write, and where to move the folders.
"""
from __future__ import annotations

import json
from pathlib import Path

from harness.drafting.draft import Draft, DraftClaim
from harness.drafting.source_stubs import (by_section, init_stub, organism_stub, quoted,
                                            sizes_stub, step_name, steps_stub, task_stub)
from harness.reporting.seeds import page as anchored_page


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _link(draft: Draft, claim: DraftClaim, page: str) -> str:
    if not claim.numbers[0].line.line:
        return claim.provenance
    links = [f"[{draft.notebook.path.name}:{n}]({page}#L{n})" for n in claim.lines[:4]]
    more = f" … ({len(claim.lines)} lines)" if len(claim.lines) > 4 else ""
    return ", ".join(links) + more


def register_page(draft: Draft, page: str = "notebook.html") -> str:
    """The draft register: every claim with its section, printed value, linked provenance and
    suggested criterion."""
    rows = [f"# Draft register: `{draft.name}`", "",
            f"Drafted by `interp-claims new` from `{draft.notebook.path.name}` (sha256 "
            f"`{draft.sha256}`), \"{_cell(draft.title)}\", model `{draft.model.repo}` at "
            f"`{draft.model.revision}`. {len(draft.claims)} draft claims; each provenance links "
            f"to its line in [{page}]({page}). Criteria marked *choose* are placeholders "
            "(CHECKLIST.md).", "",
            "| id | kind | § | what | published | provenance | suggested criterion |",
            "|---|---|---|---|---|---|---|"]
    for c in draft.claims:
        criterion = f"`{c.suggestion.criterion}` — {c.suggestion.reason}"
        if not c.suggestion.chosen:
            criterion = "*choose* " + criterion
        what = f"{c.numbers[0].name} ({c.origin}): {c.numbers[0].context}"
        rows.append(f"| {c.id} | claim | {c.section} | {_cell(what)} | {_cell(c.printed)} | "
                    f"{_link(draft, c, page)} | {_cell(criterion)} |")
    return "\n".join(rows) + "\n"


def source_register(draft: Draft) -> str:
    """The source folder's register rows, in the suite's columns (harness/register.py): no
    published column, for each draft claim declares its values."""
    rows = [f"<!-- Source {draft.name}'s register rows, drafted from "
            f"{draft.notebook.path.name}: keep the findings, fix kinds and wording. -->", "",
            f"## Source `{draft.name}` — notebook `{draft.notebook.path.name}`, "
            f"\"{_cell(draft.title)}\"", "",
            "| id | kind | § | what |", "|---|---|---|---|"]
    for c in draft.claims:
        what = f"{c.numbers[0].name}, printed at {c.provenance}"
        rows.append(f"| {c.id} | claim | {c.section} | {_cell(what)} |")
    return "\n".join(rows) + "\n"


def _declaration(c: DraftClaim) -> list[str]:
    statement = c.statement.replace("{", "{{").replace("}", "}}")
    published = json.dumps(c.published, ensure_ascii=False)
    why = ("draft: the criterion is a placeholder (choose one), and " if not c.suggestion.chosen
           else "draft: ")
    missing = (f"{why}step {step_name(c.section)} and a readout returning "
               f"{', '.join(c.published)} are not written")
    return [f"@claim({quoted(c.id)}, statement={quoted(statement)},",
            f"       published={published},",
            f"       provenance={quoted(c.provenance)},",
            f"       criterion={c.suggestion.criterion})",
            f"def test_{c.key}():",
            f"    # {c.suggestion.reason}",
            f"    # when written, the declaration is the test: test_{c.key} = claim(..., "
            f"reads={quoted(step_name(c.section))}, readout=readouts.{c.key})",
            f"    pytest.skip({quoted(missing)})", "", ""]


def claims_stub(draft: Draft) -> str:
    """One draft claim test per draft claim, each skipped saying what is missing."""
    names = sorted({n for c in draft.claims for n in c.suggestion.names})
    out = [f'"""Draft claims of {draft.name}, one per number {draft.notebook.path.name} printed '
           "(drafted by `interp-claims new`).",
           "",
           "Each test skips, naming what is missing, until its step and readout are written; the "
           "module\nskips whole while the source is not registered."
           '"""', "from __future__ import annotations", "", "import pytest", "",
           "from harness.claims import claim",
           f"from harness.criteria import {', '.join(names)}" if names else "",
           "from harness.registry import source_names", "",
           f'if {quoted(draft.name)} not in source_names():',
           f'    pytest.skip("draft: source {draft.name!r} is not registered yet: move '
           f'source/{draft.name} to harness/sources/{draft.name}", allow_module_level=True)',
           "", ""]
    for c in draft.claims:
        out += _declaration(c)
    return "\n".join(out).rstrip() + "\n"


def checklist(draft: Draft) -> str:
    """What the researcher must still write, in order, and where each drafted file goes."""
    name, nb = draft.name, draft.notebook.path.name
    chosen = sum(c.suggestion.chosen for c in draft.claims)
    prose = [c for c in draft.claims if c.origin == "prose"]
    series = [c for c in draft.claims if len(c.numbers) > 1]
    sections = by_section(draft)
    items = [
        f"# Checklist: source `{name}`", "",
        f"Drafted from `{nb}` (sha256 `{draft.sha256}`) for `{draft.model.repo}` at "
        f"`{draft.model.revision}`: {len(draft.claims)} draft claims, "
        f"{sum(len(c.numbers) for c in draft.claims)} numbers, {len(sections)} sections. "
        "Everything under `source/` is a STUB that raises NotImplementedError naming what is "
        "missing; every draft test skips saying what is missing.", "",
        *(["**The notebook printed no numbers**: nothing could be drafted from its output; write "
           "its claims from what its text states, by hand.", ""] if not draft.claims else []),
        "## The source", "",
        f"- [ ] `source/{name}/__init__.py`: the model's architecture class and dtype "
        "(`ARCHITECTURE`, `DTYPE` are TODO); the organism's profile (`ProfileName.TINY`) once "
        "it exists.",
        f"- [ ] `source/{name}/task.py` (STUB): the prompts, problems and answers, reproduced "
        "exactly (seeds, templates, tokenisation).",
        f"- [ ] `source/{name}/steps.py` (STUB): one step per section below; each returns its "
        "frozen result dataclass (the fields are the draft claims' published keys).",
        f"- [ ] `source/{name}/sizes.py` (STUB): the sizes the steps need; `n` is drafted from "
        "the printed n's only.",
        f"- [ ] `source/{name}/organism.py` (STUB): a CPU organism (build_tokenizer, "
        "build_model, make).",
        f"- [ ] `source/{name}/readouts.py` (not drafted): one function per kept claim, "
        "returning its published keys from its step's result.",
        f"- [ ] `source/{name}/register.md`: keep the rows that are findings, set each kind "
        "(anchor, claim, measurement) and mark ([cpu], [tok]); list each check you add that "
        "no row carries (an anchor, a fire-once check) in a table headed `| id | added "
        "because |`, with its reason.", "",
        "## The claims", "",
        f"- [ ] Prune: {len(draft.claims)} draft claims is one per printed number or series; "
        "keep the findings and the anchors, delete the rest (loop indices, echoed inputs).",
        f"- [ ] Criteria: {chosen} suggested from the printed form (rate with n, interval, peak "
        f"layer); {len(draft.claims) - chosen} are `Recorded()` placeholders marked *choose* in "
        "register.md.",
        f"- [ ] Series: {len(series)} claims hold a list (one print in a loop, or a table column):"
        " decide whether each is one claim or several.",
        f"- [ ] Prose: {len(prose)} claims are results the text states but no output printed; "
        "check each is this notebook's finding, not a cited paper's.",
        "- [ ] Kinds and needs: every draft row's kind is `claim` (needs the published model); "
        "a claim reads its kind and section from its row in `source/<name>/register.md`, so "
        "change them there; anchors also name the steps they check (`guards=`), which the "
        "claims reading them require.",
        "",
        "## Sections and their steps", "",
        *[f"- [ ] § {s} → `{step_name(s)}`: {', '.join(c.key for c in cs[:10])}"
          + (" …" if len(cs) > 10 else "") for s, cs in sections.items()], "",
        "## Moving the draft into the suite", "",
        f"- [ ] `source/{name}/` → `harness/sources/{name}/` (the registry then finds it).",
        f"- [ ] `claims/{name}/` → `claims/{name}/`; the module-level skip lifts once the "
        "source is registered; replace each test's skip with its `judge(...)` call.",
        f"- [ ] The notebook's text: `{nb}` where the suite reads seeds, pinned by "
        "`seed_sha256`.",
        "- [ ] Snapshots: run the organism profile with `--snapshot-update` once the steps run.",
    ]
    return "\n".join(items) + "\n"


def notebook_page(draft: Draft) -> str:
    """The notebook's file, one anchor per line (the report's seed page)."""
    return anchored_page(draft.notebook.path.name,
                         draft.notebook.path.read_text(encoding="utf-8"))


def write_draft(draft: Draft, out: Path, force: bool = False) -> list[Path]:
    """Write the draft under `out`; the files written. Refuses a folder that holds files,
    unless `force`."""
    out = Path(out)
    if out.exists() and any(out.iterdir()) and not force:
        raise FileExistsError(f"{out} is not empty (--force writes over it)")
    name = draft.name
    files = {
        "register.md": register_page(draft),
        "notebook.html": notebook_page(draft),
        "CHECKLIST.md": checklist(draft),
        f"source/{name}/__init__.py": init_stub(draft),
        f"source/{name}/task.py": task_stub(draft),
        f"source/{name}/steps.py": steps_stub(draft),
        f"source/{name}/sizes.py": sizes_stub(draft),
        f"source/{name}/organism.py": organism_stub(draft),
        f"source/{name}/register.md": source_register(draft),
        f"claims/{name}/__init__.py": "",
        f"claims/{name}/test_{name}.py": claims_stub(draft),
    }
    written = []
    for relative, text in files.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
