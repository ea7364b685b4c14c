"""The bots read a seat's knowledge typed (issue 29): no module of ``fiftysix.bots`` reads a view dict by key,
except the boundary: ``base.py``, where a JSON view handed to a bot is read into its observation once
(:func:`fiftysix.bots.base.observed`), and ``protocol.py``, the stdin/stdout protocol, whose messages are JSON
and whose outside programs are sent the JSON view itself."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import fiftysix.bots
from fiftysix.bots import make_bot
from fiftysix.bots.base import legal_moves, observed, view_json
from fiftysix.games import resolve_rules
from fiftysix.views import SeatView, TrickView, view

BOTS = Path(fiftysix.bots.__file__).parent
BOUNDARY = {"base.py", "protocol.py"}
KEYS = sorted({*SeatView.__annotations__, *TrickView.__annotations__,
               "winner", "team", "value", "strain", "players"})   # a finished trick's, a contract's, the rules'
READ = re.compile(r"""(\[\s*["'](?:%s)["']\s*\]|\.get\(\s*["'](?:%s)["']\s*[,)])""" % (("|".join(KEYS),) * 2))


def key_reads() -> list[str]:
    return [f"{path.relative_to(BOTS)}:{n}: {line.strip()}"
            for path in sorted(BOTS.rglob("*.py")) if path.name not in BOUNDARY or path.parent != BOTS
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if READ.search(line)]


def test_the_bots_read_no_view_dict_by_key() -> None:
    assert key_reads() == []


def test_the_scan_sees_a_key_read() -> None:
    assert READ.search('legal = view["legal"]') and READ.search("view.get('trick') or {}")
    assert READ.search('int(contract.get("value") or 28)') and not READ.search('last.get("how")')


def seat_views(preset: str, seed: int) -> list[dict[str, Any]]:
    """The view of the seat to move at every move of a deal the ``rules`` bots play."""
    game, rules = resolve_rules(preset)
    deal = game.new_deal(rules, seed=seed)
    bots = [make_bot("rules", s, game.name) for s in range(rules.players)]
    out = []
    while not deal.is_over:
        v = dict(view(deal, deal.to_move))
        out.append(v)
        deal.push(bots[deal.to_move].choose(v))
    return out


@pytest.mark.parametrize("preset", ["56-4", "56-6", "55"])
def test_an_observation_is_its_json_view(preset: str) -> None:
    for v in seat_views(preset, 3):
        obs = observed(v)
        assert obs.to_json() == v and view_json(obs) == v and observed(obs) is obs
        assert json.dumps(obs.to_json()) == json.dumps(v)     # what leaves the process is unchanged, in order
        assert legal_moves(obs) == legal_moves(v) == v["legal"]
        fewer = obs.with_legal(v["legal"][:1])
        assert fewer.legal == tuple(v["legal"][:1]) and fewer.to_json()["legal"] == v["legal"][:1]
        assert {**fewer.to_json(), "legal": v["legal"]} == v and fewer.hand == obs.hand


@pytest.mark.parametrize("preset", ["56-6", "55"])
def test_a_bot_plays_the_same_from_the_view_and_from_its_observation(preset: str) -> None:
    game = resolve_rules(preset)[0].name
    from_view, from_obs = make_bot("rules", 7, game), make_bot("rules", 7, game)
    for v in seat_views(preset, 5):
        assert from_view.choose(v) == from_obs.choose(observed(v))


def test_a_view_of_an_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        observed({"game": "29", "legal": ["P"]})
