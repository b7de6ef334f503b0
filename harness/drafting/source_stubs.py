"""A draft's source package as stubs (`interp-claims new`; harness/drafting/writing.py writes
them): its declaration, task, steps, sizes and organism, each raising where the researcher must
still write it."""
from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from harness.drafting.draft import Draft, DraftClaim, code_lines


def quoted(text: str) -> str:
    """`text` as a Python string literal in a stub."""
    return json.dumps(text, ensure_ascii=False)


def by_section(draft: Draft) -> dict[str, list[DraftClaim]]:
    """The draft's claims by the notebook section each stands in, in order."""
    found: dict[str, list[DraftClaim]] = {}
    for c in draft.claims:
        found.setdefault(c.section, []).append(c)
    return found


def step_name(section: str) -> str:
    """The draft step a section's claims read: `section_<its name in lower case>`."""
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
    name={quoted(draft.name)}, package=__name__, seed_file={quoted(draft.notebook.path.name)},
    seed_sha256={quoted(draft.sha256)},
    title={quoted(draft.title)},
    models={{
        ProfileName.PUBLISHED: ModelSpec(ARCHITECTURE, DTYPE, "cuda",
                                         hf_id={quoted(draft.model.repo)},
                                         revision={quoted(draft.model.revision)}),
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
    for section, claims in by_section(draft).items():
        step = step_name(section)
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
                f"    raise NotImplementedError({quoted(missing)})", "", ""]
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
