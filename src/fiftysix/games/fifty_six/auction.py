"""The 56 auction as a small state machine: who calls, what is legal, when it ends, the contract."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.cards import Suit
from ...core.errors import CallNotAllowedError, WrongPhaseError
from ...core.meaning import N_, Meaning
from ...core.moves import DOUBLE, PASS, REDOUBLE, Call, Strain, strain_text
from .calls import MIN_BID, PLUS_PASS, legal_bids, resulting_value
from .forms import describe
from .rules import Rules56

_SPECIALS = tuple(tuple(c for i, c in enumerate((PASS, DOUBLE, REDOUBLE)) if bits >> i & 1) for bits in range(8))

SPECIALS_OVER_BID = ((3, 1), (1, 5), (1, 1))
"""What a seat may call besides bids over a standing bid, as bits (1 pass, 2 double, 4 redouble), by [how doubled the
bid is: 0, 1, 2][the seat is of the bidder's team]: an opponent may double an undoubled bid, the doubled team may
redouble, anyone may pass.  (The compiled auction of the vector env reads it too.)"""


_CONTRACTS: dict[int, Contract] = {}
"""Every contract made so far, by one int of its fields (``Auction56.contract``): contracts are immutable, and
building a frozen dataclass costs more than looking one up.  Bounded: seats x teams x 30 values x 5 strains x 3."""

_LegalCalls = tuple[tuple[Call, ...], tuple[Call, ...], frozenset[str]]

_KNOWN: dict[int, _LegalCalls] = {}
""":func:`legal_calls` of each auction state met so far, keyed by one int (``Auction56._compute_legal``: an int
is cheaper than ``lru_cache``'s tuple of six arguments).  Bounded: 30 values x 8 sets of specials x 2 x at most
30 suit bids x 2 bidding systems x a few deck sizes."""


def legal_calls(specials: int, bidding: str, current: int, first_bid: bool, suit_bids: int,
                suit_size: int) -> _LegalCalls:
    """The legal calls (``P X XX`` as ``specials`` says, then :func:`legal_bids`), the specials and the
    bids' texts."""
    bids, texts = legal_bids(bidding, current, first_bid, suit_bids, suit_size)
    return _SPECIALS[specials] + bids, _SPECIALS[specials], texts


@dataclass(frozen=True, slots=True)
class Contract:
    """What the auction decided.  ``multiplier`` is 1, 2 or 4 whatever the ``multiplier`` option."""

    declarer: int
    team: int
    value: int
    strain: Strain
    multiplier: int

    def to_json(self) -> dict[str, object]:
        return {"declarer": self.declarer, "team": self.team, "value": self.value,
                "strain": strain_text(self.strain), "multiplier": self.multiplier}


class Auction56:
    """The calls of one deal so far.  :meth:`legal` lists what the seat to move may call;
    :meth:`push` validates and applies one call."""

    def __init__(self, rules: Rules56, first_hand: int) -> None:
        self.rules = rules
        self.n = rules.players
        self.first_hand = first_hand
        self.to_move = first_hand
        self.calls: list[Call] = []
        self._meanings: list[str] = []
        self._describing = False    # the meanings are worked out when first asked for (see meanings)
        self.value = MIN_BID - 1
        self.bidder: int | None = None
        self.strain: Strain = None
        self.doubled = 0
        self.passes = 0
        self.done = False
        self.suit_bids: list[Suit] = []
        self.announced_top = [0, 0, 0, 0]
        self._legal: tuple[Call, ...] | None = None
        self._specials: tuple[Call, ...] = ()
        self._bid_texts: frozenset[str] = frozenset()
        # what _compute_legal asks of the rules at every call, looked up once
        self._team_of = rules.team_of
        self._pass_first = not (rules.all_pass == "forced" and rules.bidding == "standard")
        self._closes = rules.double == "closes"
        self._suit_size = rules.deck_size // 4
        self._announcements = rules.bidding == "announcements"
        self._system = self._suit_size * 2 + self._announcements     # below 64: suits of up to 13 cards

    @property
    def meanings(self) -> list[str]:
        """What each call told the table, in words (worked out when asked for, by replaying the calls)."""
        if len(self._meanings) < len(self.calls):
            replay = Auction56(self.rules, self.first_hand)
            replay._describing = True
            for call in self.calls:
                replay.push_unchecked(call)
            self._meanings = replay._meanings
        return self._meanings

    # -- what may be called ----------------------------------------------------------------------
    def legal(self) -> tuple[Call, ...]:
        """The calls the seat to move may make, in a stable order (``P X XX`` then bids by value)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> tuple[Call, ...]:
        if self.done:
            return ()
        seat = self.to_move
        bidder = self.bidder
        # The state as one int for _KNOWN: value * 2**16 + specials (bits: 1 pass, 2 double, 4 redouble) * 2**13
        # + (no bid yet) * 2**12 + suit bids (below 64: every bid raises the value, 28 to 56) * 2**6 + _system.
        if bidder is None:      # nothing bid yet, so no suit named: pass (unless first hand must open) and bids
            specials = 1 if self._pass_first or self.calls or seat != self.first_hand else 0
            suit_bids = 0
            key = self.value * 65536 + specials * 8192 + 4096 + self._system
        else:
            team_of = self._team_of
            same = team_of[bidder] == team_of[seat]
            doubled = self.doubled
            specials = SPECIALS_OVER_BID[doubled][same]
            if doubled and self._closes:
                self._specials = _SPECIALS[specials]
                self._bid_texts = frozenset()
                return self._specials
            # standard bids only ask whether a suit was named (NOES); announcements count them (kNOS)
            suit_bids = len(self.suit_bids) if self._announcements else 1 if self.suit_bids else 0
            key = self.value * 65536 + specials * 8192 + suit_bids * 64 + self._system
        found = _KNOWN.get(key)
        if found is None:
            found = _KNOWN[key] = legal_calls(specials, self.rules.bidding, self.value, bidder is None,
                                              suit_bids, self._suit_size)
        legal, self._specials, self._bid_texts = found
        return legal

    def is_legal(self, call: Call) -> bool:
        if self.done:
            return False
        if self._legal is None:
            self._legal = self._compute_legal()
        if call.kind == "bid":
            return call.text in self._bid_texts
        return call in self._specials or any(c.text == call.text for c in self._specials)

    def push_if_legal(self, call: Call) -> tuple[Call, ...] | None:
        """Apply ``call`` if it is legal now (:meth:`is_legal`): then the calls legal next (empty once the
        auction is done); else ``None``, and nothing changes.  The deal's path for each call, in few steps."""
        if self.done:
            return None
        if self._legal is None:
            self._legal = self._compute_legal()
        if call.kind == "bid":      # is_legal, inline
            if call.text not in self._bid_texts:
                return None
        elif not (call in self._specials or any(c.text == call.text for c in self._specials)):
            return None
        self.push_unchecked(call)
        if self.done:
            return ()
        legal = self._legal = self._compute_legal()
        return legal

    def check(self, call: Call, written_value: int | None = None) -> None:
        """:raises IllegalMoveError: (a subclass) if ``call`` may not be made now; says what may."""
        if self.done:
            raise WrongPhaseError(N_("the auction is over; no more calls"))
        if written_value is not None and call.is_bid:
            v = resulting_value(call, self.value)
            if v != written_value:
                raise CallNotAllowedError(
                    Meaning("{written}{call} does not add up: {call} over {value} makes {v}",
                            {"written": str(written_value), "call": call.text, "value": self.value, "v": v}),
                    self._legal_text())
        if self.is_legal(call):
            return
        raise CallNotAllowedError(self._why_not(call), self._legal_text())

    def _legal_text(self) -> list[str]:
        return [c.text for c in self.legal()]

    def _why_not(self, call: Call) -> str:
        rules = self.rules
        seat = self.to_move
        short = _short_legal(self.legal())
        if call is PASS:
            return Meaning("first hand may not pass on the first call (all_pass: forced); legal: {legal}",
                           {"legal": short})
        if call.kind in ("double", "redouble"):
            if self.bidder is None:
                return Meaning("{call} with no bid to double; legal: {legal}", {"call": call.text, "legal": short})
            same = rules.team_of[self.bidder] == rules.team_of[seat]
            if call is DOUBLE:
                if same:
                    return Meaning("seat {seat} may not double its own team's bid; legal: {legal}",
                                   {"seat": seat, "legal": short})
                return Meaning("the bid is already doubled; legal: {legal}", {"legal": short})
            if not self.doubled:
                return Meaning("XX needs a double to answer; legal: {legal}", {"legal": short})
            if not same:
                return Meaning("only the doubled team may redouble; legal: {legal}", {"legal": short})
            return Meaning("the bid is already redoubled; legal: {legal}", {"legal": short})
        if call.kind != "bid":
            return Meaning("{call} is not a call of 56; legal: {legal}", {"call": call.text, "legal": short})
        if self.doubled and rules.double == "closes":
            return Meaning("after a double no more bids (double: closes); legal: {legal}", {"legal": short})
        if call.value is None and self.bidder is None and rules.bidding == "standard":
            return Meaning("{call} adds to a previous bid and cannot be the first bid; legal: {legal}",
                           {"call": call.text, "legal": short})
        if call.form in ("number-noes", "plus-noes", "nos", "k-nos"):
            need = max(call.k, 1)
            if len(self.suit_bids) < need:
                return Meaning("{call} needs a bid that named a suit before it; legal: {legal}",
                               {"call": call.text, "legal": short})
        v = resulting_value(call, self.value)
        if v > 56:
            return Meaning("{call} would make {v}; bids go up to 56; legal: {legal}",
                           {"call": call.text, "v": v, "legal": short})
        if self.bidder is not None and v <= self.value:
            return Meaning("bid {call} is not higher than the current bid ({value} by seat {bidder}); legal: {legal}",
                           {"call": call.text, "value": self.value, "bidder": self.bidder, "legal": short})
        if v < MIN_BID:
            return Meaning("bids start at {least}; legal: {legal}", {"least": MIN_BID, "legal": short})
        return Meaning("{call} is not allowed here; legal: {legal}", {"call": call.text, "legal": short})

    # -- applying -----------------------------------------------------------------------------------
    def push(self, call: Call, written_value: int | None = None) -> None:
        """Validate and apply one call.

        :raises IllegalMoveError: if the call is not legal now; nothing changes then.
        """
        self.check(call, written_value)
        self.push_unchecked(call)

    def push_unchecked(self, call: Call) -> None:
        if self._describing:    # the words are worked out only when asked for (see meanings)
            self._meanings.append(self._meaning(call))
        seat = self.to_move
        self._legal = None
        if call is PASS:
            if not self.calls and self._announcements:
                # Seed 004: first hand's pass on the very first call counts as Plus Pass.
                self._apply_bid(PLUS_PASS, seat)
            else:
                passes = self.passes = self.passes + 1
                if self.bidder is None:
                    if passes == self.n:
                        self.done = True
                        self.bidder = self.first_hand
                        self.value = MIN_BID
                        self.strain = None
                elif passes == self.n - 1:
                    self.done = True
        elif call is DOUBLE:
            self.doubled = 1
            self.passes = 0
        elif call is REDOUBLE:
            self.doubled = 2
            self.passes = 0
            self.done = True
        else:
            self._apply_bid(call, seat)
        self.calls.append(call)
        seat += 1
        self.to_move = seat if seat < self.n else 0

    def _meaning(self, call: Call) -> str:
        """What ``call`` tells the table, in words, read from the auction before it is applied."""
        if call is PASS:
            if not self.calls and self._announcements:
                return describe(PLUS_PASS, self, True)
            return Meaning("pass")
        if call is DOUBLE:
            return Meaning("double: bets that the {v} of seat {seat}'s team will fail",
                           {"v": self.value, "seat": self.bidder})
        if call is REDOUBLE:
            return Meaning("redouble: the doubled team bets that it will make its bid")
        return describe(call, self)

    def _apply_bid(self, call: Call, seat: int) -> None:
        old = self.value
        value = self.value = call.value if call.value is not None else old + call.step   # resulting_value
        self.bidder = seat
        self.doubled = 0
        self.passes = 0
        suit = call.suit
        if self._announcements:
            self.strain = suit
            if suit is not None:
                self.announced_top[suit] += _tops_announced(call, value - old)
        else:
            self.strain = call.strain
        if suit is not None:
            self.suit_bids.append(suit)

    # -- outcome ------------------------------------------------------------------------------------
    def contract(self) -> Contract | None:
        bidder = self.bidder
        if not self.done or bidder is None:
            return None
        team, strain = self._team_of[bidder], self.strain
        key = (((bidder * 16 + team) * 64 + self.value) * 8 + (4 if strain is None else strain)) * 4 + self.doubled
        contract = _CONTRACTS.get(key)
        if contract is None:
            contract = _CONTRACTS[key] = Contract(bidder, team, self.value, strain, (1, 2, 4)[self.doubled])
        return contract


def _short_legal(legal: tuple[Call, ...]) -> str:
    if not legal:
        return Meaning("none")
    texts = [c.text for c in legal]
    if len(texts) <= 12:
        return ", ".join(texts)
    specials = [t for t in texts if t in ("P", "X", "XX")]
    bids = [c for c in legal if c.is_bid]
    fixed = [c.value for c in bids if c.value is not None]
    low = min(fixed) if fixed else None
    extra = (Meaning("bids from {low} to 56 ({n} forms)", {"low": low, "n": len(bids)}) if low is not None else
             Meaning("bids ({n} forms)", {"n": len(bids)}))
    return Meaning("{calls}, {bids}", {"calls": ", ".join(specials), "bids": extra}) if specials else extra


def _tops_announced(call: Call, raised_by: int) -> int:
    """How many top cards of its suit an announcement shows (seed 004: a raise to a number by k
    shows the k highest; ``k+`` shows k; ``+``, ``1+`` and ``+1`` show one)."""
    if call.form in ("plus", "one-plus", "plus-one"):
        return 1
    if call.form == "k-plus":
        return call.k
    if call.form == "raise-to":
        return raised_by
    return 0


__all__ = ["Auction56", "Contract", "describe"]
