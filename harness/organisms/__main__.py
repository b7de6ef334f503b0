"""python -m harness.organisms NAME: (re)train an organism and write it under fixtures/."""
from __future__ import annotations

import argparse
import importlib
import json

NAMES = ("cot", "heads", "lookback", "patching")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("name", choices=NAMES)
    args = parser.parse_args()
    module = importlib.import_module(f"harness.organisms.{args.name}")
    print(json.dumps(module.make(), indent=2))


if __name__ == "__main__":
    main()
