"""interp-claims new: draft a source from a notebook, or measure the drafter on the seeds.

    interp-claims new NAME --notebook FILE --model ORG/NAME@REVISION [--out DIR] [--force]
    interp-claims new --share [--register FILE] [--seeds DIR]
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from harness.drafting.draft import ModelRef, draft
from harness.drafting.notebook import read_notebook
from harness.drafting.share import measure, report
from harness.drafting.writing import write_draft

SHARED = Path(__file__).resolve().parents[2].parent / "shared"


def relative(path: Path) -> str:
    """A path as the user would type it from here."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def parser() -> argparse.ArgumentParser:
    """The command's flags."""
    p = argparse.ArgumentParser(
        prog="interp-claims new",
        description="Draft a source from a notebook (.ipynb or a plain-text dump): register rows "
                    "and one draft claim per printed number with file:line provenance and a "
                    "suggested criterion, stubs for the task, steps, organism and sizes, and a "
                    "checklist. With --share, measure how many of the hand-written register's "
                    "numbers the drafter finds in each seed.")
    p.add_argument("name", nargs="?", help="the new source's name (a package name: lower case)")
    p.add_argument("--notebook", type=Path, help="the notebook: .ipynb, or its text")
    p.add_argument("--model", help="the published model, ORG/NAME@REVISION")
    p.add_argument("--out", type=Path, help="where to write the draft (default drafts/NAME)")
    p.add_argument("--force", action="store_true", help="write over a folder that holds files")
    p.add_argument("--share", action="store_true",
                   help="print the share of each seed's register numbers the drafter finds")
    p.add_argument("--register", type=Path, default=SHARED / "claims.md",
                   help="the hand-written register --share reads (default ../shared/claims.md)")
    p.add_argument("--seeds", type=Path, default=SHARED / "seeds",
                   help="the seed notebooks --share drafts from (default ../shared/seeds)")
    return p


def main(argv: list[str] | None = None) -> int:
    """Draft, or measure; 2 on a usage error."""
    p = parser()
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    if args.share:
        if not args.register.exists():
            print(f"no register at {args.register}", file=sys.stderr)
            return 2
        print(report(measure(args.register, args.seeds)))
        return 0
    if not (args.name and args.notebook and args.model):
        p.print_usage(sys.stderr)
        print("interp-claims new: NAME, --notebook and --model are required (or --share)",
              file=sys.stderr)
        return 2
    try:
        model = ModelRef.parse(args.model)
        made = draft(args.name, read_notebook(args.notebook), model)
        out = args.out or Path("drafts") / args.name
        written = write_draft(made, out, force=args.force)
    except (ValueError, OSError) as exc:
        print(f"interp-claims new: {exc}", file=sys.stderr)
        return 2
    chosen = sum(c.suggestion.chosen for c in made.claims)
    print(f"drafted {len(made.claims)} claims ({chosen} with a suggested criterion) from "
          f"{args.notebook} into {relative(out)}: {len(written)} files; "
          f"next: {relative(out / 'CHECKLIST.md')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
