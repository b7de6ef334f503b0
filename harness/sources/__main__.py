"""interp-claims sources: every registered source, its seed, published model and status."""
from __future__ import annotations

import argparse
import importlib

from harness.registry import registered


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description="List every registered source: its seed notebook, title, "
                            "published model and status.").parse_args(argv)
    for name, src in sorted(registered().items()):
        doc = importlib.import_module(src.package).__doc__ or ""
        status = " ".join(doc.split("\n\n", 1)[-1].split())
        print(f"{name}: {src.seed_file}, {src.title}; published model {src.model}\n  {status}")


if __name__ == "__main__":
    main()
