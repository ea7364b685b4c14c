"""A frozen copy of the research encodings as they were before the one layout (research/layout.py): the
table env's tensors (``Table.fill``) and the compact observation (``compact.encode_view``), read from the view
JSON by key.  The oracle test_encoding_unchanged.py compares the new encoder with, bit for bit."""

# ruff: noqa
# mypy: ignore-errors
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fiftysix.core.deal import AUCTION, DISCARD, OVER, PLAY, TRUMP, Deal
from fiftysix.core.moves import Call
from fiftysix.research.table import Encoding, Table

PHASES = ("deal", "auction", "trump", "discard", "play", "over")
STRAINS = ("S", "H", "D", "C", "NT")
MAX_NUMBER = 60
CPHASES = (AUCTION, TRUMP, PLAY, OVER)
PHASES_WITH_KITTY = (AUCTION, DISCARD, TRUMP, PLAY, OVER)
FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Piece:
    name: str
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


class Layout:
    """Named pieces of one flat float32 tensor (OpenSpiel's observer ``dict``)."""

    def __init__(self, pieces: Sequence[Piece]) -> None:
        self.pieces = list(pieces)
        self.size = sum(p.size for p in pieces)
        self.offsets: dict[str, int] = {}
        at = 0
        for p in pieces:
            self.offsets[p.name] = at
            at += p.size

    def views(self, tensor: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        return {p.name: tensor[self.offsets[p.name]:self.offsets[p.name] + p.size].reshape(p.shape)
                for p in self.pieces}


def table_layouts(enc: Encoding) -> dict[bool, Layout]:
    n, k = enc.n, len(enc.kinds)
    common = [Piece("seat", (n,)), Piece("phase", (len(PHASES),)), Piece("to_move", (n,)),
              Piece("hand", (k,)), Piece("hand_sizes", (n,)), Piece("declarer", (n,)),
              Piece("contract_value", (MAX_NUMBER + 1,)), Piece("contract_strain", (5,)),
              Piece("multiplier", (3,)), Piece("trump", (5,)), Piece("trump_hidden", (1,)),
              Piece("points", (enc.n_teams,)), Piece("trick_leader", (n,)), Piece("trick", (n, k)),
              Piece("discard", (k,)), Piece("pending_discard", (k,)), Piece("kitty_size", (1,)),
              Piece("highest_trump_seat", (n,)), Piece("highest_trump_card", (k,))]
    info = Layout([*common, Piece("dealt", (k,)), Piece("auction", (enc.max_calls, enc.call_width)),
                               Piece("tricks_leader", (enc.tricks, n)), Piece("tricks", (enc.tricks, n, k))])
    obs = Layout([*common, Piece("played", (n, k)), Piece("recent_calls", (n, enc.call_width))])
    return {True: info, False: obs}


def old_fill(self: Table, out: npt.NDArray[np.float32], seat: int, perfect_recall: bool, private: bool = True) -> None:
    """Write the seat's tensor (info state or observation layout) into ``out``; with ``private=False``
    what a spectator sees (the same for every seat)."""
    enc = self.enc
    layout = table_layouts(enc)[perfect_recall]
    d = layout.views(out)
    out.fill(0.0)
    v = self.seat_view(seat if private else None)
    kind = enc.kind_of
    if private:
        d["seat"][seat] = 1
    d["phase"][PHASES.index(v["phase"])] = 1
    for c in v["hand"] or ():
        d["hand"][kind[c]] += 1
    if perfect_recall:
        for c in v["dealt"] or ():
            d["dealt"][kind[c]] += 1
    if v["phase"] == "deal":
        return
    if v["to_move"] is not None:
        d["to_move"][v["to_move"]] = 1
    d["hand_sizes"][:] = v["hand_sizes"]
    _fill_contract(d, v)
    trick = v["trick"]
    if trick is not None:
        d["trick_leader"][trick["leader"]] = 1
        for j, c in enumerate(trick["cards"]):
            d["trick"][j, kind[c]] = 1
    _fill_cards_aside(d, v, kind)
    if perfect_recall:
        _fill_history(d, v, enc)
    else:
        _fill_recent(d, v, enc)


def _fill_contract(d: dict[str, Any], v: Any) -> None:
    """The contract, trumps and card points of the tensor."""
    contract = v["contract"]
    if contract is not None:
        declarer = contract.get("declarer", contract.get("bidder"))
        d["declarer"][declarer] = 1
        d["contract_value"][min(contract["value"], MAX_NUMBER)] = 1
        strain = contract.get("strain")
        if strain is not None:
            d["contract_strain"][STRAINS.index(strain)] = 1
        d["multiplier"][{1: 0, 2: 1, 4: 2}[contract.get("multiplier", 1)]] = 1
    if v.get("trump") is not None:
        d["trump"][STRAINS.index(v["trump"])] = 1
    d["trump_hidden"][0] = 1.0 if v.get("trump_hidden") else 0.0
    d["points"][:] = v["points"]


def _fill_cards_aside(d: dict[str, Any], v: Any, kind: dict[str, int]) -> None:
    """The discards, the kitty's size and 55's highest trump so far."""
    for c in v.get("discard") or ():
        d["discard"][kind[c]] += 1
    for c in v["pending_discard"]:
        d["pending_discard"][kind[c]] += 1
    d["kitty_size"][0] = v.get("kitty_size") or 0
    high = v.get("highest_trump")
    if high is not None:
        d["highest_trump_seat"][high["seat"]] = 1
        d["highest_trump_card"][kind[high["card"]]] = 1


def _fill_history(d: dict[str, Any], v: Any, enc: Encoding) -> None:
    """Perfect recall: every call and every trick of the deal (no loop variable named ``tr``: Babel's
    extractor takes it for the translation call ``tr(lang, ...)`` and collects the next string)."""
    kind = enc.kind_of
    for i, text in enumerate(v["auction"]):
        d["auction"][i, enc.call_features[text]] = 1
    for t, done in enumerate(v["tricks"]):
        d["tricks_leader"][t, done["leader"]] = 1
        for j, c in enumerate(done["cards"]):
            d["tricks"][t, j, kind[c]] = 1


def _fill_recent(d: dict[str, Any], v: Any, enc: Encoding) -> None:
    """The observation: the most recent calls, newest first, and the cards each seat has played."""
    kind = enc.kind_of
    trick = v["trick"]
    for i, text in enumerate(reversed(v["auction"][-enc.n:])):
        d["recent_calls"][i, enc.call_features[text]] = 1
    for done in [*v["tricks"], *([trick] if trick else [])]:
        for j, c in enumerate(done["cards"]):
            d["played"][(done["leader"] + j) % enc.n, kind[c]] += 1



@dataclass(frozen=True)
class CPiece:
    """One piece of the compact observation: its name, shape, range and meaning."""

    name: str
    shape: tuple[int, ...]
    low: float
    high: float
    meaning: str
    private: bool = False

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


class CLayout:
    """The compact observation of one ruleset: pieces laid end to end in one float32 vector."""

    def __init__(self, enc: Encoding) -> None:
        n, k, teams = enc.n, len(enc.kinds), enc.n_teams
        self.phases = phases = PHASES_WITH_KITTY if enc.kitty else CPHASES
        calls = enc.game.call_vocabulary(enc.rules)
        self.forms: list[str] = list(dict.fromkeys(f"{c.kind}:{c.form}" for c in calls))
        width = len(self.forms) + 1 + 5
        top_bid = max((c.value for c in calls if c.value is not None), default=0)    # (55 bids reach 60)
        self.call_width = width
        self.pieces: list[CPiece] = [
            CPiece("seat", (n,), 0, 1, "one-hot: the observing seat", private=True),
            CPiece("to_move", (n,), 0, 1, "one-hot: the seat to move (all 0 once the deal is over)"),
            CPiece("phase", (len(phases),), 0, 1, "one-hot: " + ", ".join(
                {TRUMP: "trump (the declarer chooses)", DISCARD: "discard (the bidder's, after taking the kitty)"}
                .get(p, p) for p in phases)),
            CPiece("hand", (k,), 0, enc.game.copies,
                  "copies of each card kind the observing seat holds (kinds in `Encoding.kinds` order)",
                  private=True),
            CPiece("played", (n, k), 0, 2, "copies of each card kind each seat has played so far (current trick "
                                          "included)"),
            CPiece("trick", (n, k), 0, 1, "the current trick: 1 at (seat, kind) for the card the seat put on it"),
            CPiece("trick_leader", (n,), 0, 1, "one-hot: the seat that led the current trick (during the play)"),
            CPiece("points", (teams,), 0, 56, "card points taken so far by each team"),
            CPiece("last_call", (n, width), 0, 60,
                  f"each seat's most recent call: one-hot of its form ({len(self.forms)}: "
                  + ", ".join(self.forms) + "), then its number (the bid's value, or k of +k/-k forms; 0 for "
                  "pass, double, redouble), then one-hot of the suit it names (S H D C none); all 0 before the "
                  "seat's first call"),
            CPiece("calls", (1,), 0, enc.max_calls, "how many calls the auction holds so far"),
            CPiece("bid_value", (1,), 0, top_bid, "the standing bid's value (the contract's once the auction "
                                                 "is over); 0 while nothing is bid"),
            CPiece("bidder", (n,), 0, 1, "one-hot: the seat of the standing bid (the declarer)"),
            CPiece("strain", (5,), 0, 1, "one-hot: the standing bid's strain S H D C NT (NT also for a bid "
                                        "naming no suit)"),
            CPiece("multiplier", (3,), 0, 1, "one-hot: the standing bid undoubled, doubled, redoubled"),
            CPiece("trump", (5,), 0, 1, "one-hot: the trump as the observing seat knows it, S H D C NT; all 0 "
                                       "while not chosen or hidden from the seat", private=True),
            CPiece("trump_hidden", (1,), 0, 1, "1 while a hidden trump is chosen and not yet turned up"),
        ]
        if enc.kitty:     # 55: the kitty, the discard, the highest trump
            self.pieces += [
                CPiece("kitty_size", (1,), 0, enc.kitty, "cards in the kitty (0 once the bidder has taken it)"),
                CPiece("discard", (k,), 0, 1, "the bidder's discard, once made, to the seats that may see it "
                                            "(everyone with `discards: open`, else the bidder alone)",
                      private=True),
                CPiece("pending_discard", (k,), 0, 1, "the cards the bidder has chosen so far of the discard it is "
                                                    "making (to the bidder alone; the discard is made one card "
                                                    "at a time, in increasing action order)", private=True),
                CPiece("highest_trump_seat", (n,), 0, 1, "one-hot: the seat that played the highest trump of the "
                                                       "completed tricks (its side scores the bonus)"),
                CPiece("highest_trump_card", (k,), 0, 1, "one-hot: that trump"),
            ]
        self.size = sum(p.size for p in self.pieces)
        self.offsets: dict[str, int] = {}
        self.slices: dict[str, slice] = {}
        at = 0
        for p in self.pieces:
            self.offsets[p.name] = at
            self.slices[p.name] = slice(at, at + p.size)
            at += p.size
        self._features: dict[str, FloatArray] = {}

    def slice(self, name: str) -> slice:
        return self.slices[name]

    def views(self, vector: FloatArray) -> dict[str, FloatArray]:
        """Each piece of one observation vector, shaped (views into it)."""
        return {p.name: vector[self.slice(p.name)].reshape(p.shape) for p in self.pieces}

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


def auction_fields(deal: Deal) -> tuple[int, int, int, int]:
    """The standing bid (value, bidder, strain index, doubled), or (0, -1, -1, 0) while nothing is bid."""
    auction: Any = deal.auction  # type: ignore[attr-defined]
    if auction.bidder is None:
        return 0, -1, -1, 0
    strain = getattr(auction, "strain", None)      # (55's bids name no suit and are never doubled)
    return (int(auction.value), int(auction.bidder), 4 if strain is None else int(strain),
            int(getattr(auction, "doubled", 0)))


def trump_fields(deal: Any) -> tuple[int, bool, int, bool]:
    """(trump index or -1, known to every seat, declarer or -1, hidden and not turned up), as the game's
    ``observation`` decides who knows the trump."""
    mode = getattr(deal.rules, "trump", None)
    if mode is None:        # 55: the bidder names trumps after the discard, for all to see
        return (-1 if deal.trump is None else int(deal.trump)), True, -1, False
    contract = deal.contract
    declarer = -1 if contract is None else int(contract.declarer)
    if mode == "bid":
        if contract is None:
            return -1, True, declarer, False
        return (4 if deal.trump is None else int(deal.trump)), True, declarer, False
    if not deal.trump_chosen:
        return -1, True, declarer, False
    code = 4 if deal.trump is None else int(deal.trump)
    hidden = deal.rules.trump == "hidden" and not deal.revealed
    return code, not hidden, declarer, hidden


def old_encode_view(enc: Encoding, seat_view: dict[str, Any]) -> FloatArray:
    """The compact observation built from a seat's JSON view (:func:`fiftysix.views.view`), and nothing else.

    Slow; the reference :class:`VectorEnv` is tested against.  The standing bid is read by replaying the
    view's public calls on a deal of the rules (calls do not depend on the cards).
    """
    layout = CLayout(enc)
    n = enc.n
    out = np.zeros(layout.size, np.float32)
    d = layout.views(out)
    kind = enc.kind_of
    seat = seat_view["seat"]
    d["seat"][seat] = 1.0
    if seat_view.get("to_move") is not None:
        d["to_move"][seat_view["to_move"]] = 1.0
    d["phase"][layout.phases.index(seat_view["phase"])] = 1.0
    for c in seat_view["hand"]:
        d["hand"][kind[c]] += 1.0
    trick = seat_view.get("trick")
    for t in [*seat_view["tricks"], *([trick] if trick else [])]:
        for j, c in enumerate(t["cards"]):
            d["played"][(t["leader"] + j) % n, kind[c]] += 1.0
    if trick is not None:
        d["trick_leader"][trick["leader"]] = 1.0
        for j, c in enumerate(trick["cards"]):
            d["trick"][(trick["leader"] + j) % n, kind[c]] = 1.0
    d["points"][:] = seat_view["points"]
    texts = seat_view["auction"]
    vocabulary = {c.text: c for c in enc.game.call_vocabulary(enc.rules)}
    d["calls"][0] = len(texts)
    replay = enc.game.new_deal(enc.rules, seed=0, dealer=seat_view["dealer"])
    for text in texts:     # who made each call: the replay's seat to move (not always the next seat in 55)
        d["last_call"][replay.to_move] = layout.call_features(vocabulary[text])
        replay.push(vocabulary[text])
    value, bidder, strain, doubled = auction_fields(replay)
    d["bid_value"][0] = value
    if bidder >= 0:
        d["bidder"][bidder] = 1.0
        d["strain"][strain] = 1.0
        d["multiplier"][doubled] = 1.0
    trump = seat_view.get("trump")
    if trump is not None:
        d["trump"][STRAINS.index(trump)] = 1.0
    d["trump_hidden"][0] = 1.0 if seat_view.get("trump_hidden") else 0.0
    if enc.kitty:
        d["kitty_size"][0] = seat_view.get("kitty_size") or 0
        for c in seat_view.get("discard") or ():
            d["discard"][kind[c]] = 1.0
        for c in seat_view.get("pending_discard") or ():
            d["pending_discard"][kind[c]] = 1.0
        high = seat_view.get("highest_trump")
        if high is not None:
            d["highest_trump_seat"][high["seat"]] = 1.0
            d["highest_trump_card"][kind[high["card"]]] = 1.0
    return out
