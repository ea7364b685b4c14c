"""Property tests over random seeds and every 55 preset (with random option overrides, hypothesis)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiftysix import DealOverError, IllegalMoveError, NotationError, RulesError, check, deal_record, read_deal, view
from fiftysix.core.cards import CARDS, cards_text
from fiftysix.games.fifty_five import PRESETS, Deal55, Rules55
from fiftysix.games.fifty_five.rules import CHOICES

PRESET_NAMES = sorted(PRESETS)
OVERRIDES = {k: v for k, v in CHOICES.items() if k not in ("players",)}
PROPS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def options(draw: st.DrawFn) -> dict[str, object]:
    keys = draw(st.lists(st.sampled_from(sorted(OVERRIDES)), max_size=4, unique=True))
    return {k: draw(st.sampled_from(OVERRIDES[k])) for k in keys}


def rules_of(preset: str, chosen: dict[str, object]) -> Rules55:
    try:
        return Rules55.preset_named(preset, **chosen)
    except RulesError:          # e.g. teams=three for 4 players
        return Rules55.preset_named(preset)


def random_play(deal: Deal55, rng: random.Random, on_move: Callable[[Deal55], None] | None = None) -> None:
    while not deal.is_over:
        legal = deal.legal_moves()
        assert legal, f"no legal move for seat {deal.to_move} in phase {deal.phase}"
        if on_move is not None:
            on_move(deal)
        deal.push(legal[rng.randrange(len(legal))])


def places(deal: Deal55) -> Counter[int]:
    """Every card of the pack by where it is now: hands, kitty, discard, played, undealt."""
    where: Counter[int] = Counter(c for h in deal.hands for c in h)
    where.update(c for t in deal.tricks for c in t.cards)
    where.update(deal.trick_cards)
    where.update(deal.undealt)
    if not deal.kitty_taken:
        where.update(deal.kitty)
    if deal.discard is not None:
        where.update(deal.discard)
    return where


@pytest.mark.parametrize("preset", PRESET_NAMES)
@PROPS
@given(chosen=options(), seed=st.integers(0, 2**32 - 1))
def test_every_card_is_in_exactly_one_place(preset: str, chosen: dict[str, object], seed: int) -> None:
    deal = Deal55.from_seed(rules_of(preset, chosen), seed)
    assert all(len(h) == 5 for h in deal.dealt) and len(deal.kitty) == 5
    assert len(deal.undealt) == 52 - 5 * deal.n - 5

    def one_place(d: Deal55) -> None:
        assert places(d) == Counter(CARDS)

    random_play(deal, random.Random(seed), one_place)
    one_place(deal)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
@PROPS
@given(chosen=options(), seed=st.integers(0, 2**32 - 1))
def test_a_deal_is_worth_25_or_30(preset: str, chosen: dict[str, object], seed: int) -> None:
    deal = Deal55.from_seed(rules_of(preset, chosen), seed)
    random_play(deal, random.Random(seed))
    r = deal.result()
    assert r["complete"]
    if deal.contract is None:
        assert deal.thrown_in and deal.rules.all_pass == "redeal" and r["score"] == [0] * deal.rules.n_sides
        return
    assert len(deal.tricks) == 5 and all(t.points == 5 for t in deal.tricks)
    assert sum(deal.points) == (30 if deal.highest is not None else 25)
    c = deal.contract
    others = [s for s in range(deal.rules.n_sides) if s != c.team]
    assert [r["score"][s] for s in others] == [deal.points[s] for s in others]
    if not r["made"]:
        assert r["score"][c.team] == (-deal.rules.sixty_fail if c.value == 60 else -c.value)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@PROPS
@given(chosen=options(), seed=st.integers(0, 2**32 - 1))
def test_records_round_trip_and_replay(preset: str, chosen: dict[str, object], seed: int) -> None:
    deal = Deal55.from_seed(rules_of(preset, chosen), seed)
    rng = random.Random(seed)
    stop = rng.randrange(70)
    while not deal.is_over and len(deal.history) < stop:
        legal = deal.legal_moves()
        deal.push(legal[rng.randrange(len(legal))])
    record = json.loads(json.dumps(deal_record(deal)))
    assert check(record) == {"valid": True, **deal.result()}
    again = read_deal(record)
    assert again.moves_text() == deal.moves_text() and again.phase == deal.phase
    assert deal_record(again) == record


@pytest.mark.parametrize("preset", ["55", "55-2", "55-9", "55-teams-6"])
@PROPS
@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_deal(preset: str, seed: int) -> None:
    rules = Rules55.from_json(preset)
    a, b = Deal55.from_seed(rules, seed), Deal55.from_seed(rules, seed)
    random_play(a, random.Random(seed))
    random_play(b, random.Random(seed))
    assert deal_record(a) == deal_record(b)


# ---- views ------------------------------------------------------------------------------------------------

CARD_TEXTS = {str(c) for c in CARDS}


def _strings(obj: object) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for k, v in obj.items() for s in (str(k), *_strings(v))]
    if isinstance(obj, list):
        return [s for v in obj for s in _strings(v)]
    return []


def visible(deal: Deal55, seat: int | None) -> set[str]:
    """The cards ``seat`` may know: its own hand, the cards played, and the discard where allowed."""
    seen = {str(c) for t in deal.tricks for c in t.cards} | {str(c) for c in deal.trick_cards}
    if seat is not None:
        seen |= {str(c) for c in deal.hands[seat]}
    if deal.discard is not None and (deal.rules.discards == "open" or seat == deal.bidder):
        seen |= {str(c) for c in deal.discard}
    return seen


def assert_no_leak(deal: Deal55, seat: int | None) -> None:
    v = json.loads(json.dumps(view(deal, seat)))
    allowed = visible(deal, seat)
    for s in _strings(v):
        for token in re.split(r"[^0-9A-Za-z]+", s):
            if token in CARD_TEXTS:
                assert token in allowed, f"seat {seat} sees {token} in {s!r}"
    if seat is None:
        assert v["hand"] is None and "legal" not in v
    else:
        assert v["hand"] == [str(c) for c in deal.hands[seat]]
    assert v["kitty_size"] == (0 if deal.kitty_taken else 5)
    if deal.discard is not None and deal.rules.discards == "closed" and seat != deal.bidder:
        assert v["discard"] is None


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chosen=options(), seed=st.integers(0, 2**32 - 1))
def test_views_never_show_hidden_cards(preset: str, chosen: dict[str, object], seed: int) -> None:
    deal = Deal55.from_seed(rules_of(preset, chosen), seed)

    def look(d: Deal55) -> None:
        for seat in [None, *range(d.n)]:
            assert_no_leak(d, seat)

    random_play(deal, random.Random(seed), look)
    look(deal)


# ---- illegal moves ------------------------------------------------------------------------------------------

ALL_TEXTS = sorted(CARD_TEXTS) + ["P", "HOLD", "10", "15", "25", "60", "11", "p", "hold", "S", "H", "NT", "",
                                  "JSS", "AHH", "X", "28H", "?", "AS KS QS JS TS", "2C 3C"]


def attempts_for(deal: Deal55, rng: random.Random, texts: list[str]) -> list[str]:
    out = list(texts)
    if deal.phase == "discard":
        held = list(deal.hands[deal.to_move or 0])
        rng.shuffle(held)
        stranger = next(c for c in CARDS if c not in held)
        out += [cards_text(held[:4]), cards_text(held[:6]), cards_text([*held[:4], stranger]),
                cards_text([*held[:4], held[0]])]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
@PROPS
@given(chosen=options(), seed=st.integers(0, 2**32 - 1),
       texts=st.lists(st.sampled_from(ALL_TEXTS), min_size=1, max_size=4))
def test_illegal_moves_are_refused_and_change_nothing(preset: str, chosen: dict[str, object], seed: int,
                                                       texts: list[str]) -> None:
    deal = Deal55.from_seed(rules_of(preset, chosen), seed)
    rng = random.Random(seed)
    while not deal.is_over:
        legal_texts = {str(m) for m in deal.legal_moves()}
        for text in attempts_for(deal, rng, texts):
            try:
                if str(deal.parse_move(text)) in legal_texts:
                    continue
            except (NotationError, IllegalMoveError):
                pass
            before = deal_record(deal), deal.to_move, deal.phase, deal.moves_text()
            try:
                deal.push(text)
            except IllegalMoveError as e:
                assert str(e) and set(e.legal) == legal_texts
            except NotationError as e:
                assert str(e)
            else:
                raise AssertionError(f"{text!r} accepted though not legal in phase {deal.phase}")
            assert (deal_record(deal), deal.to_move, deal.phase, deal.moves_text()) == before
        legal = deal.legal_moves()
        deal.push(legal[rng.randrange(len(legal))])
    with pytest.raises(DealOverError):
        deal.push("P")


def test_hundreds_of_random_deals_through_every_preset() -> None:
    rng = random.Random(55)
    for i in range(1300):
        preset = PRESET_NAMES[i % len(PRESET_NAMES)]
        deal = Deal55.from_seed(Rules55.from_json(preset), i)
        random_play(deal, rng)
        r = deal.result()
        assert r["complete"] and (deal.thrown_in or sum(deal.points) in (25, 30))
