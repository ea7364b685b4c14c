"""Cards, suits and calls typed with the emoji presentation selector (``4♠️``, ``28♥️``, as phone keyboards
type them) read as the plain symbols do, in both games; canonical text never carries the selector."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fiftysix.core.cards import CARDS, Card, Suit, parse_cards
from fiftysix.core.errors import NotationError
from fiftysix.games import game_of_preset
from fiftysix.games.fifty_five.deal import parse_discard, parse_trump
from fiftysix.games.fifty_six.calls import parse_call

EMOJI, TEXT = "\ufe0f", "\ufe0e"
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


# a suit letter of a card or call: after a rank, a number, + or -; before a number (H28); or alone (a trump)
SUIT_LETTER = re.compile(r"(?<=[0-9TJQKA+\-])[SHDC]$|^[SHDC](?=\d)|^[SHDC]$")


def with_selectors(text: str, selector: str) -> str:
    """``text`` with each suit letter of a card or call written as its symbol followed by ``selector``."""
    return " ".join(SUIT_LETTER.sub(lambda m: SYMBOLS[m.group()] + selector, token) for token in text.split())


@given(st.sampled_from(CARDS), st.sampled_from([EMOJI, TEXT]))
def test_every_card_reads_with_a_presentation_selector(card: Card, selector: str) -> None:
    typed = card.pretty + selector
    assert Card.parse(typed) is card
    assert str(Card.parse(typed)) == str(card) and selector not in str(card)
    assert Card.parse(" " + card.pretty.lower() + selector + " ") is card


@pytest.mark.parametrize("suit", list(Suit))
def test_suits_read_with_a_presentation_selector(suit: Suit) -> None:
    assert Suit.parse(suit.symbol + EMOJI) is suit
    assert parse_trump(suit.symbol + EMOJI).strain is suit


def test_a_selector_alone_is_still_malformed() -> None:
    with pytest.raises(NotationError, match="malformed card"):
        Card.parse("4" + EMOJI)
    with pytest.raises(NotationError, match="malformed suit"):
        Suit.parse(EMOJI)


@pytest.mark.parametrize("bidding", ["standard", "announcements"])
def test_56_calls_read_with_a_presentation_selector(bidding: str) -> None:
    texts = (["28H", "H28", "+2S", "29D", "30C"] if bidding == "standard"
             else ["30H", "+H", "1+S", "+1D", "2+C", "-H", "-2S", "29+H"])
    for text in texts:
        assert parse_call(with_selectors(text, EMOJI), bidding) == parse_call(text, bidding)


@pytest.mark.parametrize("preset", ["56-6", "56-announce", "56-hidden", "55", "55-6"])
def test_random_deals_replay_from_emoji_text(preset: str) -> None:
    """Every move of random deals, typed with selectors after each suit symbol, replays to the same deal."""
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    for seed in range(8):
        deal = game.new_deal(rules, seed=seed)
        typed = game.new_deal(rules, seed=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            legal = deal.legal_moves()
            move = legal[rng.randrange(len(legal))]
            deal.push(move)
            applied = typed.push(with_selectors(str(move), EMOJI if seed % 2 else TEXT))
            assert str(applied) == str(move)
        assert typed.moves_text() == deal.moves_text() and typed.result() == deal.result()
        assert not any(EMOJI in t or TEXT in t for t in typed.moves_text())


def test_55_cards_and_discards_read_with_a_presentation_selector() -> None:
    assert [str(c) for c in parse_cards("4♠️ 5♥️ A♦️ 10♣️")] == ["4S", "5H", "AD", "TC"]
    assert [str(c) for c in parse_discard("2♠️ 3♠️ 4♦️ 7♣️ 9♣️")] == ["2S", "3S", "4D", "7C", "9C"]
