"""The games/bots seam: each game's play rule is defined once and everything agrees with it; nothing outside
``games/`` branches on a game's name; the GameSpec gives what generic code needs (bid forms, structured legal
moves, the create form's descriptions)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.bots.heuristic.knowledge import Table
from fiftysix.core.cards import Card
from fiftysix.core.deal import AUCTION, PLAY, Deal
from fiftysix.core.moves import PASS
from fiftysix.games import GAMES, game_of_preset, resolve_rules
from fiftysix.games.fifty_six.calls import legal_bids
from fiftysix.games.fifty_six.forms import FORMS
from fiftysix.solver import Position
from fiftysix.views import view

SRC = Path(__file__).resolve().parents[2] / "src" / "fiftysix"
TRUMP_PRESETS = ["56-6", "56-4", "56-8", "56-pairs-6", "56-announce", "55", "55-teams-4", "55-7"]


def random_deal_to_play(preset: str, seed: int) -> Deal:
    """A deal of ``preset`` with a random auction (bids more often than passes, so that suits are trumps),
    pushed to its play phase."""
    game = game_of_preset(preset)
    rng = random.Random(seed)
    while True:
        deal = game.new_deal(game.rules_from_json(preset), seed=rng.randrange(1 << 30))
        while not deal.is_over and deal.phase != PLAY:
            legal = deal.legal_moves()
            if deal.phase == AUCTION:
                move = PASS if PASS in legal and rng.random() < 0.7 else rng.choice(legal[:12])
            else:
                move = rng.choice(legal)
            deal.push_unchecked(move)
        if deal.phase == PLAY:
            return deal


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(TRUMP_PRESETS), st.integers(0, 10**6))
def test_engine_solver_and_bots_agree_with_the_play_rule(preset: str, seed: int) -> None:
    """Over random deals played out at random: every trick the engine scores, the solver's position after the
    trick's last card, and the 56 bots' reading of the trick so far (knowledge.Table) name the winner that the
    game's ``trick_winner`` names, and the engine's points are the rule's ``trick_points``."""
    deal = random_deal_to_play(preset, seed)
    game = GAMES[deal.game]
    rule = game.play
    rng = random.Random(seed)
    while not deal.is_over:
        legal = [m for m in deal.legal_moves() if isinstance(m, Card)]
        card = rng.choice(legal)
        trump = game.play_state(deal).trump
        leader, before = deal.trick_leader, list(deal.trick_cards)
        if before and deal.game == "56":
            table = Table(view(deal, deal.to_move))
            seen = table.current_winner()
            assert seen is not None and seen[0] == rule.trick_winner(before, trump)
        if len(before) == deal.n - 1:
            after = Position.from_deal(deal).play(card)
            assert after.leader == (leader + rule.trick_winner([*before, card], trump)) % deal.n
        deal.push_unchecked(card)
        if not deal.trick_cards and deal.tricks:
            done = deal.tricks[-1]
            assert done.cards == (*before, card)
            assert done.winner == (done.leader + rule.trick_winner(done.cards, trump)) % deal.n
            assert done.points == rule.trick_points(done.cards)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["56", "55"]), st.data())
def test_trick_winner_is_a_highest_card_and_the_first_of_equals(name: str, data: st.DataObject) -> None:
    """On random tricks: no later card beats the winner, and the winner beats every card before it (an
    identical earlier card would win: of two identical cards the first wins)."""
    rule = GAMES[name].play
    game = GAMES[name]
    deck = game.deck(game.rules_from_json(game.default_preset))
    cards = data.draw(st.lists(st.sampled_from(deck), min_size=2, max_size=8))
    trump = data.draw(st.sampled_from([None, *{c.suit for c in deck}] if name == "56" else
                                      sorted({c.suit for c in deck})))
    w = rule.trick_winner(cards, trump)
    for i in range(len(cards)):
        # the winner also wins the trick of the lead, itself and any other card (in play order)
        order = sorted({0, w, i})
        trick = [cards[k] for k in order]
        assert order[rule.trick_winner(trick, trump)] == w, (cards, trump, i)


BRANCH = re.compile(r"""(game["'\])]*|\.name)\s*(?:[!=]=|(?:not\s+)?in)\s*[("'\[{]*5[56]["']"""
                    r"""|["']5[56]["']\s*(?:[!=]=|(?:not\s+)?in)\s*\w""")
"""A comparison with a game's name: ``game == "56"``, ``view.get("game") != "55"``, ``v["game"] in ("56",)``,
``kit.name == "56"``, ``"56" == game``."""


@pytest.mark.parametrize("line", ['if game == "56":', 'view.get("game") != "56" or x', 'v["game"] == \'55\'',
                                  'if view.get("game") in ("56", "x"):', 'kit.name != "55"', '"56" == game'])
def test_the_scan_for_game_name_branches_sees_each_form(line: str) -> None:
    assert BRANCH.search(line)


def test_no_module_outside_games_branches_on_a_game_name() -> None:
    branch = BRANCH
    found = []
    for path in SRC.rglob("*.py"):
        if "games" in path.relative_to(SRC).parts[:1]:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if branch.search(line):
                found.append(f"{path.relative_to(SRC)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def test_no_module_outside_games_imports_a_private_game_module() -> None:
    """Bots, solver, arena, server, CLI, research adapters, records and views reach only the game packages
    themselves (their ``__init__`` names), never their inner modules."""
    private = re.compile(r"from \.+games\.fifty_\w+\.\w+ import|(from|import) fiftysix\.games\.fifty_\w+\.\w+")
    found = []
    for path in SRC.rglob("*.py"):
        if "games" in path.relative_to(SRC).parts[:1]:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if private.search(line):
                found.append(f"{path.relative_to(SRC)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_checks_above_scan_the_research_adapters() -> None:
    """The research adapters (written beside the seam) are among the modules the two scans above read."""
    scanned = {p.relative_to(SRC).as_posix() for p in SRC.rglob("*.py")}
    assert {"research/table.py", "research/openspiel.py", "research/pettingzoo.py"} <= scanned


def test_every_56_bid_form_is_in_the_one_table() -> None:
    """A bid form the calls can produce but the table does not describe would have no words and no claims."""
    forms = set()
    for bidding in ("standard", "announcements"):
        for current in (27, 28, 30, 40):
            bids, _ = legal_bids(bidding, current, current == 27, 3, 12)
            forms.update(b.form for b in bids)
    assert forms <= set(FORMS), forms - set(FORMS)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["56-6", "56-hidden", "56-announce", "55", "55-teams-6"]), st.integers(0, 10**6))
def test_structured_legal_moves_match_the_legal_moves(preset: str, seed: int) -> None:
    game = game_of_preset(preset)
    deal = game.new_deal(game.rules_from_json(preset), seed=seed)
    rng = random.Random(seed)
    while not deal.is_over:
        legal = deal.legal_moves()
        moves = game.legal_moves(deal)
        assert [m.move for m in moves] == [str(m) for m in legal]
        for m, raw in zip(moves, legal, strict=True):
            assert (m.kind == "card") == isinstance(raw, Card)
            if isinstance(raw, Card):
                assert m.suit == raw.suit.letter and m.label == raw.pretty
            assert m.label
        if deal.phase == AUCTION and PASS in legal and rng.random() < 0.7:
            deal.push_unchecked(PASS)
        else:
            deal.push_unchecked(rng.choice(legal[:12]))


def test_presets_and_option_values_have_descriptions() -> None:
    for game in GAMES.values():
        assert set(game.preset_descriptions) == set(game.presets())
        assert all(text.endswith(".") for text in game.preset_descriptions.values())
        for option, meanings in game.option_descriptions.items():
            allowed = {str(v).lower() if isinstance(v, bool) else str(v) for v in game.choices[option]}
            assert set(meanings) <= allowed, (option, set(meanings) - allowed)


def test_preset_to_game_and_rules_in_one_place() -> None:
    for name, game in GAMES.items():
        for preset in game.presets():
            found, rules = resolve_rules(preset)
            assert found is game and rules.game == name and rules.preset == preset
    found, rules = resolve_rules({"preset": "56-4", "deck": 32})
    assert found.name == "56" and rules.deck_size == 32
    assert resolve_rules(None)[1].preset == GAMES["56"].default_preset


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["56-6", "56-hidden", "55", "55-teams-4"]), st.integers(0, 10**6))
def test_an_observation_is_the_view_typed(preset: str, seed: int) -> None:
    deal = random_deal_to_play(preset, seed)
    game = GAMES[deal.game]
    for seat in range(deal.n):
        v = view(deal, seat)
        obs = game.observe(v)
        assert obs.seat == seat and obs.rules == deal.rules and obs.n == deal.n
        assert [str(c) for c in obs.hand] == v["hand"]
        assert list(obs.hand_sizes) == v["hand_sizes"] and list(obs.auction) == v["auction"]
        assert obs.legal == (tuple(v["legal"]) if "legal" in v else None)
        assert obs.contract_team == deal.contract.team
        assert [(s, str(c)) for s, c in obs.plays()] == [
            ((t["leader"] + i) % deal.n, c) for t in [*v["tricks"], v["trick"]] if t for i, c in enumerate(t["cards"])]


def test_a_view_of_another_game_is_refused() -> None:
    deal56 = random_deal_to_play("56-6", 1)
    deal55 = random_deal_to_play("55", 1)
    with pytest.raises(ValueError, match="not a view of the game 55"):
        GAMES["55"].observe(view(deal56, 0))
    with pytest.raises(TypeError, match="Observation56"):
        GAMES["56"].sampler(GAMES["55"].observe(view(deal55, 0)))
    broken = {**view(deal56, 0), "hand_sizes": "many"}
    with pytest.raises(ValueError, match="list of numbers"):
        GAMES["56"].observe(broken)


COMMON_KEYS = ["game", "rules", "seat", "dealer", "to_move", "phase", "hand", "hand_sizes", "auction",
               "auction_meanings", "contract", "tricks", "trick", "points", "match"]
GAME_KEYS = {"56": ["trump", "trump_hidden", "declarer"],
             "55": ["kitty_size", "trump", "bidder", "discard", "highest_trump"]}


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["56-6", "56-hidden", "55", "55-teams-4"]), st.integers(0, 10**6))
def test_a_view_keeps_its_fields_in_the_order_views_have_always_had(preset: str, seed: int) -> None:
    """The JSON is written from the observation; what leaves the process keeps the order of 5e41198's views."""
    deal = random_deal_to_play(preset, seed)
    for seat in [None, *range(deal.n)]:
        tail = ["legal"] if seat is not None and seat == deal.to_move else []
        assert list(view(deal, seat)) == [*COMMON_KEYS, *GAME_KEYS[deal.game], *tail]
