"""56 scoring: the payment table, doubles, tables and points, and matches deal after deal."""

from __future__ import annotations

import random

import pytest

from fiftysix import Match56, Rules56, check, deal_record
from fiftysix.games.fifty_six.auction import Contract
from fiftysix.games.fifty_six.scoring import deal_score, pay_tables, payment
from helpers.h56 import FOUR_32, make, push_all


@pytest.mark.parametrize(("value", "expected"), [
    (28, (1, 2)), (39, (1, 2)), (40, (2, 3)), (47, (2, 3)), (48, (3, 4)), (55, (3, 4)), (56, (4, 5)),
])
def test_payment_table(value: int, expected: tuple[int, int]) -> None:
    assert payment(value) == expected


@pytest.mark.parametrize(("mult", "option", "made", "expected"), [
    (1, "x2x4", True, [2, -2]), (2, "x2x4", True, [4, -4]), (4, "x2x4", False, [-12, 12]),
    (2, "plus1plus2", True, [3, -3]), (4, "plus1plus2", False, [-5, 5]),
])
def test_multiplier_options(mult: int, option: str, made: bool, expected: list[int]) -> None:
    rules = Rules56.preset_named("56-6", multiplier=option)
    assert deal_score(rules, Contract(0, 0, 40, None, mult), made) == expected


def test_points_scoring_credits_without_taking() -> None:
    rules = Rules56.preset_named("56-pairs-6", scoring="points")      # three teams
    assert deal_score(rules, Contract(1, 1, 30, None, 1), True) == [0, 2, 0]
    assert deal_score(rules, Contract(1, 1, 30, None, 1), False) == [2, 0, 2]


def test_tables_scoring_with_three_teams() -> None:
    rules = Rules56.preset_named("56-pairs-6")
    assert deal_score(rules, Contract(2, 2, 48, None, 1), True) == [-3, -3, 6]


def test_a_team_pays_at_most_what_it_has_in_seat_order_after_the_declarer() -> None:
    rules = Rules56.preset_named("56-pairs-6")     # teams: seat % 3
    contract = Contract(2, 2, 56, None, 1)          # failing 56 owes 5 to each other team
    change = pay_tables(rules, contract, False, [12, 12, 7])
    # seats after the declarer (2): 3 (team 0) first, then 4 (team 1)
    assert change == [5, 2, -7]
    made = pay_tables(rules, contract, True, [3, 12, 7])
    assert made == [-3, -4, 7]


def test_deal_result_score_follows_the_contract() -> None:
    d = push_all(make("56-4", FOUR_32, deck=32), "28H X P P P")
    while not d.is_over:
        d.push(d.legal_moves()[0])
    r = d.result()
    team = d.contract.team  # type: ignore[union-attr]
    assert r["made"] == (r["points"][team] >= 28)
    assert r["score"][team] == (2 if r["made"] else -4)


def play_out(deal, rng: random.Random) -> None:
    while not deal.is_over:
        legal = deal.legal_moves()
        deal.push(legal[rng.randrange(len(legal))])


def test_match_rotates_the_dealer_and_ends_with_one_team_left() -> None:
    rules = Rules56.preset_named("56-4", tables=30)
    match = Match56(rules, first_dealer=2, seed=5)
    rng = random.Random(5)
    dealers = []
    while not match.over:
        deal = match.new_deal()
        dealers.append(deal.dealer)
        play_out(deal, rng)
        match.finish(deal)
    assert dealers[:3] == [2, 3, 0]
    assert match.winner is not None and match.standings[match.winner] > 0
    assert min(match.standings) == 0 and sum(match.standings) == 60


def test_pairs_elimination_reseats_survivors_with_their_deck() -> None:
    rules = Rules56.preset_named("56-pairs-8", tables=2)
    match = Match56(rules, first_dealer=0, seed=3)
    rng = random.Random(3)
    seen_players = set()
    while not match.over:
        deal = match.new_deal()
        seen_players.add((deal.rules.players, deal.rules.deck_size, deal.rules.n_teams))
        play_out(deal, rng)
        match.finish(deal)
    assert (8, 64, 4) in seen_players
    assert any(p < 8 for p, _, _ in seen_players)
    for players, deck, teams in seen_players:
        assert deck == {8: 64, 6: 48, 4: 48}[players] and teams == players // 2
    assert match.winner is not None and sum(1 for t in match.standings if t > 0) == 1


def test_points_match_ends_after_the_set_number_of_deals() -> None:
    rules = Rules56.preset_named("56-announce", deals=3)
    match = Match56(rules, seed=9)
    rng = random.Random(9)
    while not match.over:
        deal = match.new_deal()
        play_out(deal, rng)
        match.finish(deal)
    assert len(match.results) == 3


def test_points_match_ends_at_the_target() -> None:
    rules = Rules56.preset_named("56-6", scoring="points", target=3, deals=100)
    match = Match56(rules, seed=2)
    rng = random.Random(2)
    while not match.over:
        deal = match.new_deal()
        play_out(deal, rng)
        match.finish(deal)
    assert max(match.standings) >= 3 and len(match.results) < 100


def _match_record(preset: str, seed: int, **options: object) -> dict[str, object]:
    rules = Rules56.preset_named(preset, **options)
    match = Match56(rules, seed=seed)
    rng = random.Random(seed)
    deals = []
    while not match.over:
        deal = match.new_deal()
        play_out(deal, rng)
        match.finish(deal)
        deals.append(deal_record(deal))
    return {"game": "56", "rules": rules.to_json(), "deals": deals, "_match": match}


def test_match_record_checks_to_the_same_standings() -> None:
    rec = _match_record("56-pairs-8", 4, tables=3)
    match = rec.pop("_match")
    result = check(rec)
    assert result["valid"] is True
    assert result["standings"] == match.standings and result["winner"] == match.winner
    assert len(result["deals"]) == len(match.results)


def test_match_record_errors() -> None:
    rec = _match_record("56-4", 6, tables=50)
    rec.pop("_match")
    deals = rec["deals"]
    assert isinstance(deals, list)
    bad = dict(rec, deals=[deals[0], dict(deals[1], dealer=(deals[1]["dealer"] + 1) % 4)])
    r = check(bad)
    assert (r["valid"], r["field"], r["index"], r["deal_field"]) == (False, "deals", 1, "dealer")
    extra = dict(rec, deals=[*deals, deals[-1]])
    r = check(extra)
    assert r["valid"] is False and "match is over" in r["error"]
    unfinished = dict(deals[0], play=deals[0]["play"][:5])
    r = check(dict(rec, deals=[unfinished, deals[1]]))
    assert r["valid"] is False and "unfinished" in r["error"]
