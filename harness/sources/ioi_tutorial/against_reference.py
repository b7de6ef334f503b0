"""The tutorial's studies against its plain reference (issue 49; harness/sources/ioi_tutorial/
reference.py): the pair's behaviour and printed differences, and the heatmap's cells."""
from __future__ import annotations

from typing import Any

from harness.reference import Comparison, compare
from harness.sources.ioi_tutorial import TutorialSizes, reference
from harness.sources.ioi_tutorial.readouts import logit_diffs
from harness.sources.patching.against_reference import behaviour_rows, sweep_against
from harness.sources.patching.experiments import Behaviour, PairIds, PairRuns, Sweep


def tutorial(model: Any, sizes: TutorialSizes) -> reference.Tutorial:
    """The reference's run of the profile's pair."""
    return reference.Tutorial(model, sizes.clean, sizes.corrupted, sizes.correct, sizes.incorrect)


def behaviour(model: Any, sizes: TutorialSizes, tutorial_pair: PairIds, tutorial_runs: PairRuns,
              tutorial_behaviour: Behaviour) -> Comparison:
    """In[8]: each run's top token and recorded difference, and the differences the printed
    claims read, against the reference's, exactly."""
    printed = logit_diffs(tutorial_pair, tutorial_runs)
    found = {**behaviour_rows(tutorial_behaviour), "clean printed": printed["clean_logit_diff"],
             "corrupted printed": printed["corrupted_logit_diff"]}
    return compare("tutorial_behaviour", found, reference.behaviour(tutorial(model, sizes)))


def sweep(model: Any, sizes: TutorialSizes, tutorial_sweep: Sweep) -> dict[str, Comparison]:
    """In[7]-In[8]: the heatmap, in the mode under test, against the reference's cells."""
    return sweep_against("tutorial_sweep", tutorial_sweep, reference.heatmap(tutorial(model, sizes)))
