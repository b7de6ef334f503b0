"""Seed 000 §6–§7's decode-loop writes declared (harness.interventions): the §6 audit's bump,
the noise and the §7 vector writes, run through the experiment's own edits on a few prompts of
any model, write exactly their sites, at their steps only (harness.fire_once, which replays a
decode loop on its own cache); the noise edit adding zeros is the identity."""
from __future__ import annotations

from dataclasses import replace

import torch

from harness.declared_sites import DecodeWrite, Prompts, decode_writes
from harness.interventions import Intervention
from harness.sources.cot.decode import FIRE_BUMP, per_step_outputs
from harness.sources.cot.noise import NOISE_SEED, noise_edit, noise_vector
from harness.sources.cot.patching import K, runs_with_patch
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.task import PROBLEMS

FIRE_PROMPTS = 2     # prompts each anchor decodes: the first problems, whatever the model says
AFTER_WRITES = 2     # steps decoded after the last write, where nothing may be written
NOISE_ARMS = [(1, 1), (0, 2)]  # §6's arms for the two prompts: one step, then three from the prefill
VECTOR_SEED = 0      # §7's written vectors: seeded normal draws, one per prompt


def _prompts(runner: CotRunner) -> list[list[int]]:
    return [runner.prompt_ids(p) for p in PROBLEMS[:FIRE_PROMPTS]]


def bump(runner: CotRunner) -> Intervention:
    """§6: the audit's bump, run through its own decode (per_step_outputs) on the first prompt,
    lands at the anchor layer's last position at step fire_step only, as the unedited value
    plus FIRE_BUMP on dimension 0 (declared here, not read off the audit's tensor)."""
    prompt, k = _prompts(runner)[0], runner.sizes.fire_step
    bump = torch.zeros(runner.hidden_size, dtype=runner.dtype, device="cpu")
    bump[0] = FIRE_BUMP
    writes = DecodeWrite(Prompts.of("decoded", [prompt]), runner.sizes.anchor_layer, -1,
                         ((k, k),), lambda i, step: bump, added=True, what="bump step")
    return Intervention(runner.model.local(), lambda: per_step_outputs(
        runner, prompt, k, runner.sizes.fire_steps), decode_writes(writes))


def declared_noise(runner: CotRunner) -> torch.Tensor:
    """§6's noise re-drawn here from its declared seed and scale, not by the experiment's helper:
    N(0, 1) on the hidden size from a CPU generator seeded NOISE_SEED, times the noise scale."""
    draw = torch.randn(runner.hidden_size, generator=torch.Generator().manual_seed(NOISE_SEED),
                       device="cpu")
    return draw.to(runner.dtype) * runner.sizes.noise_scale


def _noise(runner: CotRunner, drawn: torch.Tensor, declared: torch.Tensor) -> Intervention:
    prompts = _prompts(runner)
    steps = max(last for _, last in NOISE_ARMS) + 1 + AFTER_WRITES
    writes = DecodeWrite(Prompts.of("decoded", prompts), runner.sizes.anchor_layer, -1,
                         tuple(NOISE_ARMS), lambda i, step: declared, added=True,
                         what="noise arm")
    return Intervention(runner.model.local(), lambda: runner.generate_many(
        prompts, steps, "cot §6 noise fire-once", noise_edit(runner, drawn, NOISE_ARMS)),
        decode_writes(writes))


def noise(runner: CotRunner) -> Intervention:
    """§6: the noise the experiment draws (noise_vector at its seed) lands at the anchor layer's
    last position of each prompt's row at exactly the steps of its arm, as the unedited value
    plus the noise as declared (re-drawn here); its own-values run adds zeros through the same
    edit."""
    zeros = torch.zeros(runner.hidden_size, dtype=runner.dtype, device="cpu")
    return replace(_noise(runner, noise_vector(runner, NOISE_SEED), declared_noise(runner)),
                   own=_noise(runner, zeros, zeros))


def vectors(runner: CotRunner) -> Intervention:
    """§7: runs_with_patch writes each prompt's vectors[step] at the layer's last position for
    its first K steps, and at no later step."""
    prompts, layer = _prompts(runner), runner.sizes.self_patch_layer
    g = torch.Generator(device="cpu").manual_seed(VECTOR_SEED)
    drawn = [torch.randn(K, runner.hidden_size, generator=g, device="cpu").to(runner.dtype)
             for _ in prompts]
    writes = DecodeWrite(Prompts.of("decoded", prompts), layer, -1,
                         ((0, K - 1),) * len(prompts), lambda i, step: drawn[i][step],
                         added=False, what="vector writes")
    return Intervention(runner.model.local(), lambda: runs_with_patch(
        runner, prompts, layer, drawn, K + AFTER_WRITES, "cot §7 fire-once"),
        decode_writes(writes))
