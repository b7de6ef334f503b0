"""`pytest --plan`'s table: for each collected source, its steps' work in both modes (pinned
ledgers, else the organisms' ledgers projected by the source's `plan.py`), priced by
`harness.cost.plan`, and each claim's share of it. Loads configs and tokenizers, never weights."""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any, Callable, Mapping

import torch

from harness import catalogue
from harness.cost import cpu_runs
from harness.cost.ledger import ledger_path, read_ledger
from harness.models.loaded import DTYPES, organism_module
from harness.cost.plan import (Assumptions, Gpu, Measured, ModePlan, Scale, Shape, SourcePlan,
                               StepPlan, calibrate, mean_tokens, project, seconds)
from harness.profiles import Mode, ModelSpec, Profile
from harness.models.resources import published_cache_default, snapshot_dir
from harness.registry import get_profile, source
from harness.source import SourcePart


@dataclass(frozen=True)
class ClaimUse:
    """A collected claim test: its id, source and the fixtures it needs (transitively)."""

    id: str
    source: str
    fixtures: frozenset[str]


@dataclass
class ScaleContext:
    """What a source's `published_scales` may read: both profiles' sizes and model shapes, the
    published value and the organism's pinned measurement of a claim key, tokenizers, and the
    mode whose ledger it scales (a step may do other work per row in fast mode)."""

    tiny_sizes: Any
    published_sizes: Any
    tiny_shape: Shape
    published_shape: Shape
    published_value: Callable[[str, str], Any]
    pinned_value: Callable[[str, str], Any]
    tiny_tok: Any
    published_tok: Any
    mode: Mode

    def prompt_ratio(self, texts: Callable[[Any, Any], list[str]]) -> float:
        """Published over organism mean token length of the prompts `texts(tok, sizes)` renders
        with each profile's tokenizer and sizes."""
        return (mean_tokens(self.published_tok, texts(self.published_tok, self.published_sizes))
                / mean_tokens(self.tiny_tok, texts(self.tiny_tok, self.tiny_sizes)))

    def depth_ratio(self) -> float:
        return self.published_shape.layers / self.tiny_shape.layers


def published_tokenizer(spec: ModelSpec) -> Any:
    """spec's tokenizer from its pinned snapshot in the published cache (no hub)."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(snapshot_dir(published_cache_default(), spec))


@cache
def shape_of(spec: ModelSpec) -> Shape:
    """Parameters, bytes, depth and width of spec's model, built on the meta device."""
    from transformers import AutoConfig, AutoModelForCausalLM

    with torch.device("meta"):
        if spec.hf_id:
            config = AutoConfig.from_pretrained(snapshot_dir(published_cache_default(), spec))
            model = AutoModelForCausalLM.from_config(config)
        else:
            organism = organism_module(spec)
            model = organism.build_model(organism.build_tokenizer())
    embedding = model.get_input_embeddings().weight.numel()
    total_params = sum(p.numel() for p in model.parameters())
    width = model.config.hidden_size if hasattr(model.config, "hidden_size") else model.config.n_embd
    layers = getattr(model.config, "num_hidden_layers", None) or model.config.n_layer
    heads = getattr(model.config, "num_attention_heads", None) or model.config.n_head
    return Shape(params=total_params - embedding,
                 weight_bytes=total_params * DTYPES[spec.dtype].itemsize, layers=layers,
                 width=width, heads=heads)


def calibrated(path: Path, gpu: Gpu) -> Assumptions:
    """The plan's overhead and utilisation fitted to a GPU rehearsal's runs (`make gpu-rehearsal`
    writes them: each source's counted work and step seconds, per mode, at the published shapes)."""
    summary = json.loads(path.read_text())
    published = get_profile("published")
    runs: dict[str, list[Measured]] = {}
    for name, by_mode in summary.get("sources", {}).items():
        shape = shape_of(published.models[name])
        for mode, run in by_mode.items():
            t = run.get("throughput") or {}
            if t.get("forwards") and t.get("step_seconds"):
                positions = t["prompt_tokens"] + t["decode_tokens"] + t["padding"]
                runs.setdefault(mode, []).append(Measured(t["forwards"], positions,
                                                          t["step_seconds"], shape))
    return calibrate(runs, gpu)


def source_steps(root: Path, profile: Profile, mode: Mode, name: str,
                 context: Callable[[Mode], ScaleContext], a: Assumptions,
                 shape: Shape | None) -> tuple[list[StepPlan], str]:
    """One source's steps in one mode, and where their work comes from."""
    pinned = read_ledger(ledger_path(root, profile.snapshot_name(mode), name, mode.value))
    if pinned:
        basis = "pinned ledger"
        steps = {k: (w, basis) for k, w in pinned.items()}
    elif profile.published_values_apply:
        tiny = read_ledger(ledger_path(root, get_profile("tiny").snapshot_name(mode), name,
                                       mode.value))
        plan_module = source(name).part(SourcePart.PLAN)
        scales = plan_module.published_scales(context(mode)) if plan_module else {}
        basis = "projected from the organism's ledger"
        steps = {k: (project(w, scales.get(k, Scale()), mode is Mode.FAST),
                     scales.get(k, Scale()).why) for k, w in tiny.items()
                 if k != catalogue.FIXTURE.format(source=name)}  # runs on organisms only
    else:
        return [], "no pinned ledger (run with --snapshot-update to pin one)"
    plans = [StepPlan(name, k, w, why, seconds(w, shape, a) if shape else None)
             for k, (w, why) in sorted(steps.items())]
    return plans, basis


@dataclass(frozen=True)
class Plan:
    """`pytest --plan`'s result: the pricing assumptions, each collected source's plan in both
    modes, the claims it was collected for and, once figured, its split over GPUs."""

    profile: str
    assumptions: Assumptions
    calibration: str | None
    sources: Mapping[str, SourcePlan]
    uses: tuple[ClaimUse, ...]
    split: Mapping[str, Any] | None = None

    def claims(self) -> list[dict[str, Any]]:
        """Each claim's steps, its own work and the work it shares with other claims."""
        rows = []
        for u in self.uses:
            row: dict[str, Any] = {"id": u.id, "source": u.source}
            for mode in Mode:
                mine = [s for s in self.sources[u.source].modes[mode.value].steps
                        if u.id in s.claims]
                row[mode.value] = {
                    "steps": [s.step for s in mine],
                    "forwards": sum(s.work.forwards for s in mine),
                    "prompt_tokens": sum(s.work.prompt_tokens for s in mine),
                    "decode_tokens": sum(s.work.decode_tokens for s in mine),
                    "shared_steps": [s.step for s in mine if s.shared],
                    "seconds": round(sum(s.recorded_seconds or 0 for s in mine), 1)}
            rows.append(row)
        return rows

    def as_record(self) -> dict[str, Any]:
        a = self.assumptions
        return {"profile": self.profile,
                "assumptions": {"gpu": a.gpu.name, "utilisation": round(a.utilisation, 3),
                                "overhead_s": round(a.overhead_s, 4),
                                "calibration": self.calibration},
                "sources": {name: s.as_record() for name, s in self.sources.items()},
                "claims": self.claims(), **({"split": dict(self.split)} if self.split else {})}


def build(root: Path, profile: Profile, uses: list[ClaimUse], a: Assumptions,
          published_value: Callable[[str, str], Any],
          pinned_value: Callable[[str, str], Any], calibration: str | None = None) -> Plan:
    """The plan for every source with collected claims, in both modes."""
    from harness.models.loaded import load_tokenizer

    tiny, published = get_profile("tiny"), get_profile("published")
    sources: dict[str, SourcePlan] = {}
    for name in sorted({u.source for u in uses}):
        spec = profile.models.get(name)
        shape = _shape_or_none(spec)

        def context(mode: Mode, name: str = name) -> ScaleContext:
            return ScaleContext(tiny.sizes[name], published.sizes[name],
                                shape_of(tiny.models[name]), shape_of(published.models[name]),
                                published_value, pinned_value,
                                load_tokenizer(tiny.models[name]),
                                published_tokenizer(published.models[name]), mode)

        modes = {}
        for mode in Mode:
            steps, basis = source_steps(root, profile, mode, name, context, a, shape)
            modes[mode.value] = ModePlan(basis, tuple(
                replace(s, claims=tuple(sorted(u.id for u in uses
                                               if u.source == name and s.step in u.fixtures)))
                for s in steps))
        cpu = (cpu_runs.last_run(root, name, spec) if spec and profile.published_values_apply
               else None)
        sources[name] = SourcePlan(spec.label if spec else None, shape, modes, cpu)
    return Plan(profile.name.value, a, calibration, sources, tuple(uses))


def _shape_or_none(spec: ModelSpec | None) -> Shape | None:
    if spec is None:
        return None
    try:
        return shape_of(spec)
    except (OSError, ValueError) as exc:  # no config in the cache: work without a time
        print(f"plan: no shape for {spec.label}: {exc}")
        return None


def write(plan: Plan, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(plan.as_record(), indent=2) + "\n")
