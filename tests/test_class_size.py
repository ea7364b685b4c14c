"""``tools/class_size.py`` finds a class over the limit and not one at it, and the database and cluster classes
split by issue 42 stay under it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("class_size", ROOT / "tools" / "class_size.py")
assert spec is not None and spec.loader is not None
class_size = importlib.util.module_from_spec(spec)
spec.loader.exec_module(class_size)


def lines_of_class(name: str, lines: int) -> str:
    """A class of exactly ``lines`` lines."""
    return f"class {name}:\n" + "".join(f"    x{i} = {i}\n" for i in range(lines - 1))


def test_a_class_over_the_limit_is_found_and_one_at_it_is_not(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(lines_of_class("Over", 11) + lines_of_class("At", 10), encoding="utf-8")
    assert class_size.long_classes(tmp_path, 10) == [(11, str(tmp_path / "a.py"), "Over")]


def test_the_split_classes_stay_small() -> None:
    server = ROOT / "src" / "fiftysix" / "server"
    over = {name for _lines, _path, name in class_size.long_classes(server, 250)}
    assert not over & {"Database", "TableLogWriter", "TableReads", "ClusterHub", "Failover", "Forwarding",
                       "ClusterTable", "Replica"}
