"""Options, presets, decks, teams and card notation of 56."""

from __future__ import annotations

import pytest

from fiftysix import Card, NotationError, Rules56, RulesError, Suit
from fiftysix.core.cards import parse_cards
from fiftysix.games.fifty_six import PRESETS, Deal56
from fiftysix.games.fifty_six.deal import deck


@pytest.mark.parametrize(("players", "deck_size", "hand"), [(4, 48, 12), (6, 48, 8), (8, 64, 8)])
def test_default_deck_per_number_of_players(players: int, deck_size: int, hand: int) -> None:
    r = Rules56.preset_named("56-6", players=players)
    assert (r.deck_size, r.hand_size) == (deck_size, hand)


@pytest.mark.parametrize(("players", "deck_size", "hand"), [(4, 32, 8), (8, 48, 6)])
def test_optional_decks(players: int, deck_size: int, hand: int) -> None:
    r = Rules56.preset_named("56-6", players=players, deck=deck_size)
    assert r.hand_size == hand and len(deck(r)) == deck_size


def test_deck_holds_56_points_and_every_card_twice() -> None:
    for players, size in [(4, 32), (4, 48), (6, 48), (8, 48), (8, 64)]:
        cards = deck(Rules56.preset_named("56-6", players=players, deck=size))
        pts = {"J": 3, "9": 2, "A": 1, "T": 1}
        assert sum(pts.get(c.rank_char, 0) for c in cards) == 56
        assert all(cards.count(c) == 2 for c in cards)


def test_deck_not_allowed_for_players() -> None:
    with pytest.raises(RulesError, match="deck=32 needs 4 players, not 6"):
        Rules56.preset_named("56-6", deck=32)


@pytest.mark.parametrize(("preset", "teams"), [
    ("56-4", [0, 1, 0, 1]), ("56-6", [0, 1, 0, 1, 0, 1]), ("56-pairs-6", [0, 1, 2, 0, 1, 2]),
    ("56-pairs-8", [0, 1, 2, 3, 0, 1, 2, 3]),
])
def test_teams(preset: str, teams: list[int]) -> None:
    r = Rules56.from_json(preset)
    assert list(r.team_of) == teams and r.n_teams == max(teams) + 1


def test_presets_match_the_spec_table() -> None:
    want = {
        "56-4": (4, "two", "standard", "reopens", "bid", "tables"),
        "56-6": (6, "two", "standard", "reopens", "bid", "tables"),
        "56-8": (8, "two", "standard", "reopens", "bid", "tables"),
        "56-pairs-6": (6, "pairs", "standard", "closes", "bid", "tables"),
        "56-pairs-8": (8, "pairs", "standard", "closes", "bid", "tables"),
        "56-announce": (6, "two", "announcements", "reopens", "chosen", "points"),
        "56-hidden": (6, "two", "standard", "reopens", "hidden", "tables"),
    }
    assert set(PRESETS) == set(want)
    for name, row in want.items():
        r = Rules56.from_json(name)
        assert (r.players, r.teams, r.bidding, r.double, r.trump, r.scoring) == row
        assert (r.multiplier, r.all_pass, r.tables) == ("x2x4", "28nt", 12)


def test_rules_json_round_trip() -> None:
    r = Rules56.preset_named("56-8", players=6, multiplier="plus1plus2")
    assert Rules56.from_json(r.to_json()) == r
    assert Rules56.from_json("56-6").to_json() == "56-6"
    assert r.to_json(full=True)["deck"] is None  # type: ignore[index]


@pytest.mark.parametrize("bad", [{"preset": "56-6", "players": 5}, {"preset": "56-6", "tables": 0},
                                 {"preset": "56-6", "claim": "yes"}, {"preset": "56-6", "players": True}])
def test_bad_option_values(bad: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        Rules56.from_json(bad)


@pytest.mark.parametrize(("option", "low", "high", "null"), [("tables", 1, 999, False), ("deals", 1, 9999, False),
                                                            ("target", 1, 99999, True)])
def test_numeric_options_take_each_whole_number_of_their_span_and_nothing_else(
        option: str, low: int, high: int, null: bool) -> None:
    for n in (low, low + 1, (low + high) // 2, high):
        assert getattr(Rules56.preset_named("56-6", **{option: n}), option) == n
    shown = f"{low}-{high}"
    for bad in (low - 1, high + 1, True, float(low), str(low), *(() if null else (None,))):
        with pytest.raises(RulesError, match=f"option {option} cannot be .*allowed: .*{shown}"):
            Rules56.preset_named("56-6", **{option: bad})
    if null:
        assert getattr(Rules56.preset_named("56-6", **{option: None}), option) is None


@pytest.mark.parametrize(("text", "canonical"), [
    ("JS", "JS"), ("js", "JS"), ("10♥", "TH"), ("10h", "TH"), ("T♦", "TD"), (" 9♣ ", "9C"), ("A♤", "AS"),
])
def test_lenient_card_notation(text: str, canonical: str) -> None:
    assert str(Card.parse(text, "J9ATKQ87")) == canonical


@pytest.mark.parametrize("text", ["JSS", "1H", "", "ZS", "2S", "J", "S"])
def test_malformed_cards(text: str) -> None:
    with pytest.raises(NotationError, match="ranks J 9 A T K Q 8 7"):
        Card.parse(text, "J9ATKQ87")


def test_cards_are_interned_values() -> None:
    assert Card.parse("JS") is Card.parse("j♠")
    assert Card.parse("JH").suit is Suit.HEARTS and Card.parse("JH").pretty == "J♥"
    assert [str(c) for c in parse_cards(["10S", "qh"])] == ["TS", "QH"]


def test_hands_are_sorted_by_suit_then_rank() -> None:
    d = Deal56.from_seed(Rules56.from_json("56-6"), seed=3)
    for hand in d.dealt:
        keys = [(c.suit, "J9ATKQ87".index(c.rank_char)) for c in hand]
        assert keys == sorted(keys)


def test_same_seed_same_hands_and_dealer() -> None:
    r = Rules56.from_json("56-8")
    a, b = Deal56.from_seed(r, seed=11), Deal56.from_seed(r, seed=11)
    assert a.dealt == b.dealt and a.dealer == b.dealer
    assert Deal56.from_seed(r, seed=12).dealt != a.dealt
