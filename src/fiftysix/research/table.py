"""What the OpenSpiel game and the PettingZoo environment share: one preset's fixed action space, the deal
dealt card by card, the 55 discard made one card at a time, and the tensors and strings a seat observes.

**Actions** (the same numbers in both adapters): every call the preset's auction can ever allow, in a fixed
order; then the trump choices (56 with ``trump: chosen``/``hidden``, and 55); then ``?`` (ask for a hidden
trump) and ``CLAIM`` where the rules have them (the game's ``GameSpec`` lists both: ``call_vocabulary`` and
``choice_texts``); then one action per card *kind* (two copies of a card are one
action).  In 55's discard phase a card action means "discard this card": the bidder discards its five cards
one at a time, in increasing action order, so each discard has exactly one action sequence.

**Chance** deals card by card: the first hand's cards, then the second's, ... then 55's kitty; each chance
outcome is a card kind, with probability proportional to the copies of it still in the pack.

**Observations** are built from :func:`fiftysix.views.view` of the seat and nothing else, plus what the seat
itself did and therefore knows: its hand as dealt (the 55 bidder's hand before it took the kitty) and the
cards it has chosen so far of a discard it is making.  Nothing else of the deal is read.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.cards import Card
from ..core.deal import DISCARD, Deal
from ..core.moves import Call, Discard, Move
from ..games import resolve_rules
from ..views import view
from .layout import MAX_NUMBER as MAX_NUMBER  # (the names this module has always had)
from .layout import STRAINS as STRAINS
from .layout import TABLE_PHASES, Layout, Seen, table_layout
from .layout import Piece as Piece

PHASES = TABLE_PHASES


class Encoding:
    """The fixed facts of one preset: the action space, the deal order, the tensor layouts.

    :param rules: a preset name (``"56-6"``) or a rules object (``{"preset": "56-6", "deck": 24}``: a preset
        and options, as records and the server write them).
    :param dealer: the dealer's seat (default: the last seat, so that seat 0 calls and leads first).
    :raises RulesError: for an unknown preset, option or value.
    :raises ValueError: for a dealer that is not a seat.
    """

    def __init__(self, ruleset: str | Mapping[str, object], dealer: int | None = None) -> None:
        if not isinstance(ruleset, (str, Mapping)):
            raise ValueError(f"rules must be a preset name such as \"56-6\" or a rules object "
                             f"({{\"preset\": \"56-6\", ...}}), not {ruleset!r}")
        self.game, self.rules = resolve_rules(dict(ruleset) if isinstance(ruleset, Mapping) else ruleset)
        self.preset: str = (ruleset if isinstance(ruleset, str)
                            else str(ruleset.get("preset", self.game.default_preset)))
        self.rules_json: object = self.game.rules_to_json(self.rules)
        """The rules as JSON: the preset name alone when the rules are the preset's as it stands."""
        rules = self.rules
        self.n: int = rules.players
        self.n_teams: int = rules.n_teams
        self.team_of: tuple[int, ...] = tuple(rules.team_of)
        deck = self.game.deck(rules)
        self.kinds: list[Card] = list(dict.fromkeys(sorted(deck)))
        counts = Counter(deck)
        self.copies: list[int] = [counts[c] for c in self.kinds]
        self.kind_of: dict[str, int] = {str(c): i for i, c in enumerate(self.kinds)}
        self.hand_size: int = rules.hand_size
        self.kitty: int = self.game.kitty_size(rules)
        self.deal_slots: int = self.n * self.hand_size + self.kitty
        if dealer is not None and (not isinstance(dealer, int) or isinstance(dealer, bool)
                                   or not 0 <= dealer < self.n):
            raise ValueError(f"dealer must be a seat, 0-{self.n - 1} (or -1 for the last seat), not {dealer!r}")
        self.dealer = self.n - 1 if dealer is None else dealer   # by default seat 0 is first hand

        calls = self.game.call_vocabulary(rules)
        call_texts = [c.text for c in calls]
        choices = self.game.choice_texts(rules)
        # each action's name, distinct: a choice that reads as a call (56 announcements' NT) is "trump NT"
        self.texts: list[str] = call_texts + [f"trump {t}" if t in call_texts else t for t in choices]
        self.action_of_text: dict[str, int] = {t: i for i, t in enumerate(self.texts)}
        """Action name to action."""
        self._choice_action: dict[str, int] = {t: len(call_texts) + i for i, t in enumerate(choices)}
        self.call_action: dict[str, int] = {c.text: i for i, c in enumerate(calls)}
        self.first_card: int = len(self.texts)
        self.num_actions: int = self.first_card + len(self.kinds)

        forms = list(dict.fromkeys(f"{c.kind}:{c.form}" for c in calls))
        self.call_width = len(forms) + MAX_NUMBER + 1 + 5
        self.call_features: dict[str, list[int]] = {}
        for c in calls:
            number = c.value if c.value is not None else c.k
            suit = int(c.suit) if c.suit is not None else 4
            self.call_features[c.text] = [forms.index(f"{c.kind}:{c.form}"),
                                          len(forms) + min(number, MAX_NUMBER),
                                          len(forms) + MAX_NUMBER + 1 + suit]
        self.max_calls = self.game.auction_bound(rules)
        self.tricks = self.hand_size      # one trick per card in a hand (55's bidder discards back to five)
        self.max_moves = self.max_calls + 1 + self.kitty + 2 + self.n * self.hand_size
        self.min_utility, self.max_utility, self.zero_sum = self._utility_range()

        self.info_layout: Layout = table_layout(self, perfect_recall=True)
        self.obs_layout: Layout = table_layout(self, perfect_recall=False)

    def __deepcopy__(self, memo: dict[int, object]) -> Encoding:
        return self     # immutable once built: states share it

    def _utility_range(self) -> tuple[float, float, bool]:
        """Each player gets its team's score: the players' returns sum to zero when the teams' scores do and
        the teams are of one size."""
        scores = self.game.score_range(self.rules)
        return float(scores.lowest), float(scores.highest), scores.zero_sum and self.n % self.n_teams == 0

    # -- actions ---------------------------------------------------------------------------------------
    def move_action(self, move: Move) -> int:
        """The action of an engine move (a call and a trump choice of the same text are different actions)."""
        if isinstance(move, Card):
            return self.card_action(move)
        if isinstance(move, Call):
            return self.call_action[move.text]
        return self._choice_action[str(move)]

    def text_action(self, text: str, phase: str) -> int:
        """The action of a legal move's text in a view of ``phase`` (a call and a trump choice may read alike).

        :raises KeyError: for a text that is no move of the phase.
        """
        if phase == "auction":
            return self.call_action[text]
        if phase == "trump":
            return self._choice_action[text]
        return self.card_action(text)

    def card_action(self, card: Card | str) -> int:
        return self.first_card + self.kind_of[str(card)]

    def card_of_action(self, action: int) -> Card:
        return self.kinds[action - self.first_card]

    def action_text(self, action: int, discarding: bool = False) -> str:
        if action >= self.first_card:
            card = str(self.card_of_action(action))
            return f"discard {card}" if discarding else card
        return self.texts[action]

    def returns(self, deal: Deal) -> list[float]:
        score = deal.result().get("score") if deal.is_over else None
        if not score:
            return [0.0] * self.n
        return [float(score[self.team_of[s]]) for s in range(self.n)]


class Table:
    """One deal in progress as the adapters see it: the cards dealt so far, then the :class:`Deal`, and a
    55 discard being chosen card by card.  Plain data, copied with :func:`copy.deepcopy`."""

    def __init__(self, enc: Encoding) -> None:
        self.enc = enc
        self.dealt_kinds: list[int] = []      # chance outcomes so far, in deal order
        self.deal: Deal | None = None
        self.pending: list[int] = []          # kinds chosen so far of the discard being made
        self.moves: list[Move] = []           # the player moves pushed on the deal

    # -- the deal --------------------------------------------------------------------------------------
    @property
    def dealing(self) -> bool:
        return self.deal is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = list(self.enc.copies)
        for k in self.dealt_kinds:
            left[k] -= 1
        total = sum(left)
        return [(k, c / total) for k, c in enumerate(left) if c]

    def slot_owner(self, slot: int) -> int | None:
        """The seat that receives the ``slot``-th card dealt (``None``: the kitty)."""
        return slot // self.enc.hand_size if slot < self.enc.n * self.enc.hand_size else None

    def deal_card(self, kind: int) -> None:
        """:raises ValueError: for a card kind with no copy left."""
        if not 0 <= kind < len(self.enc.kinds) or self.dealt_kinds.count(kind) >= self.enc.copies[kind]:
            raise ValueError(f"no copy of card kind {kind} left to deal")
        self.dealt_kinds.append(kind)
        if len(self.dealt_kinds) == self.enc.deal_slots:
            self.deal = self._setup()

    def _setup(self) -> Deal:
        enc = self.enc
        cards = [enc.kinds[k] for k in self.dealt_kinds]
        h = enc.hand_size
        hands = [cards[s * h:(s + 1) * h] for s in range(enc.n)]
        record = {"kitty": [str(c) for c in cards[enc.n * h:]]} if enc.kitty else {}
        deal: Deal = enc.game.read_setup(record, enc.rules, enc.dealer, hands, None)
        return deal

    def hand_so_far(self, seat: int) -> list[Card]:
        return sorted(self.enc.kinds[k] for i, k in enumerate(self.dealt_kinds) if self.slot_owner(i) == seat)

    # -- moves -----------------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return None if self.deal is None else self.deal.to_move

    @property
    def discarding(self) -> bool:
        return self.deal is not None and self.deal.phase == DISCARD

    def legal_actions(self) -> list[int]:
        deal = self.deal
        if deal is None or deal.is_over:
            return []
        enc = self.enc
        if deal.phase == DISCARD:
            at = len(self.pending)
            nxt = set()
            for d in self._discards():
                if d[:at] == self.pending:
                    nxt.add(d[at])
            return sorted(enc.first_card + k for k in nxt)
        out = []
        for m in deal.legal_moves():
            out.append(enc.move_action(m))
        return sorted(out)

    def _discards(self) -> list[list[int]]:
        assert self.deal is not None
        return [sorted(self.enc.kind_of[str(c)] for c in m.cards)
                for m in self.deal.legal_moves() if isinstance(m, Discard)]

    def apply(self, action: int) -> None:
        """Apply a player action.

        :raises ValueError: if it is not legal now.
        """
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is not legal now; legal: {self.legal_actions()}")
        deal = self.deal
        assert deal is not None
        enc = self.enc
        if deal.phase == DISCARD:
            self.pending.append(action - enc.first_card)
            for m in deal.legal_moves():
                if isinstance(m, Discard) and sorted(enc.kind_of[str(c)] for c in m.cards) == self.pending:
                    self.push(m)
                    self.pending = []
                    break
            return
        for m in deal.legal_moves():
            if not isinstance(m, Discard) and enc.move_action(m) == action:
                self.push(m)
                return
        raise AssertionError(f"legal action {action} ({enc.action_text(action)}) has no move")  # pragma: no cover

    def push(self, move: Move) -> None:
        assert self.deal is not None
        self.deal.push(move)
        self.moves.append(move)

    def move_actions(self, move: Move) -> list[int]:
        """The actions that make ``move`` (a 55 discard: one a card, in increasing order)."""
        enc = self.enc
        if isinstance(move, Discard):
            return [enc.first_card + k for k in sorted(enc.kind_of[str(c)] for c in move.cards)]
        if isinstance(move, Card):
            return [enc.card_action(move)]
        return [enc.move_action(move)]

    # -- what a seat sees ------------------------------------------------------------------------------
    def seat_view(self, seat: int | None) -> dict[str, Any]:
        """The seat's view (:func:`fiftysix.views.view`), or while dealing the cards it has so far; plus what
        the seat itself knows from its own actions: its hand as dealt and its discard in the making."""
        enc = self.enc
        if self.deal is None:
            hand = [str(c) for c in self.hand_so_far(seat)] if seat is not None else None
            return {"seat": seat, "phase": "deal", "dealt_cards": len(self.dealt_kinds), "hand": hand,
                    "dealt": hand}
        v: dict[str, Any] = dict(view(self.deal, seat))
        for key in ("game", "rules", "auction_meanings", "match"):
            v.pop(key, None)
        v["dealt"] = [str(c) for c in self.deal.dealt[seat]] if seat is not None else None
        mine = seat is not None and self.discarding and self.deal.to_move == seat
        v["pending_discard"] = [str(enc.kinds[k]) for k in self.pending] if mine else []
        if mine:
            v["legal"] = [enc.action_text(a) for a in self.legal_actions()]
        return v

    def seat_string(self, seat: int | None, perfect_recall: bool = True) -> str:
        v = self.seat_view(seat)
        if not perfect_recall:
            v.pop("dealt", None)
        return json.dumps(v, separators=(",", ":"), sort_keys=True)

    def seen(self, seat: int | None) -> Seen:
        """What ``seat`` knows (``None``: a spectator): its typed observation, built from the deal (none while
        the cards are dealt), its hand as dealt and its discard in the making."""
        enc = self.enc
        if self.deal is None:
            hand = tuple(self.hand_so_far(seat)) if seat is not None else ()
            return Seen(enc, seat, "deal", hand, dealt=hand)
        obs = enc.game.observation(self.deal, seat)
        mine = seat is not None and self.discarding and self.deal.to_move == seat
        return Seen(enc, seat, obs.phase, obs.hand, obs,
                    dealt=tuple(self.deal.dealt[seat]) if seat is not None else (),
                    pending=tuple(enc.kinds[k] for k in self.pending) if mine else ())

    def fill(self, out: npt.NDArray[np.float32], seat: int, perfect_recall: bool, private: bool = True) -> None:
        """Write the seat's tensor (info state or observation layout) into ``out``; with ``private=False``
        what a spectator sees (the same for every seat)."""
        layout = self.enc.info_layout if perfect_recall else self.enc.obs_layout
        layout.encode(self.seen(seat if private else None), out)


def deal_from(enc: Encoding, hands: Sequence[Sequence[Card]], kitty: Sequence[Card] = ()) -> list[int]:
    """The chance actions that deal ``hands`` (and 55's ``kitty``), in deal order."""
    return [enc.kind_of[str(c)] for h in hands for c in sorted(h)] + [enc.kind_of[str(c)] for c in sorted(kitty)]


def record_actions(enc: Encoding, record: Mapping[str, object]) -> list[int]:
    """The actions, chance's then the players', that reach the position a deal record leaves its deal at.

    :raises RecordError: for a record that does not replay.
    :raises ValueError: for a record of other rules or another dealer than ``enc``'s.
    """
    from ..records import read_deal

    deal = read_deal(record)
    if deal.rules != enc.rules or deal.dealer != enc.dealer:
        raise ValueError(f"the record's rules or dealer ({json.dumps(record.get('rules'))}, dealer "
                         f"{record.get('dealer')}) are not those of the game ({json.dumps(enc.rules_json)}, dealer "
                         f"{enc.dealer})")
    table = Table(enc)
    actions = deal_from(enc, deal.dealt, getattr(deal, "kitty", ()))
    for kind in actions:
        table.deal_card(kind)
    for _, move in deal.history:
        for action in table.move_actions(move):
            actions.append(action)
            table.apply(action)
    return actions


def table_record(table: Table) -> dict[str, object]:
    """The table's deal as a deal record (``records.md``).

    :raises ValueError: while the cards are dealt or a discard is made card by card (a record holds whole
        moves).
    """
    from ..records import deal_record

    if table.deal is None:
        raise ValueError("the cards are still being dealt: no record yet")
    if table.pending:
        raise ValueError("a discard is being made card by card: a record holds whole moves only")
    return deal_record(table.deal)
