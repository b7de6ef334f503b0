"""interp-claims sources: every registered source, its seed, published model, whether it runs on
NDIF, and status."""
from __future__ import annotations

import argparse
import importlib

from harness.registry import registered


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description="List every registered source: its seed notebook, title, "
                            "published model, whether it runs on NDIF (--backend=ndif), and "
                            "status.").parse_args(argv)
    for name, src in sorted(registered().items()):
        doc = importlib.import_module(src.package).__doc__ or ""
        status = " ".join(doc.split("\n\n", 1)[-1].split())
        ndif = "; runs on NDIF (remote=True)" if src.remote else ""
        print(f"{name}: {src.seed_file}, {src.title}; published model {src.model}{ndif}\n"
              f"  {status}")


if __name__ == "__main__":
    main()
