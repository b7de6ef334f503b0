"""python -m harness.organisms NAME [--root DIR]: (re)train an organism and write it under fixtures/."""
from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path

from harness.organisms.common import ORGANISMS

NAMES = ("cot", "heads", "lookback", "patching")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("name", choices=NAMES)
    parser.add_argument("--root", type=Path, default=ORGANISMS,
                        help="where to write NAME/model.safetensors and NAME/manifest.json")
    args = parser.parse_args()
    module = importlib.import_module(f"harness.organisms.{args.name}")
    print(json.dumps(module.make(root=args.root), indent=2))


if __name__ == "__main__":
    main()
