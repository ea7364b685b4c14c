"""``oracle``: the all-seeing bot, the ceiling of what play and calls can reach (arena only).

It is ``pimc`` whose every "sampled" deal is the true deal: the calls are simulated on the real hands and the
cards are solved double dummy on them (one solve a card, as deep as ``pimc`` solves; earlier it plays the
``rules`` card, as ``pimc`` does). So the gap between ``pimc`` and the oracle is what ``pimc`` loses by not
knowing the hands, not by searching less deep. It is not a bot in :data:`fiftysix.bots.BOTS`: it has no
``choose(view)`` at all (a view cannot tell it the other hands), only :meth:`Oracle.choose_seeing`, which takes
the whole deal, and only the arena (:mod:`.duplicate`) calls it. So the server's bot list, ``fiftysix bot``
and ``bot_from_spec`` cannot make one.

``oracle,calls=rules`` makes every call (auction, trump choice, 55's discard) as the game's ``rules`` bot does and
sees the hands for the play only: the all-seeing reference of the card play alone (``bench/cardplay_share.py``).
"""

from __future__ import annotations

import random
from typing import Any

from ..bots.base import Bot, make_bot
from ..bots.protocol import parse_bot_spec
from ..bots.search.pimc import PimcBot
from ..core.deal import Deal
from ..games import GAMES
from ..games.spec import Observation, Sampler

NAME = "oracle"
CALLS = ("see", "rules")
"""Who makes the oracle's calls: itself, seeing the hands (default), or the game's ``rules`` bot."""

class _TrueDeal:
    """A "sampler" that always answers the true deal."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal

    def sample(self, rng: random.Random) -> Deal:
        return self.deal.copy()


class _SeeingPimc(PimcBot):
    name = NAME

    def __init__(self, **options: Any) -> None:
        # the ceiling plays the best card: no guard for a teammate's trick (it sees whether it is sure anyway)
        super().__init__(**{"trusty": False, **options})
        self.deal: Deal | None = None

    def sampler(self, obs: Observation) -> Sampler:
        assert self.deal is not None, "the oracle is given the deal by choose_seeing"
        return _TrueDeal(self.deal)


class Oracle:
    """Sees every hand; see the module documentation. Options as ``pimc``'s (``bid_samples`` default 20:
    the simulated deals differ only in the rollouts), and ``calls`` (:data:`CALLS`)."""

    name = NAME

    def __init__(self, seed: int | None = None, game: str = "56", calls: object = "see", **options: Any) -> None:
        if calls not in CALLS:
            raise ValueError(f"calls must be one of {', '.join(CALLS)}, not {calls!r}")
        self.caller: Bot | None = make_bot("rules", seed=seed, game=game) if calls == "rules" else None
        options.setdefault("bid_samples", 20)
        options.setdefault("samples", 1)
        self._search = _SeeingPimc(seed=seed, game=game, **options)
        self.last: dict[str, object] = {}

    def choose_seeing(self, deal: Deal, seat: int) -> str:
        """The move of ``seat`` (the seat to move) with every hand of ``deal`` known.

        :raises ValueError: if ``seat`` is not to move.
        """
        if deal.to_move != seat:
            raise ValueError(f"seat {seat} is not to move (seat {deal.to_move} is)")
        seen = GAMES[deal.game].observation(deal, seat)
        if self.caller is not None and seen.phase != "play":
            self.last = {"how": "rules"}
            return self.caller.choose(seen)
        self._search.deal = deal.copy()
        try:
            return self._search.choose(seen)
        finally:
            self.last = self._search.last
            self._search.deal = None


def is_oracle(spec: str) -> bool:
    return parse_bot_spec(spec)[0] == NAME if not spec.startswith("cmd:") else False


def oracle_from_spec(spec: str, seed: int | None, game: str) -> Oracle:
    """:raises ValueError: for an unknown option."""
    _, options = parse_bot_spec(spec)
    try:
        return Oracle(seed=seed, game=game, **options)
    except TypeError as e:
        raise ValueError(f"bot {NAME}: {e}") from None
