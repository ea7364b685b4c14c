"""The fiftysix server: play 56 and 55 with friends in the browser (``fiftysix serve``).

Folders by concern: :mod:`.state` (a table as a pure state machine over its event log: events, state, parts),
:mod:`.table` (the live table: its one writer and its parts, the messages in and out, the hub of all tables),
:mod:`.storage` (the log in SQL, its writer, the Alembic migrations), :mod:`.edge` (listening, limits, security,
tokens, languages), :mod:`.pages` (the websocket and the pages' own routes), :mod:`.cluster` (many processes);
accounts, clubs, matches and club nights have a folder each; :mod:`.app` (the ASGI app) and :mod:`.serving` (what
its routes share) stand on top.
Needs the ``server`` extra: ``pip install 'fiftysix[server]'``.
"""

from __future__ import annotations

from .app import Settings, create_app
from .edge.limits import Limits
from .table.live import Timing

__all__ = ["Limits", "Settings", "Timing", "create_app"]
