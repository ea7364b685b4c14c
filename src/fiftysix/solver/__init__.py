"""The double-dummy solver of 56 and 55: exact values of positions with every hand known.

>>> from fiftysix.solver import Position, solve, card_values, can_reach
>>> pos = Position.from_deal(deal)            # a 56 or 55 deal in its play phase      # doctest: +SKIP
>>> solve(pos), card_values(pos), can_reach(pos, team=0, target=32)                     # doctest: +SKIP

What is computed
    :func:`solve` gives the best total the side to move (its team; every other team together plays
    against it) can force from the cards still to be played, the cards already in the current trick
    included: card points in 56; in 55, 5 a trick and the 5 for the deal's highest trump (whose holder the
    whole deal decides, so it is a constant of the position).  :func:`card_values` gives that value after
    each legal card (its maximum is :func:`solve`; equivalent cards get equal values).  :func:`can_reach`
    answers the contract question with one null-window search: can ``team`` still reach ``target``
    points in the whole deal, the points it has already taken counted?

Simplification (56, option ``trump: hidden``)
    A hidden trump that has not been turned up acts as no trumps, and the search has no reveal moves
    (``?``).  Once turned up it is the position's trump; a seat that has just asked for it must play a
    trump if it holds one (:attr:`Position.must_trump`, a restriction of the first card only).

Engines
    ``engine="kernel"`` (the default when numba is installed, extra ``solver``) is the compiled search of
    :mod:`~fiftysix.solver.kernel`; ``engine="reference"`` the pure-Python minimax and alpha-beta of
    :mod:`~fiftysix.solver.reference`.  The card play itself is each game's own play rule
    (:attr:`fiftysix.games.spec.GameSpec.play`: ``games/fifty_six/play.py``, ``games/fifty_five/play.py``),
    and what the solver sees of a deal is the game's :meth:`~fiftysix.games.spec.GameSpec.play_state`; the
    tests check kernel = reference = brute force over the game engines on random endings and random deals.

The kernel
    Integer card masks per seat (``once``/``twice`` for 56's two copies), 16 bits per (effective) suit in
    rank order; an explicit stack (numba's disk cache cannot hold recursive functions); a transposition
    table at trick starts keyed by a 64-bit hash of the hands *up to relative ranks*
    (the cards still held renumbered, keeping their points) and up to the order of the plain suits,
    storing bounds (buckets of two entries); identical copies and equivalent cards merged (same seat, same suit,
    equal points, no other seat's card and not the card winning the trick ranked between them or equal to
    either; 55's privileged trumps never); move ordering from what opponents still to play can beat or ruff
    (leads also to a partner's best card or ruff) and killer moves; the last trick valued directly;
    bounds from the points left, from trump runs held by one side and the leader's cashable cards (with
    every other player's cheapest cards to the tricks those must win), and from a trick no opponent of the
    side winning it can still win; null-window searches, each a third
    of the way up from the proved lower bound (or galloping up from a sibling card's value, then
    bisecting).  The table persists between calls (its entries are exact facts about positions).

Speed (``bench/solver.py``, CPU time of one core on the project's 2-core machine, otherwise idle): a
56-6 position with 4 tricks left takes about 0.16 ms at the median; a whole 56-6 deal from the first
lead, trumps cycling through no-trumps and the four suits, 0.15 s at the median and 0.96-0.98 s at the
90th percentile (1,000 deals, two runs), with a long tail of deals needing tens of millions of nodes (the
slowest about 15 s).  Deal times spread over three orders of magnitude: the bench prints confidence
intervals (the 90th percentile's reaches 1.13 s), and 30 deals are far too few for either quantile.
With the trump an auction names (``--contracts auction``: the bidding side usually holds the trumps)
deals are easier: 0.10 s at the median, 0.56 s at the 90th percentile (500 deals).  A profile of the
compiled search (``perf`` over its machine code) puts about 20% of its time on waiting for the table's
bucket to come from memory; fetching it ahead while the sure points are counted did not help, and
hashing the children of a trick's last card ahead to fetch their buckets early cost more than it hid
(13% slower for every child at once, 8% for the rest once the first did not cut off: many children are
cut off by the points left before they would hash).
Most of the gain over the first versions came from move ordering (leads to a partner's best card or
ruff, large killer bonuses) and from a cheaper kernel per node (helpers inlined, no modulo, a hash
whose terms are independent of each other); quick bounds from sure winners, stored best leads, enhanced
transposition cutoffs and merging runs of a seat's cards in the key were tried and did not pay for
themselves, nor (third session) an exact small search for the last two tricks, killers kept between
probes, a second killer, a history table, four-entry buckets, a per-suit incremental hash, per-trick
caches of the later seats' cards, exact windows at two or three tricks left, or a probe schedule that
shortens its steps after a dear probe: the ordering already cuts off at the first card at 97-98% of cut
nodes, and one search with a window just around the value, were it known in advance, would cost only
about 20% less (30 deals).  Nor (fourth session, 60 deals each): leaving the cards unordered at nodes
expected to be all-nodes (52% more nodes: the order matters there too), a small table of its own for
positions with two tricks left (small enough for the processor's cache: no gain), a key of the exact
cards instead of relative ranks (27% more nodes), entries of 8 bytes with 46 key bits (4% faster, but a
false match, about one in 10^14 a probe, would no longer be negligible over the billions of probes of a
long run: the 64-bit keys stay), the sure points counted before the table probe (3% slower), entries
of older probes replaced first, or bisecting probe schedules (slower tails).  The sure points gained most (sixth
session: 11-13% fewer nodes) once they counted what the other players must give to the tricks a side's
top trumps or the leader's cashing win; and unsigned indices where the search is hottest took about 6%
of its time (numba adds a negative-index wraparound to every signed index it cannot prove
non-negative).  Tried then and not kept (60 deals, node counts and alternating timings): the leader's
cashing in trump games, capped by what each opponent holding trumps holds of the suit (1% fewer nodes,
2% slower); the follow obligations in the cashing bound (0.8% fewer nodes, no faster); sure trump points
in the middle of a trick (0.6% fewer nodes, 10% slower); the sure points before the table probe, again
(11% slower); the best cards of positions in the first tricks remembered between probes (17% more
nodes); the root's best lead of the last probe tried first (no change); entries kept by the size of
their subtree instead of the cards left (no change, also on the ten heaviest deals).
"""

from __future__ import annotations

from typing import Protocol

from ..core.cards import Card
from .position import Position, PositionError

__all__ = ["Position", "PositionError", "solve", "card_values", "can_reach", "kernel_available"]

ENGINES = ("kernel", "reference")


def kernel_available() -> bool:
    """Whether numba is installed, so that the fast kernel can run."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


class _Engine(Protocol):
    """What each engine module gives (:mod:`.fast`, :mod:`.reference`)."""

    def solve(self, position: Position) -> int: ...

    def card_values(self, position: Position) -> dict[Card, int]: ...

    def can_reach(self, position: Position, team: int, target: int) -> bool: ...


def _engine(engine: str | None) -> _Engine:
    if engine is None:
        engine = "kernel" if kernel_available() else "reference"
    if engine == "kernel":
        from . import fast
        return fast
    if engine == "reference":
        from . import reference
        return reference
    raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")


def solve(position: Position, engine: str | None = None) -> int:
    """The best total the side to move can force from the remaining cards (the current trick's cards
    included).

    :raises ValueError: for an unknown engine.
    """
    return int(_engine(engine).solve(position))


def card_values(position: Position, engine: str | None = None) -> dict[Card, int]:
    """For every legal card of the seat to move, the value (as :func:`solve`) of playing it.

    :raises ValueError: for an unknown engine.
    """
    return dict(_engine(engine).card_values(position))


def can_reach(position: Position, team: int, target: int, engine: str | None = None) -> bool:
    """Whether ``team`` can still reach ``target`` points in the whole deal, points already taken
    included, whatever the other teams play (a null-window search).

    :raises ValueError: for an unknown engine or team.
    """
    return bool(_engine(engine).can_reach(position, team, target))
