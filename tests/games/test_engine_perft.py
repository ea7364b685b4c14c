"""Perft-style regression of the rules engine: legal-move counts, their order and the refusals.

The expected numbers were computed with the engine as it was before hands became bitmasks (commit 7b760cf)
by running this module as a script against that code (``PYTHONPATH=<old src> python tests/test_engine_perft.py``).
The engine may change inside; these numbers may not: the bots' arena results depend on the order of the legal
moves (same seed, same deals and moves).

* ``trace``: seeded random deals played to the end through ``legal_moves()``/``push()``; counts every decision
  and legal move, and digests the text of every legal-move list, every move chosen, every refusal (error class,
  message and the legal moves it names) of the cards and calls that are not legal, and each deal's result.
* ``perft``: leaf counts of the move tree (every legal move, to a fixed depth) at the start of the play.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import pytest

from fiftysix.core.cards import CARDS
from fiftysix.core.errors import IllegalMoveError
from fiftysix.games import game_of_preset

TRY_CALLS = ("P", "X", "XX", "HOLD", "28H", "+1H", "10", "60", "NOS", "PP")


def _rules(preset: str, options: dict[str, Any]) -> Any:
    game = game_of_preset(preset)
    return game, game.rules_from_json({"preset": preset, **options})


def _refusals(deal: Any, legal: tuple[Any, ...], h: Any) -> int:
    """Offer every card (in play) or a few calls (in the auction) that is not legal; digest each refusal."""
    texts = {str(m) for m in legal}
    if deal.phase == "play":
        offers = [str(c) for c in CARDS if str(c)[0] in deal.rules.ranks]
    elif deal.phase == "auction":
        offers = list(TRY_CALLS)
    else:
        return 0
    count = 0
    before = (deal.phase, deal.to_move, len(deal.history), legal)
    for text in offers:
        if text in texts:
            continue
        try:
            deal.push(text)
        except IllegalMoveError as e:
            h.update(f"{type(e).__name__}:{e}:{' '.join(e.legal)}\n".encode())
            count += 1
        except ValueError as e:     # not a move of the game at all (a call of the other game)
            h.update(f"{type(e).__name__}:{e}\n".encode())
        else:
            raise AssertionError(f"{text} was accepted but is not among the legal moves {sorted(texts)}")
        assert (deal.phase, deal.to_move, len(deal.history), deal.legal_moves()) == before
    return count


def trace(preset: str, options: dict[str, Any], deals: int, refusals: bool) -> tuple[int, int, int, str]:
    """(decisions, legal moves summed, refusals, digest) over ``deals`` seeded random deals."""
    game, rules = _rules(preset, options)
    h = hashlib.sha256()
    decisions = total = refused = 0
    for seed in range(deals):
        deal = game.new_deal(rules, seed=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            legal = deal.legal_moves()
            decisions += 1
            total += len(legal)
            h.update(("|".join(str(m) for m in legal) + "\n").encode())
            if refusals:
                refused += _refusals(deal, legal, h)
            move = legal[rng.randrange(len(legal))]
            h.update(f"{deal.to_move}:{move}\n".encode())
            deal.push(move)
        h.update(json.dumps(deal.result(), sort_keys=True).encode())
        h.update(json.dumps([[str(c) for c in hand] for hand in deal.hands]).encode())
    return decisions, total, refused, h.hexdigest()[:16]


def perft(deal: Any, depth: int) -> int:
    legal = deal.legal_moves()
    if depth == 1 or not legal:
        return len(legal) if depth == 1 else 1
    total = 0
    for move in legal:
        child = deal.copy()
        child.push(move)
        total += perft(child, depth - 1)
    return total


def play_start(preset: str, options: dict[str, Any], seed: int, extra: int) -> Any:
    """The deal of ``seed`` after a seeded random auction (and trump choice, discard) and ``extra`` cards."""
    game, rules = _rules(preset, options)
    for s in range(seed, seed + 100):        # 55 deals can be thrown in; take the next seed then
        deal = game.new_deal(rules, seed=s)
        rng = random.Random(s)
        while deal.phase != "play" and not deal.is_over:
            legal = deal.legal_moves()
            deal.push(legal[rng.randrange(len(legal))])
        for _ in range(extra):
            legal = deal.legal_moves()
            deal.push(legal[rng.randrange(len(legal))])
        if not deal.is_over:
            return deal
    raise AssertionError("no deal reached the play")


TRACES: list[tuple[str, dict[str, Any], int, bool]] = [
    ("56-4", {}, 12, True),
    ("56-6", {}, 12, True),
    ("56-8", {}, 8, True),
    ("56-4", {"deck": 32}, 12, True),
    ("56-8", {"deck": 48}, 8, True),
    ("56-pairs-6", {}, 8, True),
    ("56-pairs-8", {}, 6, False),
    ("56-announce", {}, 10, True),
    ("56-hidden", {}, 16, True),
    ("56-hidden", {"players": 4}, 16, True),
    ("56-6", {"claim": True}, 16, True),
    ("56-6", {"trump": "chosen", "all_pass": "forced"}, 10, True),
    ("55", {}, 30, True),
    ("55-2", {}, 20, True),
    ("55-9", {}, 20, True),
    ("55-teams-6", {"all_pass": "dealer"}, 20, True),
    ("55", {"bidder_first": True, "teams": "two"}, 20, False),
]

PERFTS: list[tuple[str, dict[str, Any], int, int, int]] = [
    ("56-4", {}, 0, 0, 6),
    ("56-6", {}, 1, 0, 8),
    ("56-6", {}, 2, 3, 6),
    ("56-8", {}, 3, 5, 8),
    ("56-hidden", {}, 4, 1, 7),
    ("56-6", {"claim": True}, 5, 30, 8),
    ("55", {}, 0, 0, 6),
    ("55-9", {}, 1, 4, 7),
]

# Computed with the engine of commit 7b760cf (see the module's docstring).
EXPECTED_TRACES: list[tuple[int, int, int, str]] = [
    (660, 10305, 12028, '8c1e742eea169443'),
    (668, 9735, 12638, 'ee498ebcce669085'),
    (579, 7268, 15384, '99573122fc6b1f41'),
    (468, 9220, 5433, '36df8bf9bda345fc'),
    (451, 6885, 8599, 'c85696070206858e'),
    (461, 7051, 8483, '0463984bb3854015'),
    (453, 5727, 0, '317e3c05e3aa9b0b'),
    (613, 12651, 10753, 'a9ea0016334cd59a'),
    (925, 12947, 17241, 'bacc80796eae45ab'),
    (911, 13642, 16488, 'ecf775e60eb4dcc9'),
    (594, 12294, 10251, 'c305d7667c6724a3'),
    (570, 7751, 10576, 'f3d7088604c71c21'),
    (785, 9520, 30022, 'a82ac2725bb6abbc'),
    (274, 5591, 9433, 'c4a39d6060d53ad5'),
    (1120, 7577, 45176, '0963a0bf1b54a5e6'),
    (760, 6882, 30031, '34c25c0be675adff'),
    (525, 6343, 0, '39bf5017f759621a'),
]
EXPECTED_PERFTS: list[int] = [4079, 649, 3636, 712, 2440, 499, 1640, 1680]


@pytest.mark.parametrize("case", range(len(TRACES)))
def test_trace_matches_the_old_engine(case: int) -> None:
    preset, options, deals, refusals = TRACES[case]
    assert trace(preset, options, deals, refusals) == EXPECTED_TRACES[case]


@pytest.mark.parametrize("case", range(len(PERFTS)))
def test_perft_matches_the_old_engine(case: int) -> None:
    preset, options, seed, extra, depth = PERFTS[case]
    assert perft(play_start(preset, options, seed, extra), depth) == EXPECTED_PERFTS[case]


if __name__ == "__main__":
    print("EXPECTED_TRACES: list[tuple[int, int, int, str]] = [")
    for preset, options, deals, refusals in TRACES:
        print(f"    {trace(preset, options, deals, refusals)!r},", flush=True)
    print("]")
    print("EXPECTED_PERFTS: list[int] = [")
    for preset, options, seed, extra, depth in PERFTS:
        print(f"    {perft(play_start(preset, options, seed, extra), depth)},", flush=True)
    print("]")
    sys.exit(0)
