"""Seed 003's machinery: a model, its sizes, greedy top-1 predictions and layer reads (§2, §4)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import nnsight
import torch

from harness.models.handle import Loaded
from harness.sources.lookback.sizes import LookbackSizes
from harness.sources.lookback.task import INSTRUCTION, Counterfactual

# Every study reads the final position's logits at most: the head projects that position only,
# not every position over Llama's 128k vocabulary (transformers' logits_to_keep).
LAST_LOGITS = {"logits_to_keep": 1}


@dataclass
class LookbackRunner:
    """A model and the sizes it runs seed 003 at."""

    model: Loaded
    sizes: LookbackSizes

    @property
    def instruction(self) -> str:
        return INSTRUCTION if self.sizes.with_instruction else ""

    @property
    def layers(self):
        return self.model.nn.model.layers

    @property
    def lm_head(self):
        return self.model.nn.lm_head

    @property
    def n_layers(self) -> int:
        return self.model.hf.config.num_hidden_layers

    def decode(self, ids: torch.Tensor) -> list[str]:
        return [self.model.tok.decode([int(t)]).strip().lower() for t in ids]

    def predict(self, prompts: Sequence[str]) -> list[str]:
        """§2: the top-1 next token after `Answer:`, decoded, stripped, lowercased; left padding."""
        out: list[str] = []
        bs, lm_head = self.sizes.predict_batch, self.lm_head  # bodies name envoys only (NDIF)
        for i in range(0, len(prompts), bs):
            with torch.no_grad(), self.model.nn.trace(list(prompts[i:i + bs]), **LAST_LOGITS):
                top = lm_head.output[:, -1].argmax(-1).save()
            out += self.decode(top)
        return out


def score(preds: list[str], rows: list[Counterfactual], attr: str) -> float:
    """§4: the fraction of predictions equal to each row's `attr` answer, to 4 places."""
    return round(sum(p == getattr(r, attr) for p, r in zip(preds, rows)) / len(rows), 4)


def read_layers(runner: LookbackRunner, prompts: list[str],
                positions: list[int]) -> list[torch.Tensor]:
    """Every layer's output at `positions`, in one read-only pass: [layer] -> [batch, pos, d]."""
    layers = runner.layers
    with torch.no_grad(), runner.model.nn.trace(prompts, **LAST_LOGITS):
        saved = nnsight.save([])
        for layer in layers:
            saved.append(layer.output[:, positions].clone())
    return list(saved)


def final_logits(runner: LookbackRunner, prompts: list[str]) -> torch.Tensor:
    """The batch's final-position logits."""
    lm_head = runner.lm_head
    with torch.no_grad(), runner.model.nn.trace(prompts, **LAST_LOGITS):
        logits = lm_head.output[:, -1].save()
    return logits.float().cpu()
