"""``sage``: ``pimc`` whose bids must gain the kit's measured margin over passing."""

from __future__ import annotations

import pytest

from fiftysix.bots.kits import kit_for
from fiftysix.bots.protocol import bot_from_spec
from fiftysix.bots.search.pimc import PimcBot
from fiftysix.bots.search.sage import SageBot
from fiftysix.views import view
from helpers.positions56 import auction_views, played_to


def test_the_margin_comes_from_the_kit_unless_given() -> None:
    assert SageBot(game="56").bid_margin == kit_for("56").sage_bid_margin == 0.4
    assert SageBot(game="55").bid_margin is None    # 55: pimc's own margin
    assert SageBot(game="56", bid_margin=0.7).bid_margin == 0.7
    bot = bot_from_spec("sage,bid_margin=0.2", seed=1, game="56")
    assert isinstance(bot, SageBot) and bot.bid_margin == 0.2


@pytest.mark.parametrize("preset", ["56-4", "56-6"])
def test_each_bid_is_valued_the_extra_margin_lower_and_nothing_else_changes(preset: str) -> None:
    """Same seed, same sampled deals: sage's value of every bid is pimc's less (0.4 − 0.05) at most (a bid's
    value is capped by where the opponents would outbid it), a pass or a double is valued alike, and when sage
    bids it makes pimc's bid."""
    extra = 0.4 - 0.05
    bids = lowered = 0
    for v in auction_views(preset, 6):
        if len(v["legal"]) < 2:  # type: ignore[arg-type]
            continue
        pimc, sage = PimcBot(seed=3, bid_samples=40, time_limit=None), SageBot(seed=3, bid_samples=40, time_limit=None)
        p_call, s_call = pimc.choose(v), sage.choose(v)
        p_scores, s_scores = pimc.last["scores"], sage.last["scores"]
        assert p_scores.keys() == s_scores.keys()
        for call, value in p_scores.items():
            if call in ("P", "X", "XX"):
                assert s_scores[call] == value
            else:   # the extra margin, unless what the opponents would outbid it with caps both (scores rounded)
                assert value - extra - 2e-3 <= s_scores[call] <= value + 2e-3
                lowered += s_scores[call] < value - extra / 2
                bids += 1
        if s_call not in ("P", "X", "XX"):
            assert s_call == p_call
    assert bids > 10 and lowered > 0


def test_sage_plays_its_cards_as_pimc() -> None:
    for seed in range(3):
        deal = played_to("56-6", seed, 4)
        v = view(deal, deal.to_move)
        pimc, sage = PimcBot(seed=5, samples=6, time_limit=None), SageBot(seed=5, samples=6, time_limit=None)
        assert sage.choose(v) == pimc.choose(v)
