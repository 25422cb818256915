"""Check or record the behaviour of the exact solver and the fair agent.

    python scripts/fingerprint.py check fair     # exit 1 if the agent's behaviour changed
    python scripts/fingerprint.py write fair     # record it: a new fingerprint and version
    python scripts/fingerprint.py write exact --new-positions

Each search ships ``fingerprint.json`` beside its code: its version, a fixed set
of positions and the fingerprint of its answers on them
(:mod:`scoundrel_solver.provenance.fingerprint`). ``write`` changes the file,
and so the version that every results file records, only when the answers
changed (or ``--new-positions`` draws the positions anew).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from scoundrel_solver.provenance.fingerprint import SEARCHES, current, record_behaviour


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("command", choices=("check", "write"))
    p.add_argument("kind", choices=sorted(SEARCHES))
    p.add_argument("--new-positions", action="store_true",
                   help="write: draw the positions anew (the version then changes)")
    args = p.parse_args(argv)
    if args.command == "check":
        record, now = current(args.kind)
        if now == record.fingerprint:
            print(f"{args.kind}: {record.version}: fingerprint {now[:12]} as recorded "
                  f"({len(record.positions)} positions)")
            return 0
        print(f"{args.kind}: behaviour changed: fingerprint {now[:12]}, recorded "
              f"{record.fingerprint[:12]} for {record.version}; record it with "
              f"python scripts/fingerprint.py write {args.kind}")
        return 1
    record, written = record_behaviour(args.kind, args.new_positions)
    print(f"{args.kind}: {record.version} " + ("written" if written else "unchanged"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
