"""A heuristic computer player for 56 that uses nothing but its seat view.

Bidding: each strain (four suits and no-trumps) gets an estimate of the card points the bot's team can
take with this hand as declarer (a linear formula over hand features, fitted on self-play deals; see
``bench/calibrate_rules56.py``).  The bot bids the cheapest legal value in its best strain while that
value stays within the estimate less a safety margin (plus a small allowance when partner has bid), in
the written form that tells the truth about the hand: ``28H`` with the J, ``H28`` without it, ``28NT``,
``+kH`` when its cards of the suit are exactly the k top cards, ``NOES`` when void in the last suit bid.
It doubles and redoubles rarely, only with a clear holding against the bid.

Play: it tracks the cards played and the suits players are known to be void in, then follows a few
rules of thumb: win cheaply when the trick can be held, give points to a partner who is winning safely,
throw low cards to opponents, lead masters (and draw trumps as declarer), trump point-heavy tricks when
void, and ask for a hidden trump only when it pays.

The bot always answers one of the observation's legal moves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ...games.fifty_six import Observation56
from ..base import Seen, legal_moves, register
from .knowledge import (
    ALL_RANKS,
    DEFAULT_DECK,
    POINTS,
    STRAINS,
    SUITS,
    AuctionState,
    Table,
    observed56,
    points,
    rank_of,
    read_bid,
    strength,
    suit_of,
)

__all__ = ["ALL_RANKS", "DEFAULT_DECK", "POINTS", "STRAINS", "SUITS", "AuctionState", "Rules56Bot", "Table",
           "call_suits", "estimate", "hand_features", "points", "rank_of", "read_bid", "strength", "suit_of", "top_run"]


# ---- hand evaluation ---------------------------------------------------------------------------------

def _suit_cards(hand: Sequence[str], suit: str) -> list[str]:
    return sorted((c for c in hand if c[1] == suit), key=strength, reverse=True)


def top_run(hand: Sequence[str], suit: str, ranks: str) -> int:
    """k if the hand's cards of ``suit`` are exactly the k top cards of the suit (J J 9 9 A A …), else 0."""
    mine = _suit_cards(hand, suit)
    order = [r for r in ranks for _ in range(2)]
    if not mine or len(mine) > len(order):
        return 0
    return len(mine) if [c[0] for c in mine] == order[: len(mine)] else 0


def hand_features(hand: Sequence[str], strain: str) -> list[float]:
    """Features of a hand for declaring in ``strain`` (see :data:`WEIGHTS`)."""
    by_suit = {s: _suit_cards(hand, s) for s in SUITS}
    hand_points = sum(points(c) for c in hand)
    if strain == "NT":
        return _no_trump_features(hand, by_suit, hand_points)
    return _trump_features(by_suit, strain, hand_points)


def _no_trump_features(hand: Sequence[str], by_suit: dict[str, list[str]], hand_points: int) -> list[float]:
    jacks = sum(1 for c in hand if c[0] == "J")
    nines_backed = sum(sum(1 for c in cs if c[0] == "9") for cs in by_suit.values()
                       if any(c[0] == "J" for c in cs))
    double_jacks = sum(1 for cs in by_suit.values() if sum(1 for c in cs if c[0] == "J") == 2)
    longest = max(len(cs) for cs in by_suit.values())
    return [1.0, float(jacks), float(nines_backed), float(double_jacks), float(hand_points), float(longest),
            0.0, 0.0]


def _trump_features(by_suit: dict[str, list[str]], strain: str, hand_points: int) -> list[float]:
    trumps = by_suit[strain]
    tj = sum(1 for c in trumps if c[0] == "J")
    t9 = sum(1 for c in trumps if c[0] == "9")
    length = len(trumps)
    side = [cs for s, cs in by_suit.items() if s != strain]
    side_j = sum(1 for cs in side for c in cs if c[0] == "J")
    side_9 = sum(sum(1 for c in cs if c[0] == "9") for cs in side if any(c[0] == "J" for c in cs))
    voids = sum(1 for cs in side if not cs)
    return [1.0, float(tj), float(t9), float(length), float(side_j), float(side_9), float(hand_points),
            float(voids * min(length, 3))]


# Fitted per (players, deck size, teams) by bench/calibrate_rules56.py: expected card points of the
# declaring team.  Key ``"suit"`` and ``"nt"``; features as in hand_features.
WEIGHTS: dict[tuple[int, int, int], dict[str, tuple[float, ...]]] = {
    (4, 48, 2): {  # 56-4  rms error suit 7.5, nt 7.7
        "suit": (14.10, 2.08, 1.15, 2.02, 2.42, 0.21, 0.20, 0.90),
        "nt": (17.73, 1.15, 1.15, 3.28, 0.28, 0.41, 0.00, 0.00),
    },
    (4, 32, 2): {  # 56-4 {'deck': 32} rms error suit 9.7, nt 10.8
        "suit": (14.13, 3.75, 1.47, 2.84, 2.29, 0.13, 0.21, 1.39),
        "nt": (10.43, 2.94, 2.00, 2.71, 0.37, 1.97, 0.00, 0.00),
    },
    (6, 48, 2): {  # 56-6  rms error suit 10.3, nt 10.3
        "suit": (21.21, 3.36, 1.98, 1.81, 2.58, 0.41, -0.13, 1.08),
        "nt": (19.82, 2.67, 2.64, 1.42, 0.06, 1.01, 0.00, 0.00),
    },
    (6, 48, 3): {  # 56-pairs-6 {'double': 'reopens'} rms error suit 8.9, nt 9.8
        "suit": (8.19, 4.48, 2.85, 2.47, 2.61, 0.52, 0.11, 0.92),
        "nt": (6.30, 3.78, 1.08, 2.54, 0.38, 1.08, 0.00, 0.00),
    },
    (8, 64, 2): {  # 56-8  rms error suit 10.5, nt 8.9
        "suit": (22.24, 1.85, 1.90, 1.60, 1.77, -0.09, 0.04, 0.81),
        "nt": (24.61, 0.92, 2.17, 2.88, 0.18, 0.34, 0.00, 0.00),
    },
    (8, 48, 2): {  # 56-8 {'deck': 48} rms error suit 11.9, nt 11.5
        "suit": (21.87, 4.41, 2.89, 1.06, 1.51, -0.35, 0.09, 1.13),
        "nt": (20.12, 3.20, 2.89, 4.28, 0.25, 1.08, 0.00, 0.00),
    },
    (8, 64, 4): {  # 56-pairs-8 {'double': 'reopens'} rms error suit 8.3, nt 8.5
        "suit": (5.39, 3.82, 3.29, 2.51, 1.68, -0.63, 0.15, 0.76),
        "nt": (7.35, 2.73, 1.09, 1.58, 0.40, 0.19, 0.00, 0.00),
    },
    (8, 48, 4): {  # 56-pairs-8 {'double': 'reopens', 'deck': 48} rms error suit 9.0, nt 9.2
        "suit": (6.28, 6.64, 4.21, 2.09, 1.16, 0.74, 0.05, 1.17),
        "nt": (3.92, 5.48, 2.84, 2.41, 0.19, 1.21, 0.00, 0.00),
    },
}


def _fallback_weights(players: int, deck: int, teams: int) -> dict[str, tuple[float, ...]]:
    """A rough formula for configurations without fitted weights: the team's fair share plus the hand."""
    share = 56.0 / teams
    hand = deck / players
    avg_hand_points = 56.0 / players
    trick = 56.0 / hand
    base = share - 0.6 * avg_hand_points
    suit = (base - 1.2 * trick * hand / 8, 0.9 * trick, 0.45 * trick, 0.25 * trick * 8 / hand, 0.6 * trick,
            0.2 * trick, 0.6, 0.15 * trick)
    nt = (base - 0.8 * trick, 0.8 * trick, 0.3 * trick, 0.2 * trick, 0.6, 0.05 * trick, 0.0, 0.0)
    return {"suit": suit, "nt": nt}


def estimate(hand: Sequence[str], strain: str, players: int, deck: int, teams: int) -> float:
    """Expected card points of the bot's team as declarer in ``strain``, partners assumed average."""
    w = WEIGHTS.get((players, deck, teams)) or _fallback_weights(players, deck, teams)
    coef = w["nt" if strain == "NT" else "suit"]
    return sum(a * b for a, b in zip(coef, hand_features(hand, strain), strict=False))


# ---- reading the auction ---------------------------------------------------------------------------

SHOWN_SHARE = 0.6
"""How much more likely a seat holds a card it showed than an average seat would (roughly)."""


def auction_adjustments(t: Table, a: AuctionState) -> dict[str, float]:
    """Corrections to the strain estimates from what partners and opponents showed.

    A top trump shown by a partner (``28H``: the J♥; ``+2H``: both J♥) is worth about what it is worth in
    the bot's own hand, one shown by an opponent as much against; a suit a partner bid shows length there
    (an opponent's, length against); a partner void in a suit (``NOES``) will not help in it.  Jacks shown
    help or hurt no-trumps a little.
    """
    w = WEIGHTS.get((t.n, t.deck, t.n_teams)) or _fallback_weights(t.n, t.deck, t.n_teams)
    w_j, w_9 = max(w["suit"][1], 0.0), max(w["suit"][2], 0.0)
    out = dict.fromkeys(STRAINS, 0.0)
    for seat in range(t.n):
        if seat == t.seat:
            continue
        sign = 1.0 if t.is_partner(seat) else -1.0
        for card, k in t.shown[seat].items():
            s = suit_of(card)
            if rank_of(card) == "J":
                out[s] += sign * SHOWN_SHARE * w_j * k
                out["NT"] += sign * 0.5 * k
            elif rank_of(card) == "9":
                out[s] += sign * SHOWN_SHARE * w_9 * k
        if sign > 0:
            for s in SUITS:
                if s in t.voids[seat] and not t.played_by[seat]:
                    out[s] -= 1.5
    for seat, _value, strain, _text in a.bids:
        if seat == t.seat or strain not in SUITS:
            continue
        out[strain] += 1.0 if t.is_partner(seat) else -1.0
    return out


def call_suits(call: str) -> set[str]:
    """The suits a call is read as naming when a partner made it (its last and first letters: ``28H``, ``H28``,
    ``+2H``; ``28NOES`` reads as spades)."""
    if call in ("P", "X", "XX"):
        return set()
    return {ch for ch in call[-1:] + call[:1] if ch in SUITS}


# ---- the bot -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _TrickSoFar:
    """The trick a seat follows to, as it stands: who wins it, with what, what it holds, who plays after."""

    led: str
    best: str                   # the card winning so far
    partner_winning: bool
    opp_after: list[int]        # opponents still to play
    still_to_play: int
    points: int
    following: bool             # the seat holds the suit led
    beats: list[str]            # the seat's cards that would win the trick now

    @staticmethod
    def read(t: Table, cards: list[str]) -> _TrickSoFar:
        led = suit_of(t.trick_cards[0])
        win = t.current_winner()
        assert win is not None
        win_pos, best = win
        after = t.players_after()
        return _TrickSoFar(
            led=led, best=best, partner_winning=t.is_partner((t.trick_leader + win_pos) % t.n),
            opp_after=[s for s in after if not t.is_partner(s)], still_to_play=len(after),
            points=sum(points(c) for c in t.trick_cards), following=any(suit_of(c) == led for c in cards),
            beats=[c for c in cards if t.key(c, led) > t.key(best, led)])


class Rules56Bot:
    """Heuristic 56 player (``rules``).  Deterministic for a given seed."""

    name = "rules"
    margin = 2.0            # bid up to the estimate less this
    partner_allowance = 2.0  # extra when partner has shown strength by bidding

    def __init__(self, seed: int | None = None, margin: float | None = None) -> None:
        self.rng = random.Random(seed)
        if margin is not None:  # the arena panel's bold bidder (``rules,margin=-1``); default: the class's 2.0
            self.margin = float(margin)

    def choose(self, seen: Seen) -> str:
        obs = observed56(seen)
        legal = legal_moves(obs)
        phase = obs.phase
        move: str | None = None
        if phase == "auction":
            move = self.call(obs, legal)
        elif phase == "trump":
            move = self.trump(obs, legal)
        elif phase == "play":
            move = self.play(obs, legal)
        if move not in legal:
            move = self._safe_default(legal)
        return move

    @staticmethod
    def _safe_default(legal: Sequence[str]) -> str:
        for m in ("P", "NT"):
            if m in legal:
                return m
        cards = [m for m in legal if len(m) == 2 and m[0] in ALL_RANKS and m[1] in SUITS]
        if cards:
            return min(cards, key=lambda c: (points(c), strength(c)))
        return legal[0]

    # -- estimates ----------------------------------------------------------------------------------------
    def estimates(self, t: Table, a: AuctionState | None = None) -> dict[str, float]:
        """Expected card points of the team as declarer per strain: the hand's own estimate, corrected
        by what the other seats showed in the auction (``a``)."""
        est = {s: estimate(t.hand, s, t.n, t.deck, t.n_teams) for s in STRAINS}
        if a is not None:
            for s, delta in auction_adjustments(t, a).items():
                est[s] += delta
        return est

    def best_strain(self, t: Table, choices: Sequence[str] = STRAINS) -> tuple[str, float]:
        est = self.estimates(t, AuctionState(t))
        best = max(choices, key=lambda s: (est[s], s == "NT"))
        return best, est[best]

    # -- auction ------------------------------------------------------------------------------------------
    def call(self, obs: Observation56, legal: list[str]) -> str:
        t = Table(obs)
        a = AuctionState(t)
        est = self.estimates(t, a)
        strain = max(STRAINS, key=lambda s: (est[s], s == "NT"))
        # More partners make the estimate noisier and the auction more crowded: be a little more careful.
        margin = self.margin + (1.0 if t.n >= 8 else 0.0)
        limit = est[strain] - margin
        if a.partner_bid:
            limit += self.partner_allowance / (2.0 if t.n >= 8 else 1.0)
        if a.bidder is not None and t.is_partner(a.bidder):
            # Partner holds the contract: let it stand unless the hand is much better on its own.
            if a.doubled == 1 and "XX" in legal and est[strain] + self.partner_allowance >= a.value + 8:
                return "XX"
            if est[strain] - margin < a.value + 6:
                return "P" if "P" in legal else self._cheapest_bid(t, a, strain, legal)
        if a.bidder is not None and not t.is_partner(a.bidder) and "X" in legal and self.should_double(t, a):
            return "X"
        if a.closed:
            return "P" if "P" in legal else legal[0]
        target = max(a.value + 1, 28)
        if target <= limit or "P" not in legal:
            bid = self.bid_text(t, a, strain, target, limit, legal)
            if bid is not None:
                return bid
            if "P" not in legal:
                return self._cheapest_bid(t, a, strain, legal)
        return "P"

    def _cheapest_bid(self, t: Table, a: AuctionState, strain: str, legal: list[str]) -> str:
        bid = self.bid_text(t, a, strain, max(a.value + 1, 28), 56, legal)
        if bid is not None:
            return bid
        for m in legal:
            if m not in ("P", "X", "XX"):
                return m
        return legal[0]

    def should_double(self, t: Table, a: AuctionState) -> bool:
        """Double only with a clear holding against the bid: top trumps of its strain, or a big hand."""
        strain = a.strain
        jacks = sum(1 for c in t.hand if c[0] == "J")
        hand_points = sum(points(c) for c in t.hand)
        fair = 56.0 / t.n
        if strain in SUITS:
            tj = sum(1 for c in t.hand if c == "J" + strain)
            t9 = sum(1 for c in t.hand if c == "9" + strain)
            if tj == 2 and t9 >= 1 and a.value >= 32:
                return True
            if tj == 2 and a.value >= 38:
                return True
            return tj >= 1 and hand_points >= 2.2 * fair and a.value >= 42
        return jacks >= 3 and hand_points >= 2 * fair and a.value >= 36

    def bid_text(self, t: Table, a: AuctionState, strain: str, value: int, limit: float,
                 legal: list[str]) -> str | None:
        """The call that bids ``strain`` at ``value`` in the form that tells the truth about the hand."""
        legal_set = set(legal)
        if t.bidding == "announcements":
            return self._announcement(t, a, strain, legal_set)
        candidates: list[str] = []
        if strain == "NT":
            if a.last_suit is not None and not any(c[1] == a.last_suit for c in t.hand):
                candidates.append(f"{value}NOES")
            candidates.append(f"{value}NT")
        else:
            k = top_run(t.hand, strain, t.ranks)
            if k and a.bidder is not None and a.value + k <= limit and a.value + k >= 28:
                candidates.append(f"+{k}{strain}")
            has_j = any(c == "J" + strain for c in t.hand)
            candidates.append(f"{value}{strain}" if has_j else f"{strain}{value}")
        for c in candidates:
            if c in legal_set:
                return c
        return None

    def _announcement(self, t: Table, a: AuctionState, strain: str, legal: set[str]) -> str | None:
        """A simple raise by one (or a first number) in the announcement language."""
        value = max(a.value + 1, 28)
        options: list[str] = []
        if strain == "NT":
            if a.last_suit is not None and not any(c[1] == a.last_suit for c in t.hand):
                options.append("NOS")
            options += ["NT", f"{value}NT"]
        else:
            mine = _suit_cards(t.hand, strain)
            has_top = any(c[0] == "J" for c in mine)
            count = len(mine)
            if has_top:
                if count >= 4:
                    options.append(f"{value}{strain}")
                options.append({1: f"+1{strain}", 2: f"1+{strain}"}.get(count, f"+{strain}"))
            else:
                if count in (3, 4):
                    options.append(f"-{strain}")
                options.append(f"-{count}{strain}")
            options += ["NT", f"{value}NT"]
        for o in options:
            if o in legal:
                return o
        return None

    # -- trump choice ---------------------------------------------------------------------------------
    def trump(self, obs: Observation56, legal: list[str]) -> str:
        t = Table(obs)
        choices = [s for s in STRAINS if s in legal]
        if not choices:
            return legal[0]
        best, _ = self.best_strain(t, choices)
        return best

    # -- play -------------------------------------------------------------------------------------------
    def play(self, obs: Observation56, legal: list[str]) -> str:
        t = Table(obs)
        cards = [m for m in legal if len(m) == 2 and m[1] in SUITS]
        if not cards:
            return legal[0]
        if not t.trick_cards:
            return self.lead(t, cards)
        return self.follow(t, cards, "?" in legal)

    def lead(self, t: Table, cards: list[str]) -> str:
        trump = t.active_trump
        declaring = t.declaring_team == t.team
        opponents = [s for s in range(t.n) if not t.is_partner(s)]
        # Draw trumps as the declaring team while the opponents may still hold some.
        if declaring and trump is not None:
            my_trumps = [c for c in cards if suit_of(c) == trump]
            opp_may = t.outstanding_in(trump) > 0 and any(trump not in t.voids[s] for s in opponents)
            if my_trumps and opp_may:
                top = max(my_trumps, key=strength)
                if t.is_master(top) and len(my_trumps) >= 2:
                    return top
        # Masters in side suits that no opponent can ruff (near the end, when a ruff would catch the master
        # later as well, any master: cash it while the ruffer may have no trump left).
        masters = []
        for c in cards:
            s = suit_of(c)
            if s == trump or not t.is_master(c):
                continue
            ruff = trump is not None and len(t.hand) > 2 and any(
                s in t.voids[o] and t.may_hold(o, trump) for o in opponents)
            if not ruff:
                masters.append(c)
        if masters:
            return max(masters, key=lambda c: (points(c), -t.outstanding_in(suit_of(c))))
        # Otherwise a low card from a good suit: one partner bid, a long one; not trumps when defending.
        partner_suits = self._partner_suits(t)

        def lowest(s: str) -> str:
            return min((c for c in cards if suit_of(c) == s), key=lambda c: (points(c), strength(c)))

        def suit_score(s: str) -> float:
            score = float(self._suit_len(t, s))
            if s in partner_suits:
                score += 3
            if s == trump and not declaring:
                score -= 5
            return score - 1.5 * points(lowest(s))   # what the lead may give away

        suits = sorted({suit_of(c) for c in cards})
        return lowest(max(suits, key=suit_score))

    @staticmethod
    def _partner_suits(t: Table) -> set[str]:
        """Suits partners named in the auction (their bids show strength there)."""
        out: set[str] = set()
        calls = t.obs.auction
        first = t.first_hand
        for i, call in enumerate(calls):
            seat = (first + i) % t.n
            if seat != t.seat and t.is_partner(seat):
                out |= call_suits(call)
        return out

    def follow(self, t: Table, cards: list[str], may_reveal: bool) -> str:
        trick = _TrickSoFar.read(t, cards)
        if trick.partner_winning:
            return self._with_partner_winning(t, cards, trick)
        # An opponent is winning (or nobody has a card yet that counts).
        if trick.following:
            return self._against_opponent(t, cards, trick)
        return self._void_in_the_suit_led(t, cards, trick, may_reveal)

    def _with_partner_winning(self, t: Table, cards: list[str], trick: _TrickSoFar) -> str:
        led = trick.led
        if not t.can_be_beaten(trick.best, led, trick.opp_after):
            pool = [c for c in cards if suit_of(c) != t.active_trump or trick.following] or cards
            return self._gift(t, pool, led)
        # Partner's card may still be beaten: take the trick with a card nobody after can beat (in the
        # suit led always, a trump only for a rich trick).
        safe_winners = [c for c in trick.beats if not t.can_be_beaten(c, led, trick.opp_after)]
        if safe_winners and (trick.following or trick.points + 2 >= 4):
            return min(safe_winners, key=lambda c: (strength(c) + (16 if suit_of(c) == t.active_trump else 0),
                                                    points(c)))
        return self._low(t, cards)

    def _against_opponent(self, t: Table, cards: list[str], trick: _TrickSoFar) -> str:
        """Following suit to a trick an opponent is winning: win it safely, or dearly when it is rich."""
        if trick.beats:
            safe_winners = [c for c in trick.beats if not t.can_be_beaten(c, trick.led, trick.opp_after)]
            if safe_winners:
                return min(safe_winners, key=lambda c: (strength(c), -points(c)))
            if trick.points >= 4:
                return max(trick.beats, key=strength)
        return self._low(t, cards)

    def _void_in_the_suit_led(self, t: Table, cards: list[str], trick: _TrickSoFar, may_reveal: bool) -> str:
        trump = t.active_trump
        expected = trick.points + trick.still_to_play   # a rough guess of what the trick will hold
        if trump is not None:
            ruffs = [c for c in trick.beats if suit_of(c) == trump]
            if ruffs and expected >= 3:
                held = [c for c in ruffs if not t.can_be_beaten(c, trick.led, trick.opp_after)]
                return min(held or ruffs, key=strength)
        elif may_reveal and self.should_reveal(t, trick.points):
            return "?"
        discards = [c for c in cards if suit_of(c) != trump] or cards
        return self._low(t, discards)

    def _low(self, t: Table, cs: Sequence[str]) -> str:
        """The cheapest card to give: fewest points, no trump, no master, low, from a long suit."""
        return min(cs, key=lambda c: (points(c), suit_of(c) == t.active_trump, t.is_master(c),
                                      strength(c), -self._suit_len(t, suit_of(c))))

    @staticmethod
    def _gift(t: Table, cs: Sequence[str], led: str) -> str:
        # The most points that would not win a trick on their own later.
        return max(cs, key=lambda c: (points(c) if not t.is_master(c) or suit_of(c) == led else points(c) - 2.5,
                                      suit_of(c) != t.active_trump, -strength(c)))

    def should_reveal(self, t: Table, trick_points: int) -> bool:
        """Hidden trumps: the declarer asks when it can trump a valuable trick; others only for a big one."""
        hidden = t.known_trump
        if hidden is not None:   # this seat knows the hidden trump: it is the declarer
            has = any(suit_of(c) == hidden for c in t.hand)
            return has and trick_points >= 4
        return trick_points >= 7

    @staticmethod
    def _suit_len(t: Table, suit: str) -> int:
        return sum(1 for c in t.hand if suit_of(c) == suit)


register("rules", Rules56Bot, "56")
