"""Seats of a :class:`~fiftysix.research.vector.VectorEnv` played by our own bots (``rules``, ``pimc``, ...).

    env = VectorEnv("56-4", num_tables=64, bots={1: "rules", 3: "rules"}, reward_seat=0)
    env = VectorEnv("56-4", bots={1: Rules56Bot(margin=-1), 3: "rules"})     # a bot object, copied per table

The learner acts for the other seats only: after ``reset`` and after each ``step`` the bots play at every table
until a learner's seat is to move (or the deal is over), so ``obs``, ``info["action_mask"]`` and
``info["to_move"]`` are always a learner's.  A deal that a bot's move ends gives its rewards and
``terminations[i] = True`` at the learner's step that led to it, as if the learner's move had ended it.

A bot is given its seat's view (:func:`fiftysix.views.view`), as at a table of the server: it never sees another
hand.  Each table's seat has a bot of its own, seeded from the ``reset`` seed, the table and the seat, so a seed
and the learner's actions replay every table exactly.  A bot's answer that is not legal is refused with
:class:`BotMoveError` (a bug of the bot, never played silently).
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from ..bots import make_bot
from ..bots.base import Bot
from ..core.deal import Deal
from ..views import view

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
MOVES_A_DEAL = 1000     # no deal has this many moves: a bound that turns a bot loop's bug into an error


class BotMoveError(RuntimeError):
    """A seated bot answered a move that is not legal (names the table, the seat, the move and what is legal)."""


SeatedBot = str | Bot
"""A seat's bot: a bot's name (``"rules"``), or a bot object (copied for every table at each ``reset``)."""


def check_bots(bots: Mapping[int, SeatedBot], seats: int, game: str) -> dict[int, SeatedBot]:
    """The seats played by bots, checked: each a seat of the game, each a bot's name that plays it or a bot
    object (with a ``choose`` method), one seat at least left to the learner.

    :raises ValueError: naming what was wrong and what is allowed.
    """
    out: dict[int, SeatedBot] = {}
    for seat, name in bots.items():
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(seats):
            raise ValueError(f"bots: seat {seat!r} is not a seat; seats are 0-{seats - 1}")
        if not isinstance(name, str):
            if not callable(getattr(name, "choose", None)):
                raise ValueError(f"bots: seat {seat}'s bot must be a bot's name or a bot (with a choose method), "
                                 f"not {name!r}")
            out[seat] = name
            continue
        make_bot(name, 0, game)     # an unknown name: ValueError listing the known ones
        out[seat] = name
    if len(out) == seats:
        raise ValueError(f"bots: every seat (0-{seats - 1}) is a bot's; leave one at least to the learner")
    return out


def bot_seed(seed: int, table: int, seat: int) -> int:
    """A seated bot's own seed, from the ``reset`` seed, its table and its seat."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{table}:{seat}".encode()).digest()[:8], "big") >> 1


class BotSeats:
    """The bots of a vector env's bot seats, one per table and seat, and the loop that lets them play.

    :param names: the bot of each bot seat, as :func:`check_bots` returns them.
    """

    def __init__(self, names: dict[int, SeatedBot], game: str, num_tables: int) -> None:
        self.names, self.game, self.num_tables = names, game, num_tables
        self.seats = frozenset(names)
        self._bots: list[dict[int, Bot]] = []

    def reset(self, seed: int) -> None:
        """Fresh bots at every table (a bot may remember what it saw in a deal)."""
        self._bots = [{s: self.made(s, bot_seed(seed, i, s)) for s in self.names} for i in range(self.num_tables)]

    def made(self, seat: int, seed: int) -> Bot:
        """Seat ``seat``'s bot for one table: made by name with its seed, or a copy of the bot object given."""
        name = self.names[seat]
        return make_bot(name, seed, self.game) if isinstance(name, str) else copy.deepcopy(name)

    def play(self, deals: Sequence[Deal], to_move: Sequence[int], team_of: Sequence[int], rewards: FloatArray,
             terminations: BoolArray, deal_ended: Callable[[int], None], moved: Callable[[int], None]) -> None:
        """Let the bots move at every table where a bot's seat is to move, until a learner's seat is.

        :param deals: each table's deal, read afresh after ``deal_ended`` (which may deal the next one).
        :param to_move: each table's seat to move now (-1: none).
        :param deal_ended: called with a table whose deal a bot's move ended, once its rewards are written
            (the env deals the next deal there, or rebuilds the table's arrays at the deal's end).
        :param moved: called with a table whose deal the bots moved on, to rebuild its arrays.
        """
        for i in [i for i, s in enumerate(to_move) if s in self.seats]:
            for _ in range(MOVES_A_DEAL):
                deal = deals[i]
                seat = deal.to_move
                if seat is None or seat not in self.seats:
                    break
                self._move(i, deal, seat)
                if deal.is_over:
                    score = deal.score()   # type: ignore[attr-defined]
                    if score:
                        rewards[i] = [score[t] for t in team_of]
                    terminations[i] = True
                    deal_ended(i)
            else:
                raise BotMoveError(f"table {i}: the bots made {MOVES_A_DEAL} moves without the learner's turn")
            if not deals[i].is_over:
                moved(i)

    def _move(self, i: int, deal: Deal, seat: int) -> None:
        seen = view(deal, seat)
        move = self._bots[i][seat].choose(seen)
        legal = seen.get("legal") or []
        if move not in legal:
            name = getattr(self.names[seat], "name", self.names[seat])
            raise BotMoveError(f"table {i}: seat {seat}'s bot {name!r} answered {move!r}, "
                               f"which is not legal; legal: {', '.join(legal)}")
        deal.push(move, seat=seat)
