"""The dicts ioi_tutorial's claims judge, read from its steps' results: each claim's declaration
names its readout (harness.claim_tests)."""
from __future__ import annotations

from typing import Any

from harness.sources.ioi_tutorial.experiments import NotebookLine, tutorial_ids
from harness.sources.ioi_tutorial import TutorialSizes
from harness.sources.patching import readouts as patching
from harness.sources.patching.experiments import Behaviour, PairIds, PairRuns, Sweep, logit_diff
from harness.sources.patching import readback
from harness.sources.patching.readback import SoloRows


def token_ids(tokenizer: Any, sizes: TutorialSizes) -> dict[str, Any]:
    """In[4]: each name's first id, and the names that are not one token."""
    pair = tutorial_ids(tokenizer, sizes)
    names = (sizes.correct, sizes.incorrect)
    return {"names": len(names), "correct_index": pair.clean_name,
            "incorrect_index": pair.corrupted_name,
            "multi_token": [n for n in names
                            if len(tokenizer(n, add_special_tokens=False).input_ids) != 1]}


def aligned_pair(tokenizer: Any, sizes: TutorialSizes) -> dict[str, Any]:
    """In[3] and In[8]: whether the pair differs at one position, in the swapped name alone."""
    pair = tutorial_ids(tokenizer, sizes)
    at = pair.differing
    swapped = {pair.clean_name, pair.corrupted_name}
    misaligned = ([f"{len(pair.clean)} vs {len(pair.corrupted)} tokens"]
                  if len(pair.clean) != len(pair.corrupted) else
                  [] if len(at) == 1 and {pair.clean[at[0]], pair.corrupted[at[0]]} == swapped
                  else [f"differs at {at}, not at one swapped name"])
    return {"pairs": 1, "positions": len(pair.clean), "differing": at, "misaligned": misaligned}


def logit_diffs(pair: PairIds, runs: PairRuns) -> dict[str, Any]:
    """In[8]: logit(correct) − logit(incorrect) after each prompt."""
    return {"clean_logit_diff": logit_diff(runs.clean, pair),
            "corrupted_logit_diff": logit_diff(runs.corrupted, pair)}


def restoring_positions(sweep: Sweep) -> dict[str, Any]:
    """In[8]'s heatmap: per layer, the position whose patch restores most; the map itself."""
    peaks = [max(range(len(row)), key=lambda p: row[p] if row[p] is not None else float("-inf"))
             for row in sweep.normalised]
    return {"peak_positions": peaks, "tokens": sweep.tokens, "normalised": sweep.normalised}


def notebook_line(line: NotebookLine) -> dict[str, Any]:
    """In[7]: the layers where the printed patch line raised, of all, and what it raised."""
    return {"raised": sum(bool(e) for e in line.errors), "layers": len(line.errors),
            "position": line.position, "errors": line.errors}


def clean_preferred(behaviour: Behaviour) -> dict[str, Any]:
    """In[7]: the tutorial pair's logit differences, read as seed 004 reads its pairs."""
    return readback.reversed_pairs({"tutorial": behaviour})


def sweep_rows(rows: SoloRows) -> dict[str, Any]:
    """In[7]: the tutorial sweep's cells re-run alone, read as seed 004 reads its sweeps."""
    return patching.sweep_rows({"tutorial": rows})
