"""Translation at the edges: the rules' structured meanings (English as ``str``) come out in Malayalam for
every bid form of 56 (both bidding systems) and 55, with nothing left untranslated; numbers in Indian
grouping; the language chosen from the cookie or ``Accept-Language``."""

from __future__ import annotations

import pickle
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.core.meaning import Meaning
from fiftysix.games import GAMES
from fiftysix.i18n import catalogue, choose, indian, localize, translate

MALAYALAM = re.compile(r"[\u0d00-\u0d7f]")
LETTERS = re.compile(r"[a-z]{3,}")           # an English word left in a translation


def _auction_meanings(preset: str, seed: int) -> list[str]:
    """The meanings of a whole random auction of ``preset``."""
    game = next(g for g in GAMES.values() if preset in g.presets())
    rules = game.rules_from_json(preset)
    deal = game.new_deal(rules, seed=seed)
    rng = random.Random(seed)
    calls = 0
    while deal.phase == "auction" and calls < 200:
        legal = deal.legal_moves()
        move = rng.choice(legal) if rng.random() < 0.7 or len(legal) == 1 else legal[-1]
        deal.push(move)
        calls += 1
    return [game.describe_call(deal, i) for i in range(calls)]


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(["56-6", "56-4", "56-8", "56-announce", "56-hidden", "55", "55-teams-4"]),
       seed=st.integers(0, 10**6))
def test_every_meaning_of_a_random_auction_is_translated(preset: str, seed: int) -> None:
    for meaning in _auction_meanings(preset, seed):
        assert isinstance(meaning, Meaning), meaning
        assert catalogue("ml").gettext(meaning.msgid) != meaning.msgid, meaning.msgid
        ml = translate(meaning, "ml")
        assert MALAYALAM.search(ml), ml
        assert "{" not in ml and not LETTERS.search(ml.replace("all_pass", "").replace("dealer", "")), ml
        assert translate(meaning, "en") == str(meaning)


def test_a_meaning_is_its_english_text_and_survives_pickling() -> None:
    m = Meaning("seat {seat} belongs to {name}", {"seat": 2, "name": "Asha"})
    assert m == "seat 2 belongs to Asha" and m.msgid.startswith("seat {seat}")
    back = pickle.loads(pickle.dumps(m))
    assert back == m and back.msgid == m.msgid and back.params == m.params
    assert translate(back, "ml") == "സീറ്റ് 2 Asha-ന്റേതാണ്"    # a player's name is never translated


def test_localize_translates_meanings_anywhere_and_leaves_the_rest() -> None:
    message = {"view": {"auction_meanings": [Meaning("pass")], "auction": ["P"]}, "name": "pass"}
    out = localize(message, "ml")
    assert out["view"]["auction_meanings"] == ["പാസ്"]
    assert out["view"]["auction"] == ["P"] and out["name"] == "pass"       # notation and names stay
    assert localize(message, "en") is message


@given(st.integers(-10**15, 10**15))
def test_indian_grouping_matches_the_cldr_pattern(n: int) -> None:
    babel_numbers = pytest.importorskip("babel.numbers")
    assert indian(n) == babel_numbers.format_decimal(n, locale="en_IN")


@pytest.mark.parametrize(("header", "cookie", "expected"), [
    ("ml-IN,ml;q=0.9,en;q=0.8", None, "ml"),
    ("en-GB,en;q=0.9,ml;q=0.8", None, "en"),
    ("en;q=0.5, ml;q=0.9", None, "ml"),
    ("ta-IN, fr", None, "en"),
    ("ml;q=0", None, "en"),
    ("", None, "en"),
    (None, None, "en"),
    ("garbage;;q=x, ml", None, "ml"),
    ("ml-IN", "en", "en"),                # the player's choice wins over the browser
    ("en", "ml", "ml"),
    ("en", "xx", "en"),                   # an unknown cookie is ignored
])
def test_language_choice(header: str | None, cookie: str | None, expected: str) -> None:
    assert choose(header, cookie) == expected


@settings(max_examples=15, deadline=None)
@given(preset=st.sampled_from(["56-6", "56-4", "56-announce", "56-hidden", "55", "55-teams-4"]),
       seed=st.integers(0, 10**6))
def test_a_refused_move_is_explained_in_malayalam(preset: str, seed: int) -> None:
    """Any move the rules refuse (a call or card not legal now, or a move for the wrong seat) says why in
    Malayalam, with its parameters filled (notation and cards stay as written)."""
    from fiftysix.core.errors import IllegalMoveError, NotationError

    game = next(g for g in GAMES.values() if preset in g.presets())
    deal = game.new_deal(game.rules_from_json(preset), seed=seed)
    rng = random.Random(seed)
    refused = 0
    for _ in range(300):
        if deal.is_over:
            break
        legal = deal.legal_moves()
        vocabulary = [str(c) for c in game.call_vocabulary(deal.rules)] + [str(c) for c in deal.hands[deal.to_move]]
        wrong = [m for m in vocabulary if m not in {str(x) for x in legal}]
        for attempt in ([rng.choice(wrong)] if wrong else []):
            try:
                deal.push(attempt, seat=deal.to_move)
            except IllegalMoveError as err:
                refused += 1
                why = translate(err.args[0], "ml")
                assert MALAYALAM.search(why) and "{" not in why, (attempt, str(err), why)
            except NotationError:
                pass             # not a move of this phase at all (a call's text while trumps are named)
        try:
            deal.push(str(legal[0]), seat=(deal.to_move + 1) % deal.n)     # not this seat's turn
        except IllegalMoveError as err:
            refused += 1
            assert MALAYALAM.search(translate(err.args[0], "ml"))
        deal.push(rng.choice(legal))
    assert refused > 0
