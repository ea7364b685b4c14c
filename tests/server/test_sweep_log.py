"""The idle-table sweeper's log: an expected outage of the database is one line, a bug keeps its stack trace
(issue 41: the sweeper logged a stack trace in 7 of 10 PostgreSQL outages)."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy.exc import OperationalError

from fiftysix.server.table.hub import sweep_failed


def test_the_database_away_is_one_line_without_a_stack_trace(caplog: pytest.LogCaptureFixture) -> None:
    away = OperationalError("SELECT 1", {}, ConnectionRefusedError(111, "Connection refused"))
    with caplog.at_level(logging.WARNING, logger="fiftysix.server"):
        sweep_failed(away, 30)
    [record] = caplog.records
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "database" in record.getMessage() and "30" in record.getMessage()


def test_a_bug_in_the_sweep_keeps_its_stack_trace(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="fiftysix.server"):
        try:
            {}["missing"]
        except KeyError as bug:
            sweep_failed(bug, 30)
    [record] = caplog.records
    assert record.levelno == logging.ERROR and record.exc_info is not None
