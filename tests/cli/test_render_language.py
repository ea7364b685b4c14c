"""The terminal's table view and deal summary in Malayalam, drawn from many random deals of 56 and 55
(every preset family: teams, pairs, hidden trump, announcements, the kitty of 55): no English sentence word
is left, while the English drawing of the same views still speaks English."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fiftysix.bots import make_bot
from fiftysix.cli.common import parse_rules
from fiftysix.cli.render import contract_text, result_lines, trick_text, view_lines
from fiftysix.i18n import localize
from fiftysix.views import view
from helpers.words import english_words

PRESETS = ["56-4", "56-6", "56-pairs-6", "56-announce", "56-hidden", "55", "55-teams-4"]


def _deal_views(preset: str, seed: int) -> tuple[list[dict[str, Any]], dict[str, Any], str]:
    """The views of random seats along one deal played by the rules bot, and the deal's result."""
    game, rules = parse_rules(preset)
    match = game.new_match(rules, seed=seed)
    deal = match.new_deal()
    bots = [make_bot("rules", seed=seed * 10 + s, game=game.name) for s in range(deal.n)]
    pick = random.Random(seed)
    views = []
    while not deal.is_over:
        seat = deal.to_move
        if pick.random() < 0.3:
            views.append(view(deal, pick.randrange(deal.n), match))
        deal.push(bots[seat].choose(view(deal, seat)))
    views.append(view(deal, 0, match))
    return views, dict(match.finish(deal)), getattr(game, "side_word", "team")


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(6))
def test_views_and_summaries_have_no_english_words_in_malayalam(preset: str, seed: int) -> None:
    views, result, side = _deal_views(preset, seed)
    english: set[str] = set()
    for v in views:
        ml = view_lines(localize(v, "ml"), symbols=True, side_word=side, full_auction=True, lang="ml")
        assert english_words("\n".join(ml)) == set(), ml
        english |= english_words("\n".join(view_lines(v, symbols=True, side_word=side, full_auction=True)))
    summary = result_lines(localize(result, "ml"), side, lang="ml")
    assert english_words("\n".join(summary)) == set(), summary
    assert {"Auction", "Your", "hand"} <= english       # the same views in English are English


@pytest.mark.parametrize(("multiplier", "english", "malayalam"), [
    (1, "31 no-trumps by seat 4 (team 0)", "സീറ്റ് 4 (ടീം 0) വിളിച്ച 31 നോട്രംപ്"),
    (2, "31 no-trumps by seat 4 (team 0), doubled", "സീറ്റ് 4 (ടീം 0) വിളിച്ച 31 നോട്രംപ്, ഡബിൾ"),
    (4, "31 no-trumps by seat 4 (team 0), redoubled", "സീറ്റ് 4 (ടീം 0) വിളിച്ച 31 നോട്രംപ്, റീഡബിൾ"),
])
def test_a_contract_in_both_languages(multiplier: int, english: str, malayalam: str) -> None:
    contract = {"declarer": 4, "team": 0, "value": 31, "strain": "NT", "multiplier": multiplier}
    assert contract_text(contract) == english
    assert contract_text(contract, lang="ml") == malayalam


@pytest.mark.parametrize(("points", "english", "malayalam"), [
    (1, "seat 2 wins 1 point", "സീറ്റ് 2 കൈ പിടിച്ചു, 1 പോയിന്റ്"),
    (12, "seat 2 wins 12 points", "സീറ്റ് 2 കൈ പിടിച്ചു, 12 പോയിന്റ്"),
])
def test_a_trick_counts_its_points_with_plural_forms(points: int, english: str, malayalam: str) -> None:
    trick = {"leader": 1, "cards": ["JS", "9S", "AS", "TS"], "winner": 2, "points": points}
    assert trick_text(trick, 4).endswith(english)
    assert trick_text(trick, 4, lang="ml").endswith(malayalam)


def test_scores_use_indian_grouping_in_malayalam() -> None:
    lines = result_lines({"points": [123456, 0], "contract": None, "complete": True}, "side", lang="ml")
    assert lines[0] == "പോയിന്റ്: കൂട്ടർ 0: 1,23,456, കൂട്ടർ 1: 0"
    assert result_lines({"score": [-123456, 1000]}, lang="ml")[-1] == "സ്കോർ: ടീം 0: -1,23,456, ടീം 1: +1,000"
    assert result_lines({"score": [-123456, 1000]})[-1] == "Score: team 0: -123456, team 1: +1000"
