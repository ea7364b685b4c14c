"""Duplicate deals: every deal is played once per seating, the bots taking turns at each team's seats.

With two teams and two bots the second seating swaps the teams' seats; with more teams the bots are
rotated round the teams (``bots`` must divide the number of teams: 55 without partnerships with two
bots gives A B A B, then B A B A).  The cards, the dealer and the seed of every in-process bot stay
with the seat, so luck cancels, and two identical deterministic bots score exactly the same.

An in-process bot is made fresh for each deal with a seed from the deal and its seat; an outside
program (``cmd:...``) is started once per seat and seating for a whole run of deals (a "match" of the
protocol) and closed at the end.  Faults (an illegal answer, a crash, a time-out, an exception) are
replaced for that move by the fallback bot and counted; the run goes on, unless an outside program does not
play at all: one that never says ``ready``, or whose moves are more than half faults once it has made
:data:`FAULT_WINDOW` of them (counted per chunk of deals: the whole run in one process), stops the run with
:class:`BotFailure`.

The result of a deal does not depend on the worker, the chunk or the machine that plays it (so one process,
``--workers`` and a Ray cluster, which :mod:`.run` chooses among, agree for the same seed) as long as every bot is
deterministic given its seed: in-process bots are made afresh for each deal, seeded by the deal and the seat.  Bots
with a time limit (their search depends on the machine's speed) and outside programs (which live for a whole chunk
and may keep state from deal to deal) can differ.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .. import games
from ..bots.base import Bot
from ..bots.protocol import CMD_PREFIX, DEFAULT_TIMEOUT, ExternalBot, bot_from_spec
from ..core.deal import Deal
from ..core.options import Rules
from ..games.spec import GameSpec
from ..views import view
from .oracle import Oracle, is_oracle, oracle_from_spec

MAX_FAULT_MESSAGES = 20
FAULT_WINDOW = 20
"""An outside program whose moves are more than half faults, once it has made this many, stops the run."""


class BotFailure(RuntimeError):
    """An outside program that does not play: it never answered ``ready``, or most of its moves were faults."""


@dataclass(frozen=True)
class ArenaConfig:
    """Everything a run needs (plain data, so worker processes can receive it).

    :ivar rules: a preset name or a rules object ``{"preset": ..., option: value}``.
    :ivar bots: bot specs: ``ismcts``, ``ismcts,iterations=100``, ``cmd:PROGRAM ARGS``.
    """

    rules: str | dict[str, object]
    bots: tuple[str, ...]
    deals: int
    seed: int = 0
    workers: int = 1
    timeout: float = DEFAULT_TIMEOUT
    fallback: str = "random"
    events: bool = True
    first: int = 0      # the index of the first deal: a run may go on where another of the same seed stopped

    @property
    def indices(self) -> range:
        """The deal indices the run plays (each deal's cards come from the seed and its index)."""
        return range(self.first, self.first + self.deals)


@dataclass
class Tally:
    """Per bot: decisions, their time, and faults."""

    decisions: int = 0
    seconds: float = 0.0
    choice_times: list[float] = field(default_factory=list)   # decisions with more than one legal move
    max_seconds: float = 0.0
    faults: int = 0
    fault_messages: list[str] = field(default_factory=list)

    def add_time(self, seconds: float, choice: bool) -> None:
        self.decisions += 1
        self.seconds += seconds
        self.max_seconds = max(self.max_seconds, seconds)
        if choice:
            self.choice_times.append(seconds)

    def add_fault(self, message: str) -> None:
        self.faults += 1
        if len(self.fault_messages) < MAX_FAULT_MESSAGES:
            self.fault_messages.append(message)

    def merge(self, other: Tally) -> None:
        self.decisions += other.decisions
        self.seconds += other.seconds
        self.choice_times += other.choice_times
        self.max_seconds = max(self.max_seconds, other.max_seconds)
        self.faults += other.faults
        room = MAX_FAULT_MESSAGES - len(self.fault_messages)
        self.fault_messages += other.fault_messages[:max(room, 0)]


@dataclass(frozen=True)
class Play:
    """One deal played in one seating: what each team (side) got."""

    deal: int
    seating: int
    score: tuple[float, ...]
    points: tuple[float, ...]
    declarer_team: int | None
    made: bool | None


@dataclass
class ChunkResult:
    """Plays of complete deals (every seating), per bot tallies, the names outside programs gave in ``ready``
    (by bot index), and whether the run was interrupted before its end."""

    plays: list[Play]
    tallies: list[Tally]
    names: dict[int, str] = field(default_factory=dict)
    interrupted: bool = False

    @property
    def deals(self) -> int:
        return len({p.deal for p in self.plays})


def resolve_rules(rules: str | dict[str, object]) -> tuple[GameSpec, Rules]:
    """The game and rules object of a preset name or rules object (:func:`fiftysix.games.resolve_rules`).

    :raises RulesError: for an unknown preset or option.
    """
    return games.resolve_rules(rules)


def seatings(n_teams: int, n_bots: int) -> list[list[int]]:
    """For each seating, the bot index of each team.

    :raises ValueError: when the teams cannot be shared evenly among the bots.
    """
    if n_bots < 2:
        raise ValueError("an arena needs at least two bots")
    if n_teams % n_bots:
        raise ValueError(f"{n_teams} teams cannot be shared evenly among {n_bots} bots; "
                         f"give a number of bots that divides {n_teams}")
    return [[(t + r) % n_bots for t in range(n_teams)] for r in range(n_bots)]


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` of a run (independent of workers and chunks)."""
    digest = hashlib.sha256(f"fiftysix-arena:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def bot_seed(deal_seed_: int, seat: int, salt: int = 0) -> int:
    return (deal_seed_ * 1_000_003 + seat * 7919 + salt) % (1 << 62)


def check_bots(config: ArenaConfig) -> None:
    """Make each in-process bot once, so a wrong name or option stops the run before it starts.

    :raises ValueError: naming the bad spec.
    """
    game, rules = resolve_rules(config.rules)
    seatings(rules.n_teams, len(config.bots))
    for spec in (*config.bots, config.fallback):
        if is_oracle(spec):
            oracle_from_spec(spec, 0, game.name)
        elif not spec.startswith(CMD_PREFIX):
            bot_from_spec(spec, 0, game.name)
    if config.fallback.startswith(CMD_PREFIX):
        raise ValueError("the fallback must be one of our bots, not an outside program")


def run_chunk(config: ArenaConfig, indices: Sequence[int],
              progress: Callable[[int], None] | None = None, sink: ChunkResult | None = None) -> ChunkResult:
    """Play the deals ``indices`` in every seating; outside programs live for the whole chunk.

    :param sink: where the plays go as each deal is complete (so an interrupted run keeps what it played).
    :raises BotFailure: when an outside program does not play (see the module's text).
    """
    game, rules = resolve_rules(config.rules)
    team_of = rules.team_of
    table = seatings(rules.n_teams, len(config.bots))
    out = sink if sink is not None else ChunkResult([], [Tally() for _ in config.bots])
    tallies = out.tallies
    externals: dict[tuple[int, int], ExternalBot] = {}
    reported: dict[tuple[int, int], int] = {}
    watch: dict[int, list[int]] = {}
    try:
        for index in indices:
            seed = deal_seed(config.seed, index)
            base = game.new_deal(rules, seed=seed)
            plays: list[Play] = []
            for r, owner in enumerate(table):
                seat_bot = [owner[team_of[s]] for s in range(rules.players)]
                fallbacks = [bot_from_spec(config.fallback, bot_seed(seed, s, 1), game.name)
                             for s in range(rules.players)]
                bots: list[Bot | Oracle] = []
                for s in range(rules.players):
                    spec = config.bots[seat_bot[s]]
                    if spec.startswith(CMD_PREFIX):
                        ext = externals.get((r, s))
                        if ext is None:
                            ext = externals[(r, s)] = ExternalBot(spec[len(CMD_PREFIX):], timeout=config.timeout,
                                                                  fallback=fallbacks[s], events=config.events)
                            ext.start(game.name, game.rules_to_json(rules, full=True), s)
                            if ext.ready_name is None:
                                raise BotFailure(f"{spec} (seat {s}) does not play: {ext.ready_problem}")
                            out.names.setdefault(seat_bot[s], ext.ready_name or spec)
                            reported[(r, s)] = 0
                        ext.fallback = fallbacks[s]
                        bots.append(ext)
                    elif is_oracle(spec):    # the arena alone may give a bot the whole deal
                        bots.append(oracle_from_spec(spec, bot_seed(seed, s), game.name))
                    else:
                        bots.append(bot_from_spec(spec, bot_seed(seed, s), game.name))
                deal = base.copy()
                _play(deal, bots, seat_bot, fallbacks, tallies, config.events, f"deal {index}", watch, config.bots)
                result = deal.result()
                for s, bot in enumerate(bots):
                    if isinstance(bot, ExternalBot):
                        bot.deal_end(result)
                        new = bot.faults[reported[(r, s)]:]
                        reported[(r, s)] = len(bot.faults)
                        for message in new:
                            tallies[seat_bot[s]].add_fault(f"deal {index}, seat {s}: {message}")
                contract = result.get("contract")
                team = contract.get("team") if contract else None
                score = result.get("score") or [0] * rules.n_teams
                plays.append(Play(index, r, tuple(float(x) for x in score),
                                  tuple(float(x) for x in result["points"]),
                                  team if isinstance(team, int) else None, result.get("made")))
            out.plays += plays      # only whole deals: every seating, so the pairing holds
            if progress is not None:
                progress(1)
    finally:
        for ext in externals.values():
            ext.close()
    return out


def _play(deal: Deal, bots: Sequence[Bot | Oracle], seat_bot: list[int], fallbacks: list[Bot], tallies: list[Tally],
          events: bool, where: str, watch: dict[int, list[int]] | None = None,
          specs: Sequence[str] = ()) -> None:
    """Play a deal to the end, each seat's bot given only that seat's view.

    :param watch: per bot index, the moves and faults of its outside programs so far.
    :raises BotFailure: when an outside program's moves are more than half faults.
    """
    observers = [s for s, b in enumerate(bots) if events and hasattr(b, "observe")]
    clock = time.perf_counter
    game = games.GAMES[deal.game]
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None     # a deal not over has a seat to move
        v = game.observation(deal, seat)    # built from the deal; an outside program is sent its JSON
        legal = v.legal or ()
        tally = tallies[seat_bot[seat]]
        bot = bots[seat]
        before = len(bot.faults) if isinstance(bot, ExternalBot) else 0
        start = clock()
        try:
            move = bot.choose_seeing(deal, seat) if isinstance(bot, Oracle) else bot.choose(v)
        except Exception as e:  # a bot must never stop the run
            tally.add_fault(f"{where}, seat {seat}: {type(e).__name__}: {e}")
            move = fallbacks[seat].choose(v)
        if move not in legal:
            tally.add_fault(f"{where}, seat {seat}: illegal move {move!r}")
            move = fallbacks[seat].choose(v)
        tally.add_time(clock() - start, len(legal) > 1)
        if watch is not None and isinstance(bot, ExternalBot):
            counts = watch.setdefault(seat_bot[seat], [0, 0])
            counts[0] += 1
            counts[1] += len(bot.faults) > before
            if counts[0] >= FAULT_WINDOW and 2 * counts[1] > counts[0]:
                name = specs[seat_bot[seat]] if specs else bot.name
                raise BotFailure(f"{name} does not play: {counts[1]} of its {counts[0]} moves were faults; "
                                 f"the last: {bot.faults[-1] if bot.faults else '?'}")
        deal.push(move)
        for s in observers:
            bots[s].observe(view(deal, s))  # type: ignore[union-attr]


__all__ = ["FAULT_WINDOW", "ArenaConfig", "BotFailure", "ChunkResult", "Play", "Tally", "check_bots", "deal_seed",
           "resolve_rules", "run_chunk", "seatings"]
