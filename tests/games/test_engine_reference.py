"""The fast engine (hands as bitmasks, legal moves from tables) agrees with a straightforward reference.

The reference keeps hands as lists of cards worked out from what was dealt and played, and asks each game's
``play`` module (the one home of its play rule) for the legal cards, the trick's winner and its points; for 56
it adds the deal's own moves the way the rules spell them out (``?`` for a player who cannot follow a hidden
trump, the asker's duty to trump, ``CLAIM``).  Random deals of every preset, random moves, every position.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiftysix.core.cards import Card
from fiftysix.core.moves import CLAIM, REVEAL, Discard, Reveal
from fiftysix.games import game_of_preset
from fiftysix.games.fifty_five import PRESETS as PRESETS55
from fiftysix.games.fifty_five import play as play55
from fiftysix.games.fifty_six import PRESETS as PRESETS56
from fiftysix.games.fifty_six import play as play56

CASES: list[tuple[str, dict[str, Any]]] = [
    *((p, {}) for p in sorted(PRESETS56)),
    *((p, {}) for p in sorted(PRESETS55)),
    ("56-6", {"claim": True}),
    ("56-hidden", {"claim": True, "players": 4, "deck": 32}),
    ("56-8", {"deck": 48, "trump": "chosen"}),
    ("55-6", {"all_pass": "dealer", "bidder_first": True}),
]


def reference_hand(deal: Any, seat: int) -> list[Card]:
    """The seat's cards from first principles: dealt (and the kitty, 55's bidder), less discards and plays."""
    held = Counter(deal.dealt[seat])
    if deal.game == "55" and deal.kitty_taken and deal.contract.bidder == seat:
        held.update(deal.kitty)
    for who, move in deal.history:
        if who == seat and isinstance(move, Card):
            held[move] -= 1
        elif who == seat and isinstance(move, Discard):
            held.subtract(move.cards)
    return deal.sort_hand(list(held.elements()))


def reference_legal(deal: Any) -> list[object]:
    hand = reference_hand(deal, deal.to_move)
    trick = list(deal.trick_cards)
    if deal.game == "55":
        return list(play55.legal_cards(hand, trick, deal.trump))
    distinct = list(play56.legal_cards(hand, trick, deal.trump if deal.revealed else None))
    if not trick:
        return [*distinct, CLAIM] if deal.rules.claim and deal.outcome_decided() else distinct
    if play56.SUIT[distinct[0]] == play56.SUIT[trick[0]]:
        return distinct
    asked = bool(deal.history) and isinstance(deal.history[-1][1], Reveal)
    if asked and deal.trump is not None:
        return [c for c in distinct if play56.SUIT[c] == deal.trump] or distinct
    return distinct if deal.revealed else [*distinct, REVEAL]


def check_trick(deal: Any, trick: Any) -> None:
    if deal.game == "55":
        index, points = play55.trick_winner(trick.cards, deal.trump), play55.trick_points(trick.cards)
    else:
        index = play56.trick_winner(trick.cards, deal.trump if deal.revealed else None)
        points = play56.trick_points(trick.cards)
    assert (trick.winner, trick.points) == ((trick.leader + index) % deal.n, points)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(CASES))), st.integers(0, 2**32 - 1))
def test_the_fast_engine_agrees_with_the_reference(case: int, seed: int) -> None:
    preset, options = CASES[case]
    game = game_of_preset(preset)
    deal = game.new_deal(game.rules_from_json({"preset": preset, **options}), seed=seed)
    rng = random.Random(seed)
    tricks = 0
    while not deal.is_over:
        legal = deal.legal_moves()
        for seat in range(deal.n):
            assert deal.hands[seat] == reference_hand(deal, seat)
        if deal.phase == "play":
            assert list(legal) == reference_legal(deal)
        move = legal[rng.randrange(len(legal))]
        copy = deal.copy()
        deal.push(move)
        assert copy.legal_moves() == legal and len(copy.history) == len(deal.history) - 1   # copies independent
        while tricks < len(deal.tricks):
            check_trick(deal, deal.tricks[tricks])
            tricks += 1
        if deal.game == "55" and not deal.is_over:   # the highest-trump bonus comes at the end only
            assert sum(deal.points) == play55.TRICK_POINTS * len(deal.tricks)
    if deal.game == "56" and deal.claimed_by is None:
        assert sum(deal.points) == sum(t.points for t in deal.tricks) == 56
