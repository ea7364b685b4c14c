"""The auction's one-step path for the deal's calls (``Auction56.push_if_legal``) against its parts:
``is_legal`` says which calls it takes, ``push_unchecked`` what they do, ``legal`` what follows; a call it
refuses changes nothing.  Random auctions of every bidding system, offering legal and illegal calls."""

from __future__ import annotations

import contextlib
import copy
import random

from hypothesis import given
from hypothesis import strategies as st

from fiftysix.core.errors import NotationError
from fiftysix.games import game_of_preset
from fiftysix.games.fifty_six.calls import parse_call

OPTIONS = [{}, {"bidding": "announcements"}, {"double": "closes"}, {"all_pass": "forced"}]
# calls that are often illegal: too low, not yet allowed, the other system's forms, doubles at the wrong time
STRANGERS = ["28H", "27S", "+2H", "29NOES", "X", "XX", "P", "NOS", "PP", "-H", "56NT", "+1H"]


def _state(auction: object) -> dict[str, object]:
    return {k: (v[:] if isinstance(v, list) else v) for k, v in vars(auction).items() if k not in ("_legal",
            "_specials", "_bid_texts")}


@given(st.integers(0, 2**32), st.sampled_from(range(len(OPTIONS))))
def test_push_if_legal_is_is_legal_then_push_unchecked(seed: int, option: int) -> None:
    game = game_of_preset("56-6")
    rules = game.rules_from_json({"preset": "56-6", **OPTIONS[option]})
    deal = game.new_deal(rules, seed=seed)
    rng = random.Random(seed)
    auction = deal.auction
    for _ in range(40):
        if auction.done:
            break
        offered = [rng.choice(auction.legal())]
        for text in rng.sample(STRANGERS, 3):
            with contextlib.suppress(NotationError):    # not a call of this bidding system
                offered.append(parse_call(text, rules.bidding)[0])
        for call in offered:
            legal = auction.is_legal(call)
            twin = copy.deepcopy(auction)
            before = _state(auction)
            after = auction.push_if_legal(call)
            if not legal:
                assert after is None and _state(auction) == before
                continue
            twin.push_unchecked(call)
            assert _state(auction) == _state(twin)
            assert after == (() if twin.done else twin.legal())
            break
