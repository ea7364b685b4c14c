"""The trust detectors on hand-made positions, ``pimc`` and ``kermit`` never overtaking a teammate's sure trick,
and the optional ``reason`` of a decision (in the protocol too)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from fiftysix.bots import RandomBot, make_bot
from fiftysix.bots.heuristic.trust56 import broken_promise, must_open, overtake_avoidable, overtakes, sure_for_partner
from fiftysix.bots.protocol import run_bot
from fiftysix.bots.search.kermit import KermitBot
from fiftysix.bots.search.pimc import PimcBot
from fiftysix.bots.why import MAX_REASON
from fiftysix.games import game_of_preset
from fiftysix.views import view


def base_view(phase: str) -> dict[str, Any]:
    """A real 56-4 view at its first call or first card, to edit into a hand-made position."""
    game = game_of_preset("56-4")
    rules = game.rules_from_json("56-4")
    deal = game.new_deal(rules, seed=3)
    bot = make_bot("rules", seed=1, game="56")
    while deal.phase != phase:
        deal.push(bot.choose(view(deal, deal.to_move)))
    return dict(view(deal, deal.to_move))


def play_view(trick: list[str], hand: list[str], legal: list[str], trump: str | None, hidden: bool = False,
              tricks: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Seat 2 to play; partner is seat 0, who led ``trick[0]`` (seat 1 played ``trick[1]``); seat 3 is last."""
    v = base_view("play")
    v.update(seat=2, to_move=2, hand=hand, legal=legal, trick={"leader": 0, "cards": trick},
             tricks=tricks or [], trump=trump, trump_hidden=hidden, auction=[])
    return v


SEAT3_VOID_IN_SPADES = [{"leader": 0, "cards": ["AS", "TS", "KS", "QD"], "winner": 0, "points": 3}]
"""A spade trick in which seat 3 (last) showed it has no spades."""


def test_a_ruff_of_partners_sure_trick_is_an_avoidable_overtake() -> None:
    # partner's JH is the top heart (the other JH could only tie, and a tie does not beat the first card); I am
    # void in hearts; seat 3 has shown it has no spades, so it cannot ruff
    v = play_view(["JH", "QH"], ["9S", "KD"], ["9S", "KD"], "S", tricks=SEAT3_VOID_IN_SPADES)
    assert sure_for_partner(v)
    assert overtakes(v, "9S") and not overtakes(v, "KD")
    assert overtake_avoidable(v) == ["KD"]


def test_not_sure_when_a_later_player_may_ruff_or_hold_a_higher_card() -> None:
    # seat 3 has shown no void in spades: it may be void in hearts and ruff
    assert not sure_for_partner(play_view(["JH", "QH"], ["9S", "KD"], ["9S", "KD"], "S"))
    # partner's AH: a jack or nine of hearts is still out, and seat 3 may hold it
    assert not sure_for_partner(play_view(["AH", "QH"], ["9S", "KD"], ["9S", "KD"], "S",
                                          tricks=SEAT3_VOID_IN_SPADES))
    # a hidden trump I do not know: anyone void may ask for it and ruff
    assert not sure_for_partner(play_view(["JH", "QH"], ["9S", "KD"], ["9S", "KD", "?"], None, hidden=True))
    # the opponent is winning: nothing to protect
    assert not sure_for_partner(play_view(["QH", "JH"], ["9S", "KD"], ["9S", "KD"], "S",
                                          tricks=SEAT3_VOID_IN_SPADES))


def test_no_trumps_and_the_top_cards_out_make_it_sure() -> None:
    # no trumps: only a higher heart beats partner's AH, and both jacks and nines are accounted for
    tricks = [{"leader": 0, "cards": ["JH", "JH", "9H", "9H"], "winner": 0, "points": 10}]
    v = play_view(["AH", "QH"], ["TH", "KD"], ["TH"], None, tricks=tricks)
    assert sure_for_partner(v)
    assert not overtakes(v, "TH")
    assert overtake_avoidable(v) == ["TH"]


def auction_view(hand: list[str], auction: list[str] | None = None) -> dict[str, Any]:
    v = base_view("auction")
    v.update(hand=hand, auction=auction or [])
    return v


def test_a_bid_form_promise_is_checked_against_the_hand() -> None:
    with_jack = ["JH", "9H", "AH", "TH", "KS", "QS", "KD", "QC"]
    without = ["9H", "9H", "AH", "TH", "KS", "QS", "KD", "QC"]
    assert not broken_promise(auction_view(with_jack), "28H")     # 28H: holds the JH
    assert broken_promise(auction_view(without), "28H")
    assert not broken_promise(auction_view(without), "H28")       # H28: without it
    assert broken_promise(auction_view(with_jack), "H28")
    assert not broken_promise(auction_view(with_jack), "P")


def test_must_open_counts_a_long_suit_with_its_jack_and_nine() -> None:
    strong = ["JH", "9H", "AH", "QH", "KS", "QS", "KD", "QC"]
    assert must_open(auction_view(strong))
    assert must_open(auction_view(strong, ["P"]))
    assert not must_open(auction_view(strong, ["28H"]))
    assert not must_open(auction_view(["JH", "9H", "AH", "KS", "QS", "KD", "QC", "QD"]))   # three hearts


def test_pimc_keeps_off_a_sure_trick_of_its_teammate_unless_told_not_to() -> None:
    v = play_view(["JH", "QH"], ["9S", "KD"], ["9S", "KD"], "S", tricks=SEAT3_VOID_IN_SPADES)
    bot = PimcBot(seed=1, samples=4)
    assert bot.choose(v) == "KD" and bot.last["how"] == "trust"
    assert bot.reason is not None and "sure" in bot.reason
    free = PimcBot(seed=1, samples=4, trusty=False)
    assert free.choose(v) in ("9S", "KD") and free.last["how"] != "trust"


class _Lost(PimcBot):
    """A ``pimc`` whose search always fails, so that its rules-card fallback decides."""

    def sampler(self, view: Any) -> Any:
        raise RuntimeError("no deal agrees with the view")


def test_pimc_keeps_off_a_sure_trick_also_when_its_search_fails() -> None:
    # no trumps; seat 3 (last) has shown it has no clubs, so partner's AC is sure; my 9C would take it, and it is
    # the card the rules bot (the fallback) plays here
    seat3_void_in_clubs = [{"leader": 0, "cards": ["AC", "TC", "KC", "QD"], "winner": 0, "points": 3}]
    v = play_view(["AC", "QD"], ["9C", "TC", "KC", "KD"], ["9C", "TC", "KC"], None, tricks=seat3_void_in_clubs)
    assert overtake_avoidable(v) == ["TC", "KC"]
    assert make_bot("rules", seed=1, game="56").choose(v) == "9C"
    bot = _Lost(seed=1, samples=4)
    assert bot.choose(v) in ("TC", "KC")
    assert bot.last["how"] == "fallback"


@pytest.mark.parametrize(("maker", "seed"), [(m, s) for m in (KermitBot, PimcBot) for s in range(3)])
def test_pimc_and_kermit_never_overtake_a_teammates_sure_trick(maker: type[PimcBot], seed: int) -> None:
    game = game_of_preset("56-4")
    rules = game.rules_from_json("56-4")
    deal = game.new_deal(rules, seed=100 + seed)
    bots = [maker(seed=s, bid_samples=16, samples=4) for s in range(rules.players)]
    chances = 0
    while not deal.is_over:
        v = view(deal, deal.to_move)
        move = bots[deal.to_move].choose(v)
        if deal.phase == "play" and overtake_avoidable(v):
            chances += 1
            assert not overtakes(v, move), (v, move)
        reason = bots[deal.to_move].reason
        assert reason is None or (isinstance(reason, str) and 0 < len(reason) <= MAX_REASON)
        deal.push(move)


def serve(bot: Any, game_seed: int = 5) -> list[dict[str, Any]]:
    """Every answer of ``bot`` over the protocol to the views of one 56-4 deal played by it."""
    game = game_of_preset("56-4")
    rules = game.rules_from_json("56-4")
    deal = game.new_deal(rules, seed=game_seed)
    lines = [json.dumps({"type": "hello", "protocol": 1, "game": "56", "rules": "56-4", "seat": 0})]
    driver = make_bot("rules", seed=1, game="56")
    while not deal.is_over:
        v = view(deal, deal.to_move)
        lines.append(json.dumps({"type": "move", "view": v}))
        deal.push(driver.choose(v))
    lines.append(json.dumps({"type": "bye"}))
    out = io.StringIO()
    run_bot(bot, io.StringIO("\n".join(lines) + "\n"), out, io.StringIO())
    return [json.loads(x) for x in out.getvalue().splitlines() if json.loads(x)["type"] == "move"]


def test_the_reason_is_optional_and_well_formed_in_the_protocol() -> None:
    answers = serve(KermitBot(seed=1, bid_samples=16, samples=4))
    assert answers and all(isinstance(a["reason"], str) and 0 < len(a["reason"]) <= MAX_REASON for a in answers)
    assert any(a["reason"].startswith(("plays the", "bids", "passes")) for a in answers)
    plain = serve(RandomBot(1))
    assert plain and all("reason" not in a for a in plain)
