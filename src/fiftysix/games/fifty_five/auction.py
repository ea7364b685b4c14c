"""The 55 auction: one round from first hand to the dealer, then the hold duel.

Each player passes (``P``) or bids higher (``10 15 20 25 60``) once.  The dealer speaks last and alone may
``HOLD``: take the current bid at the same value.  Only a hold continues the auction: then the player the
dealer displaced may raise or pass; after a raise the dealer may hold again, raise or pass, and so on,
until one of the two passes or 60 is held.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.cards import Suit
from ...core.errors import CallNotAllowedError, NotationError, WrongPhaseError
from ...core.meaning import N_, Meaning
from ...core.moves import HOLD, PASS, Call
from .rules import BIDS, SLAM, TRICK_POINTS, Rules55

BID_CALLS: tuple[Call, ...] = tuple(Call(str(v), "bid", "number", v) for v in BIDS)
_BY_TEXT: dict[str, Call] = {c.text: c for c in (PASS, HOLD, *BID_CALLS)}
CALL_HELP = N_("calls are P, HOLD (dealer only), 10, 15, 20, 25, 60")


def parse_call(text: object) -> Call:
    """Read a call.  55's calls are written exactly (``P``, ``HOLD``, ``10``...); surrounding blanks are ignored.

    :raises NotationError: if the text is no call of 55, or a number that is not a bid.
    """
    if isinstance(text, str):
        t = text.strip()
        found = _BY_TEXT.get(t)
        if found is not None:
            return found
        if t.isdigit():
            raise NotationError(Meaning("{bid} is not a bid; bids are 10, 15, 20, 25 and 60", {"bid": t}))
    raise NotationError(Meaning("malformed call {text}; {help}", {"text": repr(text), "help": Meaning(CALL_HELP)}))


@dataclass(frozen=True, slots=True)
class Contract:
    """What the auction decided; ``trump`` is ``None`` until the bidder names it.

    :ivar team: the bidder's side (a team with partnerships, otherwise the bidder's own seat).
    """

    bidder: int
    team: int
    value: int
    trump: Suit | None = None

    def to_json(self) -> dict[str, object]:
        return {"bidder": self.bidder, "team": self.team, "value": self.value,
                "trump": self.trump.letter if self.trump is not None else None}


class Auction55:
    """The calls of one deal so far.  :meth:`legal` lists what the seat to move may call;
    :meth:`push` validates and applies one call.

    :ivar bidder: the high bidder so far (``None`` while nobody has bid).
    :ivar value: the current bid (0 while nobody has bid).
    :ivar displaced: in the hold duel, the non-dealer who was displaced; ``None`` before it.
    :ivar thrown_in: the auction ended with nobody bidding (``all_pass: redeal``).
    """

    def __init__(self, rules: Rules55, dealer: int) -> None:
        self.rules = rules
        self.n = rules.players
        self.dealer = dealer
        self.to_move = (dealer + 1) % self.n
        self.calls: list[Call] = []
        self.meanings: list[str] = []
        self.value = 0
        self.bidder: int | None = None
        self.displaced: int | None = None
        self.done = False
        self.thrown_in = False
        self._legal: tuple[Call, ...] | None = None

    # -- what may be called --------------------------------------------------------------------------
    def legal(self) -> tuple[Call, ...]:
        """The calls the seat to move may make, in a stable order (``P``, ``HOLD``, bids by value)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> tuple[Call, ...]:
        if self.done:
            return ()
        out = [PASS]
        if self.to_move == self.dealer and self.bidder is not None:
            out.append(HOLD)
        out += [c for c in BID_CALLS if c.value is not None and c.value > self.value]
        return tuple(out)

    def is_legal(self, call: Call) -> bool:
        return call in self.legal()

    def check(self, call: Call) -> None:
        """:raises IllegalMoveError: (a subclass) if ``call`` may not be made now; says what may."""
        if self.done:
            raise WrongPhaseError(N_("the auction is over; no more calls"))
        if self.is_legal(call):
            return
        raise CallNotAllowedError(self._why_not(call), [c.text for c in self.legal()])

    def _current(self) -> Meaning:
        return Meaning("none") if self.bidder is None else Meaning("{value} by seat {bidder}",
                                                                   {"value": self.value, "bidder": self.bidder})

    def _why_not(self, call: Call) -> str:
        seat = self.to_move
        short = ", ".join(c.text for c in self.legal())
        if call is HOLD:
            if seat != self.dealer:
                return Meaning("only the dealer (seat {dealer}) may hold; seat {seat} may pass or bid higher than the "
                               "current bid ({current})",
                               {"dealer": self.dealer, "seat": seat, "current": self._current()})
            return N_("HOLD with no bid to hold; the dealer may pass or bid")
        if call.is_bid:
            return Meaning("bid {call} is not higher than the current bid ({current}); legal: {legal}",
                           {"call": call.text, "current": self._current(), "legal": short})
        return Meaning("{call} is not allowed here; legal: {legal}", {"call": call.text, "legal": short})

    # -- applying --------------------------------------------------------------------------------------
    def push(self, call: Call) -> None:
        """Validate and apply one call.

        :raises IllegalMoveError: if the call is not legal now; nothing changes then.
        """
        self.check(call)
        self.push_unchecked(call)

    def push_unchecked(self, call: Call) -> None:
        seat = self.to_move
        self._legal = None
        self.meanings.append(self._describe(call, seat))
        self.calls.append(call)
        dealer = self.dealer
        if call is HOLD:
            self.displaced = self.bidder
            self.bidder = dealer
            if self.value == SLAM:
                self.done = True
            else:
                assert self.displaced is not None
                self.to_move = self.displaced
            return
        if call is PASS:
            if self.displaced is not None:          # in the duel a pass ends it; the other one has the bid
                self.done = True
            elif seat == dealer:                    # the dealer's pass ends the round
                self.done = True
                if self.bidder is None:
                    if self.rules.all_pass == "dealer":
                        self.bidder, self.value = dealer, BIDS[0]
                    else:
                        self.thrown_in = True
            else:
                self.to_move = (seat + 1) % self.n
            return
        assert call.value is not None
        self.value = call.value
        self.bidder = seat
        if self.displaced is not None:              # a raise in the duel: the other one answers
            self.to_move = self.displaced if seat == dealer else dealer
        elif seat == dealer:                        # the dealer outbid everyone: no hold, no duel
            self.done = True
        else:
            self.to_move = (seat + 1) % self.n

    # -- outcome ---------------------------------------------------------------------------------------
    def contract(self) -> Contract | None:
        if not self.done or self.bidder is None:
            return None
        return Contract(self.bidder, self.rules.side_of[self.bidder], self.value)

    def _describe(self, call: Call, seat: int) -> str:
        """What a call tells the table, in words, given the auction before it (a translatable :class:`Meaning`)."""
        if call is HOLD:
            if self.value == SLAM:
                return Meaning("hold: the dealer takes the bid of 60 from seat {seat}; the auction ends",
                               {"seat": self.bidder})
            return Meaning("hold: the dealer takes the bid of {v} from seat {seat} at the same value; "
                           "seat {seat} may raise or pass", {"v": self.value, "seat": self.bidder})
        if call is PASS:
            if self.displaced is not None or (seat == self.dealer and self.bidder is not None):
                return Meaning("pass: seat {seat} wins the auction at {v}", {"seat": self.bidder, "v": self.value})
            if seat == self.dealer:
                if self.rules.all_pass == "dealer":
                    return Meaning("pass: nobody bid, so the dealer must take 10 (all_pass: dealer)")
                return Meaning("pass: nobody bid; the deal is thrown in and the next dealer deals")
            return Meaning("pass")
        v = call.value
        what: Meaning
        if v == SLAM:
            what = Meaning("60: undertakes to win all five tricks")
        else:
            assert v is not None
            tricks = v // TRICK_POINTS
            what = Meaning("{v}: undertakes to take at least {v} points ({tricks} tricks, the highest trump "
                           "counting 5)", {"v": v, "tricks": tricks})
        if self.displaced is not None:
            return Meaning("{what}; raises in the hold duel", {"what": what})
        if seat == self.dealer:
            return Meaning("{what}; the dealer outbids the table and the auction ends", {"what": what})
        return what
