"""Property tests over random seeds, every preset and random option combinations (hypothesis)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiftysix import IllegalMoveError, NotationError, Rules56, RulesError, check, deal_record, read_deal, view
from fiftysix.core.cards import CARDS
from fiftysix.games.fifty_six import PRESETS, Deal56
from fiftysix.games.fifty_six.rules import CHOICES

OVERRIDES = {k: v for k, v in CHOICES.items() if k not in ("tables", "deals", "target", "deck", "players")}


@st.composite
def rules56(draw: st.DrawFn) -> Rules56:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    options = draw(st.dictionaries(st.sampled_from(sorted(OVERRIDES)), st.none(), max_size=4))
    chosen = {k: draw(st.sampled_from(OVERRIDES[k])) for k in options}
    if draw(st.booleans()):
        chosen["players"] = draw(st.sampled_from([4, 6, 8]))
        chosen["deck"] = draw(st.sampled_from([None, 32, 48, 64]))
    try:
        return Rules56.preset_named(preset, **chosen)
    except RulesError:
        return Rules56.preset_named(preset)


def random_play(deal: Deal56, rng: random.Random, on_move=None) -> None:
    while not deal.is_over:
        legal = deal.legal_moves()
        assert legal, f"no legal move for seat {deal.to_move} in phase {deal.phase}"
        if on_move is not None:
            on_move(deal)
        deal.push(legal[rng.randrange(len(legal))])


PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@PROPS
@given(rules56(), st.integers(0, 2**32 - 1))
def test_every_card_played_once_and_points_sum_to_56(rules: Rules56, seed: int) -> None:
    deal = Deal56.from_seed(rules, seed)
    assert sorted(c for h in deal.dealt for c in h) == sorted(
        c for c in CARDS if c.rank_char in rules.ranks for _ in range(2))
    random_play(deal, random.Random(seed))
    played = [c for t in deal.tricks for c in t.cards]
    if deal.claimed_by is None:
        assert Counter(played) == Counter(c for h in deal.dealt for c in h)
        assert sum(deal.points) == 56 and sum(t.points for t in deal.tricks) == 56
    else:
        assert Counter(played) + Counter(c for h in deal.hands for c in h) == Counter(c for h in deal.dealt for c in h)


@pytest.mark.slow
@PROPS
@given(rules56(), st.integers(0, 2**32 - 1))
def test_records_round_trip_and_replay(rules: Rules56, seed: int) -> None:
    deal = Deal56.from_seed(rules, seed)
    rng = random.Random(seed)
    stop = rng.randrange(80)
    steps = 0
    while not deal.is_over and steps < stop:
        legal = deal.legal_moves()
        deal.push(legal[rng.randrange(len(legal))])
        steps += 1
    record = json.loads(json.dumps(deal_record(deal)))
    assert check(record) == {"valid": True, **deal.result()}
    again = read_deal(record)
    assert again.moves_text() == deal.moves_text() and again.phase == deal.phase
    assert deal_record(again) == record


@PROPS
@given(rules56(), st.integers(0, 2**32 - 1))
def test_same_seed_same_deal(rules: Rules56, seed: int) -> None:
    a, b = Deal56.from_seed(rules, seed), Deal56.from_seed(rules, seed)
    random_play(a, random.Random(seed))
    random_play(b, random.Random(seed))
    assert deal_record(a) == deal_record(b)


def _strings(obj: object) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in _strings(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in _strings(v)]
    return []


CARD_TEXTS = {str(c) for c in CARDS}


def assert_no_leak(deal: Deal56, seat: int | None) -> None:
    v = json.loads(json.dumps(view(deal, seat)))
    played = Counter(str(c) for t in deal.tricks for c in t.cards) + Counter(str(c) for c in deal.trick_cards)
    own = Counter(str(c) for c in deal.hands[seat]) if seat is not None else Counter()
    if seat is None:
        assert v["hand"] is None and "legal" not in v
    else:
        assert v["hand"] == [str(c) for c in deal.hands[seat]]
    for s in _strings({k: val for k, val in v.items() if k != "rules"}):
        if s in CARD_TEXTS:
            assert s in own or s in played, f"seat {seat} sees {s}"
    declarer = deal.contract.declarer if deal.contract else None
    if deal.rules.trump == "hidden" and not deal.revealed and seat != declarer:
        assert v["trump"] is None


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules56(), st.integers(0, 2**32 - 1))
def test_views_never_show_hidden_cards(rules: Rules56, seed: int) -> None:
    deal = Deal56.from_seed(rules, seed)

    def look(d: Deal56) -> None:
        for seat in [None, *range(d.n)]:
            assert_no_leak(d, seat)

    random_play(deal, random.Random(seed), look)
    look(deal)


ALL_TEXTS = sorted(CARD_TEXTS) + ["P", "X", "XX", "28H", "H30", "+2S", "40NOES", "56NT", "S", "NT", "?",
                                 "CLAIM", "PP", "+H", "NOS", "JSS", "", "57H"]


@pytest.mark.slow
@PROPS
@given(rules56(), st.integers(0, 2**32 - 1), st.lists(st.sampled_from(ALL_TEXTS), min_size=1, max_size=4))
def test_illegal_moves_are_refused_and_change_nothing(rules: Rules56, seed: int, attempts: list[str]) -> None:
    deal = Deal56.from_seed(rules, seed)
    rng = random.Random(seed)
    while not deal.is_over:
        legal_texts = {str(m) for m in deal.legal_moves()}
        for text in attempts:
            try:
                move = deal.parse_move(text)
            except (NotationError, IllegalMoveError):
                continue
            if str(move) in legal_texts:
                continue
            before = deal_record(deal), deal.to_move, deal.phase
            try:
                deal.push(text)
            except IllegalMoveError as e:
                assert str(e) and e.legal and set(e.legal) == legal_texts
            else:
                raise AssertionError(f"{text} accepted though not legal: {sorted(legal_texts)[:10]}")
            assert (deal_record(deal), deal.to_move, deal.phase) == before
        legal = deal.legal_moves()
        deal.push(legal[rng.randrange(len(legal))])


@pytest.mark.slow
def test_thousands_of_random_deals_through_every_preset() -> None:
    rng = random.Random(56)
    for i in range(2100):
        preset = sorted(PRESETS)[i % len(PRESETS)]
        deal = Deal56.from_seed(Rules56.from_json(preset), i)
        random_play(deal, rng)
        assert sum(deal.points) == 56 and len(deal.tricks) == deal.rules.hand_size
        r = deal.result()
        assert r["complete"] and r["made"] == (deal.points[deal.contract.team] >= deal.contract.value)  # type: ignore[union-attr]
