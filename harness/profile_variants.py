"""Every variant of a registered profile that a run can ask for, built here and nowhere else (issue
46): the rehearsal's (--rehearsal-dtype, --rehearsal-sizes, --rehearsal-decode-cap) and the
published profile with other models (--model, harness.generalisation), and the breakage
catalogue's (one source at the sizes its checks run at)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

from harness.generalisation import Override, depth_of, other_config
from harness.profiles import Profile
from harness.registry import get_profile


@dataclass(frozen=True)
class RehearsalAsks:
    """What a rehearsal run asks of its profile: every model in `dtype`, the published sizes, each
    decode step capped at `decode_cap` (None: as declared)."""

    dtype: str | None = None
    published_sizes: bool = False
    decode_cap: int | None = None

    @property
    def anything(self) -> bool:
        return self.dtype is not None or self.published_sizes or self.decode_cap is not None


def rehearsal(profile: Profile, asks: RehearsalAsks) -> Profile:
    """`profile` with every model in the dtype asked; at the published sizes, those sizes each
    capped at the decode cap asked and as random weights run them (heads' smoke block)."""
    models, sizes = dict(profile.models), dict(profile.sizes)
    if asks.dtype is not None:
        models = {name: dataclasses.replace(spec, dtype=asks.dtype) for name, spec in models.items()}
    if asks.published_sizes:
        sizes = dict(get_profile("published").sizes)
    if asks.decode_cap is not None:
        sizes = {name: s.decode_capped(asks.decode_cap) for name, s in sizes.items()}
    if asks.published_sizes:
        sizes = {name: s.on_random_weights() for name, s in sizes.items()}
    return dataclasses.replace(profile, models=models, sizes=sizes)


def with_sizes(profile: Profile, source: str, sizes: Any) -> Profile:
    """`profile` with `source`'s experiment sizes replaced by `sizes` (the catalogue's checks)."""
    return dataclasses.replace(profile, sizes={**profile.sizes, source: sizes})


def generalised(profile: Profile, overrides: list[Override],
                config_of: Callable[[Override], Any] = other_config,
                ) -> tuple[Profile, dict[str, str]]:
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
