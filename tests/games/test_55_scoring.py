"""55 scoring (made, failed, 60 and ``sixty_fail``) and the match: targets, dealer rotation, thrown-in
deals, and the winner decided trick by trick (``bidder_first``)."""

from __future__ import annotations

import random

import pytest

from fiftysix.core.cards import parse_cards
from fiftysix.games.fifty_five import Contract, Match55, Rules55
from fiftysix.games.fifty_five.scoring import deal_score, first_to_reach
from helpers.h55 import make, to_play

KITTY = "2S 3S 4S 6S 7S"


def slam_deal(bid: str, **options: object):
    """Seat 1 bids, takes the kitty and discards it, names clubs and leads its five trumps."""
    d = make("55-2", ["KH QH JH TH 9H", "5C JC KC QC 7C"], kitty=KITTY, **options)
    to_play(d, KITTY, "C", auction=f"{bid} P")
    for card in ("5C", "KH", "JC", "QH", "KC", "JH", "QC", "TH", "7C", "9H"):
        d.push(card)
    return d


def test_60_made_scores_60() -> None:
    d = slam_deal("60")
    assert d.points == [0, 30] and d.made() is True and d.score() == [0, 60]


def test_all_tricks_on_a_lower_bid_score_the_ordinary_30() -> None:
    d = slam_deal("10")
    assert d.made() is True and d.score() == [0, 30]


def one_lost_trick(bid: str, **options: object):
    """Seat 1 wins four tricks and the 5♣; seat 0 wins one with the A♥ it need not have played."""
    d = make("55-2", ["AH KH QH JH TH", "5C JC KC QC 7C"], kitty=KITTY, **options)
    to_play(d, KITTY, "C", auction=f"{bid} P")
    d.push("KC")
    assert len(d.legal_moves()) == 5           # the A♥ may be kept back from the K♣ ...
    d.push("AH")                               # ... but is played and wins
    for card in ("KH", "5C", "JC", "QH", "QC", "JH", "7C", "TH"):
        d.push(card)
    assert d.is_over
    return d


def test_60_failed_loses_60_or_sixty_fail() -> None:
    d = one_lost_trick("60")
    assert d.points == [5, 25] and d.made() is False and d.score() == [5, -60]
    assert d.result()["highest_trump"] == {"seat": 1, "card": "5C"}
    assert one_lost_trick("60", sixty_fail=30).score() == [5, -30]


def test_reaching_the_bid_exactly_is_enough() -> None:
    assert one_lost_trick("25").score() == [5, 25]


def test_deal_score_formula() -> None:
    rules = Rules55.from_json("55")
    assert deal_score(rules, Contract(2, 2, 20, None), [5, 0, 15, 10], made=False) == [5, 0, -20, 10]
    assert deal_score(rules, Contract(2, 2, 15, None), [5, 0, 15, 10], made=True) == [5, 0, 15, 10]
    teams = Rules55.from_json("55-teams-4")
    assert deal_score(teams, Contract(3, 1, 25, None), [10, 20], made=False) == [10, -25]


def test_partners_pool_their_points() -> None:
    rng = random.Random(5)
    for seed in range(40):
        d = make("55-teams-6", dealer=seed % 6)
        d = type(d).from_seed(d.rules, seed)
        while not d.is_over:
            legal = d.legal_moves()
            d.push(legal[rng.randrange(len(legal))])
        if d.contract is None:
            continue
        expected = [0, 0]
        for t in d.tricks:
            expected[t.winner % 2] += 5
        if d.highest is not None:
            expected[d.highest[0] % 2] += 5
        assert d.points == expected and sum(expected) in (25, 30)


# ---- who reaches the target first ------------------------------------------------------------------------


def rules(**options: object) -> Rules55:
    return Rules55.preset_named("55", **options)


def test_one_side_reaching_the_target_wins() -> None:
    assert first_to_reach(rules(), [50, 0, 0, 0], [5, 0, 10, 10], [0, 2, 2, 3, 3], None, None) == 0
    assert first_to_reach(rules(), [40, 0, 0, 0], [5, 0, 10, 10], [0, 2, 2, 3, 3], None, None) is None


def test_several_sides_first_one_trick_by_trick() -> None:
    # Side 0 reaches 55 at trick 0; side 1 ends higher (60) but gets there at trick 2.
    contract = Contract(2, 2, 10, None)
    assert first_to_reach(rules(), [50, 45, 0, 0], [5, 15, 5, 0], [0, 1, 1, 2, 1], 1, contract) == 0


def test_the_highest_trump_bonus_counts_at_its_trick() -> None:
    # Side 1 wins trick 0 with the highest trump: 45 + 10 = 55 at once, before side 0 at trick 1.
    contract = Contract(3, 3, 10, None)
    assert first_to_reach(rules(), [50, 45, 0, 0], [5, 15, 0, 10], [1, 0, 3, 3, 1], 0, contract) == 1
    # Without the bonus at its trick side 1 would only get there at trick 4, and side 0 would win.
    assert first_to_reach(rules(), [50, 45, 0, 0], [5, 15, 0, 10], [1, 0, 3, 3, 1], 4, contract) == 0


def test_a_failed_bidder_never_reaches_the_target() -> None:
    # Side 1 bid 25 and took 20: it crossed 55 on the way but its contract failed.
    contract = Contract(1, 1, 25, None)
    assert first_to_reach(rules(), [50, 50, 0, 0], [10, -25, 0, 0], [1, 0, 1, 0, 1], 2, contract) == 0


def test_bidder_first() -> None:
    contract = Contract(1, 1, 15, None)
    args = ([50, 45, 0, 0], [5, 20, 0, 0], [0, 1, 1, 1, 1], 4, contract)
    assert first_to_reach(rules(), *args) == 0
    assert first_to_reach(rules(bidder_first=True), *args) == 1


# ---- the match ----------------------------------------------------------------------------------------------


def test_thrown_in_deals_pass_the_deal_on() -> None:
    m = Match55(Rules55.from_json("55"), first_dealer=2)
    hands = [parse_cards(h) for h in ("AS KS QS JS TS", "AH KH QH JH TH", "AD KD QD JD TD", "AC KC QC JC TC")]
    d = m.deal_from(hands, parse_cards("9S 9H 9D 9C 8S"))
    for _ in range(4):
        d.push("P")
    assert d.thrown_in
    assert m.finish(d)["score"] == [0, 0, 0, 0]
    assert m.dealer == 3 and m.standings == [0, 0, 0, 0] and m.deal_number == 2 and not m.over
    d = m.deal_from(hands)                       # without a kitty: dealt from the rest of the pack
    assert len(d.kitty) == 5 and not set(d.kitty) & {c for h in hands for c in h}


@pytest.mark.parametrize("preset", ["55", "55-110", "55-teams-4", "55-9"])
def test_random_matches_end_at_the_target(preset: str) -> None:
    rules55 = Rules55.from_json(preset)
    m = Match55(rules55, seed=11)
    rng = random.Random(3)
    dealers = []
    while not m.over:
        dealers.append(m.dealer)
        d = m.new_deal()
        while not d.is_over:
            legal = d.legal_moves()
            if d.phase == "auction":                 # modest bidders, or the scores drift below zero
                d.push(legal[0] if rng.random() < 0.7 or len(legal) == 1 else legal[1])
            else:
                d.push(legal[rng.randrange(len(legal))])
        m.finish(d)
        assert len(m.results) < 500
    n = rules55.players
    assert all(b == (a + 1) % n for a, b in zip(dealers, dealers[1:], strict=False))
    totals = [sum(r["score"][s] for r in m.results) for s in range(rules55.n_sides)]  # type: ignore[index]
    assert totals == m.standings
    assert m.winner is not None and m.standings[m.winner] >= rules55.target
    assert m.end_reason == f"side {m.winner} reached the target {rules55.target}"
