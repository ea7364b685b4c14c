"""``cardplay``: the game's ``rules`` bot makes every call, a named bot plays the cards (issue 47).

``cardplay,cards=pimc,fast=true`` calls (the auction, the trump choice, 55's discard: every phase but the play)
as ``rules`` does and plays as ``pimc,fast=true`` does; every option but ``cards`` is the card bot's. Seated
against ``rules`` it measures the card play alone: both sides then call alike, so what differs is the play
(``bench/cardplay_share.py``, docs/bots.md "Card play alone"). It is made by spec only (``bot_from_spec``, the
arena): a measuring device, not a player a table is offered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .base import BOTS, Bot, Seen, legal_moves, observed, register
from .kits import KITS

NAME = "cardplay"
PLAY = "play"
"""The one phase the card bot decides (a reveal of the trump is part of the play)."""


class CardPlayBot:
    """Calls of ``rules``, cards of the bot named by ``cards``; see the module documentation."""

    name = NAME

    def __init__(self, game: str, cards: str | None = None, seed: int | None = None, **options: object) -> None:
        if not cards:
            raise ValueError("cardplay needs the bot that plays the cards: cardplay,cards=NAME[,option=value...]")
        if cards == NAME:
            raise ValueError("cardplay cannot play its cards by cardplay")
        self.caller: Bot = BOTS.find("rules", game)(seed=seed)
        self.player: Bot = BOTS.find(str(cards), game)(seed=seed, **options)
        self.reason = ""

    def choose(self, seen: Seen) -> str:
        obs = observed(seen)
        legal = legal_moves(obs)
        if len(legal) == 1:
            return legal[0]
        bot = self.player if obs.phase == PLAY else self.caller
        move = bot.choose(obs)
        said = getattr(bot, "reason", "")
        self.reason = said if isinstance(said, str) else ""
        return move


def _factory(game: str) -> Callable[..., CardPlayBot]:
    def make(seed: int | None = None, **options: Any) -> CardPlayBot:
        return CardPlayBot(game, seed=seed, **options)
    return make


def register_games(games: Sequence[str] | None = None) -> None:
    """Register ``cardplay`` for every game with a kit (a ``rules`` bot to make the calls), unlisted."""
    for game in games if games is not None else list(KITS):
        register(NAME, _factory(game), game, listed=False)
