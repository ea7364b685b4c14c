"""``fiftysix check FILE...``: one line of JSON per record, exactly what :func:`fiftysix.records.check`
returns; exit status 1 if any record is invalid (or cannot be read)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import TextIO

from ..records import check_text
from .common import Io, read_text


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("check", help="check records; print one JSON result line per file",
                       description="Check deal or match records. Prints one line of JSON per file; "
                                   "exit status 1 if any record is invalid.")
    p.add_argument("files", nargs="+", metavar="FILE", help="record files (- for standard input)")


def run(args: argparse.Namespace, io: Io) -> int:
    return run_check(args.files, io.stdout, io.stdin)


def check_file(path: str, stdin: TextIO | None = None) -> dict[str, object]:
    """The check result of one file; an unreadable or non-UTF-8 file is an invalid result, not an error."""
    name = "standard input" if path == "-" else path
    try:
        text = read_text(path, stdin)
    except OSError as e:
        reason = e.strerror or str(e)
        return {"valid": False, "index": None, "field": None, "error": f"cannot read {name}: {reason}"}
    except UnicodeDecodeError as e:
        return {"valid": False, "index": None, "field": None,
                "error": f"cannot read {name}: not UTF-8 text ({e.reason} at byte {e.start})"}
    try:
        return check_text(text)
    except Exception as e:  # a checker bug must not turn into a traceback for the user
        return {"valid": False, "index": None, "field": None,
                "error": f"internal error while checking {name}: {type(e).__name__}: {e}"}


def run_check(paths: Sequence[str], out: TextIO, stdin: TextIO | None = None) -> int:
    status = 0
    for path in paths:
        result = check_file(path, stdin)
        if not result.get("valid"):
            status = 1
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return status
