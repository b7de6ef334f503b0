"""Writing a draft: the register page, the source's stubs, the draft claim tests and the checklist.

Out of `out/` (default `drafts/<name>/`):

- `register.md`: the draft register, one row per claim, each provenance a link to its line of
  `notebook.html` (the notebook, one anchor per line, as the report's seed pages);
- `source/<name>/`: the source package as stubs (`__init__`, task, steps, sizes, organism) and
  its register rows (`register.md`, the suite's five columns);
- `claims/<name>/`: one draft test per claim, each skipped saying what is missing (the plugin
  gives the folder its source's fixtures: it needs no conftest); the module skips whole while the
  source is not registered, so a draft never breaks a run;
- `CHECKLIST.md`: what the researcher must still write, and where to move the folders.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from harness.drafting.draft import Draft, DraftClaim, code_lines
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
    """The source folder's register rows, in the suite's columns (harness/register.py)."""
    rows = [f"<!-- Source {draft.name}'s register rows, drafted from "
            f"{draft.notebook.path.name}: keep the findings, fix kinds and wording. -->", "",
            f"## Source `{draft.name}` — notebook `{draft.notebook.path.name}`, "
            f"\"{_cell(draft.title)}\"", "",
            "| id | kind | § | what | published |", "|---|---|---|---|---|"]
    for c in draft.claims:
        what = f"{c.numbers[0].name}, printed at {c.provenance}"
        rows.append(f"| {c.id} | claim | {c.section} | {_cell(what)} | {_cell(c.printed)} |")
    return "\n".join(rows) + "\n"


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _sections(draft: Draft) -> dict[str, list[DraftClaim]]:
    found: dict[str, list[DraftClaim]] = {}
    for c in draft.claims:
        found.setdefault(c.section, []).append(c)
    return found


def _step(section: str) -> str:
    return "section_" + re.sub(r"[^0-9a-z]+", "_", section.lower()).strip("_")


def _type(value: Any) -> str:
    if isinstance(value, list):
        inner = {_type(v) for v in value}
        return f"list[{inner.pop() if len(inner) == 1 else 'float'}]"
    return "int" if isinstance(value, int) and not isinstance(value, bool) else "float"


def init_stub(draft: Draft) -> str:
    """The source's declaration, with the model's loading arguments left to choose."""
    return f'''"""Draft source {draft.name}: {draft.title}.

STUB drafted by `interp-claims new` from {draft.notebook.path.name}: the model's architecture and
dtype, the task, the steps, the sizes and the organism are still to be written (CHECKLIST.md)."""
from harness.profiles import ModelSpec, ProfileName
from harness.source import Source
from harness.sources.{draft.name} import sizes

# TODO: the model class (config.json "architectures") and the dtype the notebook ran in.
ARCHITECTURE = "TODO-architecture"
DTYPE = "TODO-dtype"

SOURCE = Source(
    name={_quote(draft.name)}, package=__name__, seed_file={_quote(draft.notebook.path.name)},
    seed_sha256={_quote(draft.sha256)},
    title={_quote(draft.title)},
    models={{
        ProfileName.PUBLISHED: ModelSpec(ARCHITECTURE, DTYPE, "cuda",
                                         hf_id={_quote(draft.model.repo)},
                                         revision={_quote(draft.model.revision)}),
    }},
    sizes={{ProfileName.PUBLISHED: sizes.PUBLISHED}},
)
'''


def task_stub(draft: Draft) -> str:
    """The task module: a stub naming where the notebook builds its prompts."""
    where = code_lines(draft.notebook, r"Random\(|seed|def (prompt|question|build|make)|PROMPT")
    at = ", ".join(f"{draft.notebook.path.name}:{n}" for n in where) or "its first code cells"
    return f'''"""Draft: the task of {draft.notebook.path.name} (its prompts, problems and answers).

STUB: nothing here is written yet. The notebook builds its task at {at}."""
from __future__ import annotations


def build(sizes):
    """Every sample the experiments run, as named constants or built from `sizes`."""
    raise NotImplementedError("draft: the task is not written: the prompts, problems and answers "
                              "the notebook builds (see {at})")
'''


def steps_stub(draft: Draft) -> str:
    """One step per notebook section that printed numbers: its result dataclass, whose fields
    are the section's claims' published keys, and a function that raises until written."""
    out = [f'"""Draft: the experiment steps of {draft.notebook.path.name}, one per section that '
           "printed numbers.",
           "",
           "STUB: each step's function raises NotImplementedError naming the numbers it must "
           'measure;\nits result dataclass lists them (the draft claims read these fields)."""',
           "from __future__ import annotations", "", "from dataclasses import dataclass", "",
           "from harness.declared_steps import Step", "", ""]
    steps = []
    for section, claims in _sections(draft).items():
        step = _step(section)
        cls = "".join(w.capitalize() for w in step.split("_")) + "Result"
        out += ["@dataclass(frozen=True)", f"class {cls}:",
                f'    """What § {section} measures: the values its draft claims judge."""', ""]
        for c in claims:
            for key, value in c.published.items():
                out.append(f"    {key}: {_type(value)}  # {c.provenance}")
        lines = ", ".join(str(n) for c in claims for n in c.lines[:1])
        keys = ", ".join(c.key for c in claims[:8]) + (" …" if len(claims) > 8 else "")
        missing = (f"draft: step {step} is not written: it must measure {keys} "
                   f"(§ {section} of {draft.notebook.path.name})")
        out += ["", "", f"def {step}(model, sizes) -> {cls}:",
                f'    """§ {section}: the experiment that printed lines {lines}."""',
                f"    raise NotImplementedError({_quote(missing)})", "", ""]
        steps.append(f'    Step("{step}", {step}, ("{draft.name}_model", "{draft.name}_sizes")),')
    out += ["STEPS = (", *steps, ")", ""]
    return "\n".join(out)


def sizes_stub(draft: Draft) -> str:
    """The sizes dataclass, its published n drafted from the n's the notebook printed."""
    ns = Counter(p.reading.n for c in draft.claims for p in c.numbers if p.reading.n)
    common = ns.most_common(1)[0][0] if ns else 0
    seen = ", ".join(f"{n} ({k}×)" for n, k in ns.most_common(6)) or "none"
    return f'''"""Draft: the experiment sizes of {draft.notebook.path.name}, per profile.

STUB: only `n` is drafted, as the n the notebook printed most often (n's printed: {seen});
add the sizes its steps need (layers swept, batch sizes, token budgets)."""
from __future__ import annotations

from dataclasses import dataclass

from harness.profiles import ExperimentSizes


@dataclass(frozen=True)
class Sizes(ExperimentSizes):
    """How much each step runs."""

    n: int


PUBLISHED = Sizes(n={common})


def tiny() -> Sizes:
    """The organism's sizes."""
    raise NotImplementedError("draft: the organism's sizes are not chosen (sizes.tiny)")
'''


def organism_stub(draft: Draft) -> str:
    """The organism module: build_tokenizer, build_model and make, each raising until written."""
    return f'''"""Draft: the CPU organism for {draft.name} (a model small enough to train here).

STUB: none of it is written; see docs/adding-a-source.md for what an organism provides."""
from __future__ import annotations

from pathlib import Path


def build_tokenizer():
    """The organism's offline tokenizer."""
    raise NotImplementedError("draft: the organism's tokenizer is not written")


def build_model(tok):
    """The organism's untrained model."""
    raise NotImplementedError("draft: the organism's model is not written")


def make(root: Path) -> dict:
    """Train or compile the organism and write it under `root`; its manifest."""
    raise NotImplementedError("draft: the organism is not trained: make() is a stub")
'''


def _declaration(c: DraftClaim) -> list[str]:
    statement = c.statement.replace("{", "{{").replace("}", "}}")
    published = json.dumps(c.published, ensure_ascii=False)
    why = ("draft: the criterion is a placeholder (choose one), and " if not c.suggestion.chosen
           else "draft: ")
    missing = (f"{why}step {_step(c.section)} and a readout returning "
               f"{', '.join(c.published)} are not written")
    return [f"@claim({_quote(c.id)}, statement={_quote(statement)},",
            f"       published={published},",
            f"       provenance={_quote(c.provenance)},",
            f"       criterion={c.suggestion.criterion})",
            f"def test_{c.key}():",
            f"    # {c.suggestion.reason}",
            f"    # when written, the declaration is the test: test_{c.key} = claim(..., "
            f"reads={_quote(_step(c.section))}, readout=readouts.{c.key})",
            f"    pytest.skip({_quote(missing)})", "", ""]


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
           f'if {_quote(draft.name)} not in source_names():',
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
    sections = _sections(draft)
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
        *[f"- [ ] § {s} → `{_step(s)}`: {', '.join(c.key for c in cs[:10])}"
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
