"""`--model SOURCE=REPO[@REVISION]`: a source's published claims re-run on another model of the
published architecture class, its layer-indexed sizes mapped by relative depth (each source's
`at_depth`). A generalisation test, not a replication: pinned under its own snapshot profile."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from harness.profiles import Profile


@dataclass(frozen=True)
class Override:
    """One --model option: the source, the other model's repo id and its revision (a commit, or
    a branch such as main: the run record names the commit it resolved to)."""

    source: str
    repo: str
    revision: str

    @classmethod
    def parse(cls, text: str) -> "Override":
        source, sep, model = text.partition("=")
        if not sep or not source or not model:
            raise ValueError(f"--model {text!r}: expected SOURCE=ORG/NAME[@REVISION]")
        repo, _, revision = model.partition("@")
        return cls(source, repo, revision or "main")

    @property
    def label(self) -> str:
        return f"{self.repo}@{self.revision}"


def other_config(o: Override) -> Any:
    """The other model's config (the Hugging Face cache, or the hub when reachable)."""
    from transformers import AutoConfig

    return AutoConfig.from_pretrained(o.repo, revision=o.revision)


def depth_of(config: Any) -> int:
    return getattr(config, "num_hidden_layers", None) or config.n_layer


def generalised(profile: Profile, overrides: list[Override],
                config_of=other_config) -> tuple[Profile, dict[str, str]]:
    """`profile` with each override's model and depth-mapped sizes, and for each source that
    cannot be re-targeted, why (its config unavailable, or another architecture)."""
    models, sizes, labels, reasons = dict(profile.models), dict(profile.sizes), {}, {}
    for o in overrides:
        if o.source not in models:
            raise ValueError(f"--model {o.source}=…: no source {o.source!r} on this profile")
        spec = models[o.source]
        try:
            config = config_of(o)
        except (OSError, ValueError) as exc:
            reasons[o.source] = f"the config of {o.label} is not available: {exc}"
            continue
        found = (getattr(config, "architectures", None) or ["?"])[0]
        if found != spec.architecture:
            reasons[o.source] = (f"{o.label} is a {found}, not a {spec.architecture}: the "
                                 f"experiments address {spec.architecture}'s modules")
            continue
        models[o.source] = dataclasses.replace(spec, hf_id=o.repo, revision=o.revision)
        sizes[o.source] = sizes[o.source].at_depth(depth_of(config))
        labels[o.source] = o.label
    return dataclasses.replace(profile, models=models, sizes=sizes, generalisation=labels), reasons
