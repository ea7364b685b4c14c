"""The example records (``docs/examples``, from the spec's independent checker) and their expected results."""

from __future__ import annotations

import json
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def example_pairs(game: str) -> list[tuple[Path, Path]]:
    folder = EXAMPLES / game
    pairs = []
    for record in sorted(folder.glob("*.json")):
        if record.name.endswith(".result.json"):
            continue
        pairs.append((record, record.with_name(record.stem + ".result.json")))
    return pairs


def load(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))
