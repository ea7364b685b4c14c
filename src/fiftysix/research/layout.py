"""The one definition of what a seat's tensors hold: :class:`Piece` and :class:`Layout` (pieces laid end to end in
one float32 vector), the pieces of the table env's tensors (:func:`table_layout`, OpenSpiel's and PettingZoo's)
and of the compact observation (:class:`CompactLayout`, the vector env's), and the one encoder,
:meth:`Layout.encode`, which writes them from a :class:`Seen`: the seat's typed
:class:`~fiftysix.games.observation.Observation` (attributes, no view JSON), as OpenSpiel's observer is built from
the state.  Each piece carries the function that writes it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ..core.cards import Card
from ..core.deal import AUCTION, DISCARD, OVER, PLAY, TRUMP, Deal
from ..core.moves import Call
from ..core.options import Rules
from ..games.observation import Observation, TrickSeen
from ..games.spec import GameSpec


class Encoding(Protocol):
    """What a layout reads of a ruleset's encoding (:class:`.table.Encoding` has it): declared here, so the
    layouts need nothing above them."""

    @property
    def game(self) -> GameSpec: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def n(self) -> int: ...
    @property
    def n_teams(self) -> int: ...
    @property
    def kinds(self) -> list[Card]: ...
    @property
    def kind_of(self) -> dict[str, int]: ...
    @property
    def kitty(self) -> int: ...
    @property
    def call_width(self) -> int: ...
    @property
    def call_features(self) -> dict[str, list[int]]: ...
    @property
    def max_calls(self) -> int: ...
    @property
    def tricks(self) -> int: ...

FloatArray = npt.NDArray[np.float32]

TABLE_PHASES = ("deal", "auction", "trump", "discard", "play", "over")
COMPACT_PHASES = (AUCTION, TRUMP, PLAY, OVER)
PHASES_WITH_KITTY = (AUCTION, DISCARD, TRUMP, PLAY, OVER)


def auction_fields(deal: Deal) -> tuple[int, int, int, int]:
    """The standing bid (value, bidder, strain index, doubled), or (0, -1, -1, 0) while nothing is bid."""
    auction: Any = deal.auction  # type: ignore[attr-defined]
    if auction.bidder is None:
        return 0, -1, -1, 0
    strain = getattr(auction, "strain", None)      # (55's bids name no suit and are never doubled)
    return (int(auction.value), int(auction.bidder), 4 if strain is None else int(strain),
            int(getattr(auction, "doubled", 0)))
STRAINS = ("S", "H", "D", "C", "NT")
MAX_NUMBER = 60          # the largest number a call or contract carries (55's slam)


@dataclass(frozen=True)
class Seen:
    """What one seat knows: its :class:`Observation` (``None`` while the cards are dealt) and what it knows from
    its own actions, its hand as dealt and the discard it is choosing card by card.

    :ivar seat: the observing seat (``None``: a spectator).
    """

    enc: Encoding
    seat: int | None
    phase: str
    hand: tuple[Card, ...]
    obs: Observation | None = None
    dealt: tuple[Card, ...] = ()
    pending: tuple[Card, ...] = ()

    def kind(self, card: Card) -> int:
        return self.enc.kind_of[str(card)]

    @cached_property
    def declarer(self) -> int | None:
        """The contract's declarer (56) or bidder (55), once the auction is over."""
        o = self.obs
        if o is None or o.contract is None:
            return None
        declarer: int | None = getattr(o, "declarer", None)
        return declarer if declarer is not None else getattr(o, "bidder", None)

    @cached_property
    def auction_replay(self) -> tuple[list[int], tuple[int, int, int, int]]:
        """Who made each call (the seat to move of a replay of the public calls on a deal of the rules: not always
        the next seat in 55) and the standing bid (:func:`auction_fields`)."""
        enc, o = self.enc, self.obs
        assert o is not None
        vocabulary = {c.text: c for c in enc.game.call_vocabulary(enc.rules)}
        replay = enc.game.new_deal(enc.rules, seed=0, dealer=o.dealer)
        callers: list[int] = []
        for text in o.auction:
            to_move = replay.to_move
            assert to_move is not None
            callers.append(to_move)
            replay.push(vocabulary[text])
        return callers, auction_fields(replay)


Fill = Callable[[Seen, FloatArray], None]


def _nothing(seen: Seen, out: FloatArray) -> None:
    """A piece written by no one (the seat while observing as a spectator)."""


@dataclass(frozen=True)
class Piece:
    """One piece of an observation: its name, shape, range and meaning, and what writes it (``dealing``: also
    while the cards are dealt)."""

    name: str
    shape: tuple[int, ...]
    low: float = 0.0
    high: float = 1.0
    meaning: str = ""
    private: bool = False
    fill: Fill = field(default=_nothing, compare=False, repr=False)
    dealing: bool = False

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


class Layout:
    """Named pieces of one flat float32 tensor (OpenSpiel's observer ``dict``), and :meth:`encode`."""

    def __init__(self, pieces: Sequence[Piece]) -> None:
        self.pieces = list(pieces)
        self.size = sum(p.size for p in self.pieces)
        self.offsets: dict[str, int] = {}
        self.slices: dict[str, slice] = {}
        at = 0
        for p in self.pieces:
            self.offsets[p.name] = at
            self.slices[p.name] = slice(at, at + p.size)
            at += p.size

    def slice(self, name: str) -> slice:
        return self.slices[name]

    def views(self, vector: FloatArray) -> dict[str, FloatArray]:
        """Each piece of one observation vector, shaped (views into it)."""
        return {p.name: vector[self.slices[p.name]].reshape(p.shape) for p in self.pieces}

    def encode(self, seen: Seen, out: FloatArray) -> None:
        """Write what ``seen`` holds into ``out``, each piece by its own function (while dealing, only the pieces
        that say so)."""
        out.fill(0.0)
        for p in self.pieces:
            if seen.obs is not None or p.dealing:
                p.fill(seen, out[self.slices[p.name]].reshape(p.shape))


# -- the pieces' writers ----------------------------------------------------------------------------------
def _obs(seen: Seen) -> Observation:
    assert seen.obs is not None
    return seen.obs


def _seat(seen: Seen, out: FloatArray) -> None:
    if seen.seat is not None:
        out[seen.seat] = 1


@dataclass(frozen=True)
class _phase:   # noqa: N801  (a writer, as the functions beside it; a class so that a layout pickles)
    phases: Sequence[str]

    def __call__(self, seen: Seen, out: FloatArray) -> None:
        out[self.phases.index(seen.phase)] = 1


def _hand(seen: Seen, out: FloatArray) -> None:
    for c in seen.hand:
        out[seen.kind(c)] += 1


def _dealt(seen: Seen, out: FloatArray) -> None:
    for c in seen.dealt:
        out[seen.kind(c)] += 1


def _to_move(seen: Seen, out: FloatArray) -> None:
    to_move = _obs(seen).to_move
    if to_move is not None:
        out[to_move] = 1


def _hand_sizes(seen: Seen, out: FloatArray) -> None:
    out[:] = _obs(seen).hand_sizes


def _points(seen: Seen, out: FloatArray) -> None:
    out[:] = _obs(seen).points


def _declarer(seen: Seen, out: FloatArray) -> None:
    if seen.declarer is not None:
        out[seen.declarer] = 1


def _contract_value(seen: Seen, out: FloatArray) -> None:
    o = _obs(seen)
    if o.contract is not None:
        out[min(o.contract_value, MAX_NUMBER)] = 1


def _contract_strain(seen: Seen, out: FloatArray) -> None:
    strain: Any = getattr(_obs(seen), "strain", None)    # (55's contracts name no strain)
    if strain is not None:
        out[STRAINS.index(strain)] = 1


def _contract_multiplier(seen: Seen, out: FloatArray) -> None:
    o = _obs(seen)
    if o.contract is not None:
        out[{1: 0, 2: 1, 4: 2}[getattr(o, "multiplier", 1)]] = 1


def _trump(seen: Seen, out: FloatArray) -> None:
    trump = _obs(seen).trump_text
    if trump is not None:
        out[STRAINS.index(trump)] = 1


def _trump_hidden(seen: Seen, out: FloatArray) -> None:
    out[0] = 1.0 if getattr(_obs(seen), "trump_hidden", False) else 0.0


def _trick_leader(seen: Seen, out: FloatArray) -> None:
    trick = _obs(seen).trick
    if trick is not None:
        out[trick.leader] = 1


def _trick_by_order(seen: Seen, out: FloatArray) -> None:
    trick = _obs(seen).trick
    if trick is not None:
        for j, c in enumerate(trick.cards):
            out[j, seen.kind(c)] = 1


def _trick_by_seat(seen: Seen, out: FloatArray) -> None:
    trick = _obs(seen).trick
    if trick is not None:
        for j, c in enumerate(trick.cards):
            out[(trick.leader + j) % seen.enc.n, seen.kind(c)] = 1


def _played(seen: Seen, out: FloatArray) -> None:
    o = _obs(seen)
    done: list[TrickSeen] = [*o.tricks, *([o.trick] if o.trick else [])]
    for t in done:
        for j, c in enumerate(t.cards):
            out[(t.leader + j) % seen.enc.n, seen.kind(c)] += 1


def _discard(seen: Seen, out: FloatArray) -> None:
    discard: tuple[Card, ...] | None = getattr(_obs(seen), "discard", None)
    for c in discard or ():
        out[seen.kind(c)] += 1


def _pending(seen: Seen, out: FloatArray) -> None:
    for c in seen.pending:
        out[seen.kind(c)] += 1


def _kitty_size(seen: Seen, out: FloatArray) -> None:
    out[0] = getattr(_obs(seen), "kitty_size", 0)


def _highest_seat(seen: Seen, out: FloatArray) -> None:
    high: tuple[int, Card] | None = getattr(_obs(seen), "highest_trump", None)
    if high is not None:
        out[high[0]] = 1


def _highest_card(seen: Seen, out: FloatArray) -> None:
    high: tuple[int, Card] | None = getattr(_obs(seen), "highest_trump", None)
    if high is not None:
        out[seen.kind(high[1])] = 1


def _auction(seen: Seen, out: FloatArray) -> None:
    for i, text in enumerate(_obs(seen).auction):
        out[i, seen.enc.call_features[text]] = 1


def _recent_calls(seen: Seen, out: FloatArray) -> None:
    """The most recent calls, newest first."""
    n = seen.enc.n
    for i, text in enumerate(reversed(_obs(seen).auction[-n:])):
        out[i, seen.enc.call_features[text]] = 1


def _tricks_leader(seen: Seen, out: FloatArray) -> None:
    for t, done in enumerate(_obs(seen).tricks):
        out[t, done.leader] = 1


def _tricks(seen: Seen, out: FloatArray) -> None:
    for t, done in enumerate(_obs(seen).tricks):
        for j, c in enumerate(done.cards):
            out[t, j, seen.kind(c)] = 1


def table_layout(enc: Encoding, perfect_recall: bool) -> Layout:
    """The table env's tensor: the information state (``perfect_recall``: every call and trick, the hand as
    dealt) or the observation (the most recent calls, the cards each seat has played)."""
    n, k = enc.n, len(enc.kinds)
    common = [Piece("seat", (n,), fill=_seat, dealing=True),
              Piece("phase", (len(TABLE_PHASES),), fill=_phase(TABLE_PHASES), dealing=True),
              Piece("to_move", (n,), fill=_to_move), Piece("hand", (k,), fill=_hand, dealing=True),
              Piece("hand_sizes", (n,), fill=_hand_sizes), Piece("declarer", (n,), fill=_declarer),
              Piece("contract_value", (MAX_NUMBER + 1,), fill=_contract_value),
              Piece("contract_strain", (5,), fill=_contract_strain),
              Piece("multiplier", (3,), fill=_contract_multiplier), Piece("trump", (5,), fill=_trump),
              Piece("trump_hidden", (1,), fill=_trump_hidden), Piece("points", (enc.n_teams,), fill=_points),
              Piece("trick_leader", (n,), fill=_trick_leader), Piece("trick", (n, k), fill=_trick_by_order),
              Piece("discard", (k,), fill=_discard), Piece("pending_discard", (k,), fill=_pending),
              Piece("kitty_size", (1,), fill=_kitty_size), Piece("highest_trump_seat", (n,), fill=_highest_seat),
              Piece("highest_trump_card", (k,), fill=_highest_card)]
    if perfect_recall:
        return Layout([*common, Piece("dealt", (k,), fill=_dealt, dealing=True),
                       Piece("auction", (enc.max_calls, enc.call_width), fill=_auction),
                       Piece("tricks_leader", (enc.tricks, n), fill=_tricks_leader),
                       Piece("tricks", (enc.tricks, n, k), fill=_tricks)])
    return Layout([*common, Piece("played", (n, k), fill=_played),
                   Piece("recent_calls", (n, enc.call_width), fill=_recent_calls)])


def _calls(seen: Seen, out: FloatArray) -> None:
    out[0] = len(_obs(seen).auction)


def _bid_value(seen: Seen, out: FloatArray) -> None:
    out[0] = seen.auction_replay[1][0]


def _bidder(seen: Seen, out: FloatArray) -> None:
    bidder = seen.auction_replay[1][1]
    if bidder >= 0:
        out[bidder] = 1.0


def _strain(seen: Seen, out: FloatArray) -> None:
    _, bidder, strain, _ = seen.auction_replay[1]
    if bidder >= 0:
        out[strain] = 1.0


def _bid_multiplier(seen: Seen, out: FloatArray) -> None:
    _, bidder, _, doubled = seen.auction_replay[1]
    if bidder >= 0:
        out[doubled] = 1.0


@dataclass(frozen=True)
class _once:   # noqa: N801  (a writer; a class so that a layout pickles)
    """A 0/1 piece of card kinds (the compact discards: one copy of each card in 55)."""

    fill: Fill

    def __call__(self, seen: Seen, out: FloatArray) -> None:
        self.fill(seen, out)
        np.minimum(out, 1.0, out=out)


class CompactLayout(Layout):
    """The compact observation of one ruleset (the vector env's): pieces laid end to end in one float32 vector,
    each with its range and meaning."""

    def __init__(self, enc: Encoding) -> None:
        n, k, teams = enc.n, len(enc.kinds), enc.n_teams
        self.phases = phases = PHASES_WITH_KITTY if enc.kitty else COMPACT_PHASES
        calls = enc.game.call_vocabulary(enc.rules)
        self.forms: list[str] = list(dict.fromkeys(f"{c.kind}:{c.form}" for c in calls))
        width = len(self.forms) + 1 + 5
        top_bid = max((c.value for c in calls if c.value is not None), default=0)    # (55 bids reach 60)
        self.call_width = width
        pieces: list[Piece] = [
            Piece("seat", (n,), 0, 1, "one-hot: the observing seat", private=True, fill=_seat),
            Piece("to_move", (n,), 0, 1, "one-hot: the seat to move (all 0 once the deal is over)", fill=_to_move),
            Piece("phase", (len(phases),), 0, 1, "one-hot: " + ", ".join(
                {TRUMP: "trump (the declarer chooses)", DISCARD: "discard (the bidder's, after taking the kitty)"}
                .get(p, p) for p in phases), fill=_phase(phases)),
            Piece("hand", (k,), 0, enc.game.copies,
                  "copies of each card kind the observing seat holds (kinds in `Encoding.kinds` order)",
                  private=True, fill=_hand),
            Piece("played", (n, k), 0, 2, "copies of each card kind each seat has played so far (current trick "
                                          "included)", fill=_played),
            Piece("trick", (n, k), 0, 1, "the current trick: 1 at (seat, kind) for the card the seat put on it",
                  fill=_trick_by_seat),
            Piece("trick_leader", (n,), 0, 1, "one-hot: the seat that led the current trick (during the play)",
                  fill=_trick_leader),
            Piece("points", (teams,), 0, 56, "card points taken so far by each team", fill=_points),
            Piece("last_call", (n, width), 0, 60,
                  f"each seat's most recent call: one-hot of its form ({len(self.forms)}: "
                  + ", ".join(self.forms) + "), then its number (the bid's value, or k of +k/-k forms; 0 for "
                  "pass, double, redouble), then one-hot of the suit it names (S H D C none); all 0 before the "
                  "seat's first call", fill=self._last_call),
            Piece("calls", (1,), 0, enc.max_calls, "how many calls the auction holds so far", fill=_calls),
            Piece("bid_value", (1,), 0, top_bid, "the standing bid's value (the contract's once the auction "
                                                 "is over); 0 while nothing is bid", fill=_bid_value),
            Piece("bidder", (n,), 0, 1, "one-hot: the seat of the standing bid (the declarer)", fill=_bidder),
            Piece("strain", (5,), 0, 1, "one-hot: the standing bid's strain S H D C NT (NT also for a bid "
                                        "naming no suit)", fill=_strain),
            Piece("multiplier", (3,), 0, 1, "one-hot: the standing bid undoubled, doubled, redoubled",
                  fill=_bid_multiplier),
            Piece("trump", (5,), 0, 1, "one-hot: the trump as the observing seat knows it, S H D C NT; all 0 "
                                       "while not chosen or hidden from the seat", private=True, fill=_trump),
            Piece("trump_hidden", (1,), 0, 1, "1 while a hidden trump is chosen and not yet turned up",
                  fill=_trump_hidden),
        ]
        if enc.kitty:     # 55: the kitty, the discard, the highest trump
            pieces += [
                Piece("kitty_size", (1,), 0, enc.kitty, "cards in the kitty (0 once the bidder has taken it)",
                      fill=_kitty_size),
                Piece("discard", (k,), 0, 1, "the bidder's discard, once made, to the seats that may see it "
                                            "(everyone with `discards: open`, else the bidder alone)",
                      private=True, fill=_once(_discard)),
                Piece("pending_discard", (k,), 0, 1, "the cards the bidder has chosen so far of the discard it is "
                                                    "making (to the bidder alone; the discard is made one card "
                                                    "at a time, in increasing action order)", private=True,
                      fill=_once(_pending)),
                Piece("highest_trump_seat", (n,), 0, 1, "one-hot: the seat that played the highest trump of the "
                                                       "completed tricks (its side scores the bonus)",
                      fill=_highest_seat),
                Piece("highest_trump_card", (k,), 0, 1, "one-hot: that trump", fill=_highest_card),
            ]
        super().__init__(pieces)
        self._features: dict[str, FloatArray] = {}

    def call_features(self, call: Call) -> FloatArray:
        """The ``last_call`` row of one call."""
        out = self._features.get(call.text)
        if out is not None:
            return out
        out = self._features[call.text] = np.zeros(self.call_width, np.float32)
        out[self.forms.index(f"{call.kind}:{call.form}")] = 1.0
        number = call.value if call.value is not None else call.k
        out[len(self.forms)] = float(number or 0)
        out[len(self.forms) + 1 + (int(call.suit) if call.suit is not None else 4)] = 1.0
        return out

    def _last_call(self, seen: Seen, out: FloatArray) -> None:
        vocabulary = {c.text: c for c in seen.enc.game.call_vocabulary(seen.enc.rules)}
        for seat, text in zip(seen.auction_replay[0], _obs(seen).auction, strict=True):
            out[seat] = self.call_features(vocabulary[text])
