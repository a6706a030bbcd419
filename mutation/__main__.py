"""``python -m mutation run [--module M ...] [--jobs N] [--retry survivors]``, ``report``,
``fast-tier`` (the fast tier's pytest arguments, for ``make test-engine``)."""

from __future__ import annotations

import argparse
import os
import sys

from mutation.config import ROOT, TestsMap, scope


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mutation")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run (or resume) the sessions, then write docs/testing.md")
    run.add_argument("--module", action="append", help="a file under the scope (repeatable)")
    run.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    run.add_argument("--retry", choices=["survivors"], help="run the survivors again")
    run.add_argument(
        "--rerun", action="store_true", help="run modules whose kept results are current"
    )
    sub.add_parser("report", help="write docs/testing.md from the sessions")
    sub.add_parser("fast-tier", help="print the fast tier's pytest arguments")
    sub.add_parser("scope", help="print every module in scope")
    args = parser.parse_args(argv)
    if args.command == "fast-tier":
        print(" ".join(TestsMap.load().fast()))
    elif args.command == "scope":
        print("\n".join(scope()))
    elif args.command == "report":
        from mutation.report import write_report

        print(write_report())
    else:
        from mutation.report import write_report
        from mutation.run import main as run_main

        modules = args.module or scope()
        unknown = [m for m in modules if m not in scope()]
        if unknown:
            parser.error(f"not in the mutation scope: {', '.join(unknown)}")
        try:
            run_main(modules, max(1, args.jobs), args.retry, args.rerun)
        finally:
            print(write_report(), file=sys.stderr)
    return 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
