"""Pool panel runs (``fiftysix arena --panel --json``) of one seed set and refit the rating over all of them.

    .venv/bin/python bench/pool_panel.py A.json B.json [--json POOLED.json] [--for-tuning]

The parts may be one long run cut with ``--first`` (each pairing's deal pairs are put together; a deal played in
two parts is refused) or runs of other bots against the same panel (the rating then places every bot). Runs on
the tuning seeds are refused unless ``--for-tuning`` says the figures are for tuning, not for reporting.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from fiftysix.arena.panel import format_panel, pool_panels


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("panels", nargs="+", help="fiftysix arena --panel --json files of the same seed set")
    parser.add_argument("--json", help="write the pooled document here")
    parser.add_argument("--for-tuning", action="store_true", help="allow runs on the tuning seeds")
    parser.add_argument("--bootstrap", type=int, default=200, help="bootstrap refits (default %(default)s)")
    args = parser.parse_args(argv)
    try:
        docs = [json.loads(Path(path).read_text(encoding="utf-8")) for path in args.panels]
        tuning = [path for path, doc in zip(args.panels, docs, strict=True) if not doc["reportable"]]
        if tuning and not args.for_tuning:
            raise ValueError(f"{', '.join(tuning)}: played on the tuning seeds, not for reporting "
                             "(--for-tuning to pool them anyway)")
        pooled = pool_panels(docs, bootstrap=args.bootstrap)
    except (OSError, ValueError, KeyError) as e:
        print(f"pool_panel: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(format_panel(pooled))
    if args.json:
        Path(args.json).write_text(json.dumps(pooled, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
