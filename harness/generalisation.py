"""`--model SOURCE=REPO[@REVISION]`: a source's published claims re-run on another model of the
published architecture class, its layer-indexed sizes mapped by relative depth (each source's
`at_depth`). A generalisation test, not a replication: pinned under its own snapshot profile."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any



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
