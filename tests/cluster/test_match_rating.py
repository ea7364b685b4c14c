"""Exactly-once ratings with two server processes: the writer is killed (kill -9) after it wrote a finished
match's row and before the ratings, inside that transaction; the other process takes the table over, plays
the last card again, and stores the match end, its rating update and the person's kept stats once."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import pg
from helpers.cluster import Player, Proc, check_log, new_player, new_table, sql, until, writer_pid

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


def test_kill_9_between_match_end_and_rating_rates_once(start: Callable[..., Proc], pg_cluster: pg.Cluster,
                                                        dbname: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "killed"
    monkeypatch.setenv("FIFTYSIX_TEST_KILL_BEFORE_RATING", str(marker))
    doomed = start()        # the first match end it stores kills it, mid-transaction
    monkeypatch.delenv("FIFTYSIX_TEST_KILL_BEFORE_RATING")
    other = start()
    token = new_player(doomed, "Asha")
    code = new_table(doomed, token, preset="56-4", fill="random")
    assert writer_pid(pg_cluster, dbname, code) == doomed.pid
    matches = lambda: sql(pg_cluster, dbname, "SELECT id FROM matches")  # noqa: E731

    async def play() -> Player:
        asha = Player("Asha", token, code, host=True)
        await asha.connect(doomed)
        stop = asyncio.Event()
        run = asyncio.create_task(asha.run(stop, lambda _dead: other))
        await asha.send({"type": "start"})
        await until(marker.exists, 240, "the match's end on the doomed process", asha)
        doomed.proc.wait(timeout=20)
        assert not doomed.alive()
        assert matches() == []          # killed before its commit: neither the match nor a rating is stored
        await until(lambda: bool(matches()), 120, "the match's end stored by the other process", asha)
        stop.set()
        await run
        await asha.close()
        return asha

    asha = asyncio.run(play())
    check_log(pg_cluster, dbname, code, [asha])
    assert matches() == [f"{code}/1"]
    people = sql(pg_cluster, dbname, "SELECT player_id, rating::text FROM match_players")
    assert len(people) == 1
    player, change = people[0].split("|", 1)
    after = json.loads(change)["after"]
    [row] = sql(pg_cluster, dbname, f"SELECT mu, sigma, matches, last_match FROM ratings WHERE player_id = '{player}'")
    mu, sigma, count, last = row.split("|")
    assert (int(count), last) == (1, f"{code}/1")        # updated once, by this match
    assert (float(mu), float(sigma)) == pytest.approx(tuple(after))
    # the kept stats follow the same rule: this one match, counted once
    assert sql(pg_cluster, dbname, f"SELECT matches FROM person_stats WHERE player_id = '{player}'") == ["1"]
    assert sql(pg_cluster, dbname, "SELECT COUNT(*) FROM deal_seats")[0] == \
        sql(pg_cluster, dbname, f"SELECT COUNT(*) FROM deals WHERE table_code = '{code}'")[0]
