"""python -m harness.organisms NAME [--root DIR]: (re)train a source's organism and write it under
its organisms folder (fixtures/organisms/ for the built-in sources), with MKL's matrix multiplies
on its reproducible AVX2 branch unless MKL_CBWR names another (before torch loads)."""
from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from harness.organisms import MKL_BRANCH

os.environ.setdefault("MKL_CBWR", MKL_BRANCH)  # before torch loads: MKL reads it once

from harness.registry import registered  # noqa: E402 (after MKL's branch is set)
from harness.source import SourcePart  # noqa: E402


def trainable() -> dict[str, str]:
    """Each source with an organism module, mapped to its organism's name."""
    from harness.profiles import ProfileName

    return {name: src.models[ProfileName.TINY].organism for name, src in registered().items()
            if ProfileName.TINY in src.models and src.models[ProfileName.TINY].organism
            and src.part(SourcePart.ORGANISM) is not None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("name", choices=sorted(trainable()), help="the source whose organism to train")
    parser.add_argument("--root", type=Path, default=None,
                        help="where to write <organism>/model.safetensors and manifest.json "
                             "(default: the source's organisms folder)")
    args = parser.parse_args()
    src = registered()[args.name]
    made = src.part(SourcePart.ORGANISM).make(root=args.root or src.organisms_dir)
    print(json.dumps(made, indent=2))


if __name__ == "__main__":
    main()
