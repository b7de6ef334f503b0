"""harness.interventions: one declaration gives each derived anchor's step, and each derived
check runs the declared run (or its own-values run) through its engine."""
from __future__ import annotations

import pytest
import torch
from transformers import GPT2LMHeadModel

from harness.fire_once import NEEDS_LOCAL_WEIGHTS
from harness import interventions
from harness.interventions import Intervention, fires, identity, rows_alone, steps
from harness.replay import Site
from tests.unit.small_models import gpt2

IDS = torch.tensor([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]], device="cpu")


@pytest.fixture(scope="module")
def model() -> GPT2LMHeadModel:
    return gpt2()


def declare(model: GPT2LMHeadModel, value: float | None) -> Intervention:
    """Block 0, row 1, position 2 written with `value` everywhere (None: its own value)."""
    def run() -> None:
        def hook(module, args, output):
            out = output.clone()
            if value is not None:
                out[1, 2] = value
            return out

        handle = model.transformer.h[0].register_forward_hook(hook, prepend=True)
        try:
            model(input_ids=IDS)
        finally:
            handle.remove()

    def sites(refs):
        held = refs[0].value(0, [1], [2])
        return [Site(0, 0, (1,), (2,), held if value is None else torch.full_like(held, value))]

    return Intervention(model, run, sites)


def test_steps_declare_the_intervention_then_each_derived_check():
    found = steps("seed_sweep", lambda: None, ("model", "pair"), ("fires", "identity",
                                                                  "rows_alone"), batched=True)
    assert [s.name for s in found] == ["seed_sweep_writes", "seed_sweep_fires",
                                       "seed_sweep_identity", "seed_sweep_rows_alone"]
    assert found[0].inputs == ("model", "pair") and found[0].batched
    assert all(s.inputs == ("seed_sweep_writes",) and not s.batched for s in found[1:])
    assert {s.local_weights for s in found} == {NEEDS_LOCAL_WEIGHTS}


def test_steps_run_the_declaration_then_each_derived_check_unbatched_unless_told():
    def declare():
        return None

    found = steps("seed_sweep", declare, (), ("fires", "identity", "rows_alone"))
    assert [s.run for s in found] == [declare, fires, identity, rows_alone]
    assert not found[0].batched


def test_steps_pass_what_is_given_to_the_declaration():
    found = steps("lookback_same_position", lambda: None, ("run",), ("identity",),
                  given=("same position",))
    assert found[0].given == ("same position",) and found[1].given == ()


@pytest.mark.parametrize("derived", [(), ("fires", "rows")])
def test_steps_refuse_no_check_or_an_unknown_one(derived):
    with pytest.raises(ValueError, match="derived checks"):
        steps("seed_sweep", lambda: None, (), derived)


def test_fires_checks_the_declared_run(model):
    assert fires(declare(model, 3.0)).failures == []
    assert not fires(declare(model, None)).site_holds_value  # its value is already there


def test_fires_checks_each_declared_part_by_its_name(model):
    found = fires({"writes": declare(model, 3.0), "already there": declare(model, None)})
    assert found["writes"].failures == [] and not found["already there"].site_holds_value


def test_identity_checks_the_own_values_run(model):
    declared = Intervention(model, lambda: None, lambda refs: [], own=declare(model, None))
    result = identity(declared)
    assert (result.own_values, result.unmoved, result.output_equal) == (True, True, True)
    moved = Intervention(model, lambda: None, lambda refs: [], own=declare(model, 3.0))
    assert not identity(moved).unmoved


def test_identity_needs_an_own_values_run(model):
    with pytest.raises(TypeError, match="^an identity is derived only from an intervention "
                                        "that declares its own-values run$"):
        identity(declare(model, 3.0))


@pytest.mark.parametrize("check, engine", [(fires, "check_writes"), (identity, "check_identity"),
                                           (rows_alone, "check_rows")])
def test_each_check_hands_its_engine_the_declared_run_and_where_it_writes(check, engine,
                                                                         monkeypatch):
    seen = []
    monkeypatch.setattr(interventions, engine, lambda *args: seen.append(args))
    run, sites = (lambda: None), (lambda refs: [])
    inside = Intervention("model", run, sites, within=True)
    check(Intervention("model", run, sites, within=True, own=inside))
    assert seen == [("model", run, sites, True)]


def test_rows_alone_checks_the_declared_run(model):
    assert rows_alone(declare(model, 3.0)).mismatched == []
    wrong = declare(model, 3.0)
    other_row = Intervention(model, wrong.run, lambda refs: [
        Site(0, 0, (0,), (2,), torch.full((1, 1, 16), 3.0))])
    assert rows_alone(other_row).mismatched
