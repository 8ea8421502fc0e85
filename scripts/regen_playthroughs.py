"""Regenerate the OpenSpiel playthroughs under tests/openspiel/playthroughs and say which env version changed.

    python scripts/regen_playthroughs.py                  # regenerate every case of cases.toml, write what changed
    python scripts/regen_playthroughs.py concordia        # only Concordia's cases (or name a file)
    python scripts/regen_playthroughs.py --check --diff   # write nothing; exit 1 if anything would change

Each changed file gets one line: new; its game's env version changed (the version in the committed file name
against the manifest's now; the file of the old version is removed); or changed under the SAME version, which
means the game's results or observations changed without an env version bump: bump ``version`` in its manifest
(and envs/fingerprints.json via scripts/env_fingerprints.py), then run this again. Files of installed games that
no case lists any more are removed when every case is regenerated. The playthroughs are compared as text, so a
different zlib writing other bytes for the same text changes nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

#: the repository's playthroughs (a repo folder read by this script and the tests; not installed)
FOLDER = Path(__file__).resolve().parent.parent / "tests" / "openspiel" / "playthroughs"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="*", metavar="NAME", help="a game (all its cases) or a playthrough file name")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if any file would change")
    p.add_argument("--diff", action="store_true", help="print the start of each changed file's diff")
    p.add_argument("--folder", type=Path, default=FOLDER, help="the playthrough folder (default: %(default)s)")
    args = p.parse_args(argv)
    try:
        from meeplezoo.openspiel import playthroughs
    except ImportError as exc:
        print(f"regen_playthroughs: needs open_spiel ({exc}): pip install 'meeplezoo[openspiel]'", file=sys.stderr)
        return 2
    try:
        cases = playthroughs.load_cases(args.folder)
        playthroughs.select(cases, args.names)
    except ValueError as exc:
        print(f"regen_playthroughs: {exc}", file=sys.stderr)
        return 2
    start = time.process_time()
    changes = playthroughs.regenerate(args.folder, args.names, write_files=not args.check, cases=cases)
    for change in changes:
        print(change.message())
        if args.diff and change.diff:
            print(change.diff)
    verb = "would change" if args.check else "changed"
    print(f"{len(changes)} playthrough file(s) {verb} ({time.process_time() - start:.0f} s CPU)")
    return 1 if args.check and changes else 0


if __name__ == "__main__":
    raise SystemExit(main())
