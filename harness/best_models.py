"""Which model each source runs on under `make replicate` (issue 48): its published model where
this machine can run it (the device its published loading names, the weights in the Hugging Face
cache or on the hub), else its organism, each with why."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from harness.models.resources import missing_weights_reason, published_reason
from harness.profiles import ProfileName
from harness.registry import get_profile


@dataclass(frozen=True)
class Choice:
    """One source's model for a replication: the profile it runs on, the model and why."""

    source: str
    profile: ProfileName
    model: str
    why: str

    @property
    def published_values_apply(self) -> bool:
        """Whether it runs the notebook's own model, so its published values apply."""
        return self.profile is ProfileName.PUBLISHED

    def as_record(self) -> dict[str, Any]:
        return {**asdict(self), "profile": self.profile.value}


def choose(sources: list[str] | None = None) -> dict[str, Choice]:
    """Each source's (every published one's, else `sources`') model on this machine."""
    published, organisms = get_profile("published"), get_profile("tiny")
    chosen = {}
    for name in sorted(sources or published.models):
        spec = published.models[name]
        reason = published_reason(spec, "gpu")
        if reason is None:
            where = "a CUDA GPU" if spec.device == "cuda" else "the CPU"
            weights = ("in the Hugging Face cache" if missing_weights_reason(spec) is None
                       else "on the hub")
            chosen[name] = Choice(name, ProfileName.PUBLISHED, spec.label,
                                  f"its weights are {weights} and it runs on {where} here")
        else:
            chosen[name] = Choice(name, ProfileName.TINY, organisms.models[name].label,
                                  f"{spec.hf_id} cannot run here: {reason}")
    return chosen


def groups(chosen: dict[str, Choice]) -> dict[ProfileName, list[str]]:
    """The sources to run on each profile, published first."""
    out: dict[ProfileName, list[str]] = {}
    for choice in sorted(chosen.values(), key=lambda c: (not c.published_values_apply, c.source)):
        out.setdefault(choice.profile, []).append(choice.source)
    return out
