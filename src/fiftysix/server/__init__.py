"""The fiftysix server: play 56 and 55 with friends in the browser (``fiftysix serve``).

Layers: :mod:`.state` (a table as a pure state machine over its event log), :mod:`.table` (the one
writer per table, its connections and computer players), :mod:`.hub` (all tables), :mod:`.db` (the log
in SQL, Alembic migrations), :mod:`.protocol` (websocket messages), :mod:`.access` (private tables, failed
lookups) and :mod:`.limits` (quotas), :mod:`.app` (the ASGI app).
Needs the ``server`` extra: ``pip install 'fiftysix[server]'``.
"""

from __future__ import annotations

from .app import Settings, create_app
from .limits import Limits
from .table import Timing

__all__ = ["Limits", "Settings", "Timing", "create_app"]
