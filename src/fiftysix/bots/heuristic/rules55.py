"""A heuristic computer player for 55 that uses nothing but its seat view.

Bidding: for each suit the bot counts what its trumps are worth in tricks (the 5, the J, the A♥, the ace
of the suit, the king, the others), adds a little for the kitty it would take and for side kings, and
bids the cheapest legal value its best suit can carry; the dealer holds on the same estimate.  It does
not outbid a partner without a clearly better hand.

Discard and trumps: it picks the suit with the most trump strength among its ten cards, keeps those
trumps and throws the weakest plain cards; then it names that suit.

Play: it tracks the cards played and leads the highest trump while that trump is the best one still
out; otherwise it leads low plain cards.  Following, it wins as cheaply as it can when the trick is not
already its side's, throws its lowest card when it cannot win, and uses the renege privilege: on a
lower trump lead it keeps the 5, J and A♥ back whenever the rules let it play another card.

The bot always answers one of the observation's legal moves.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ...core.cards import CARDS, Card, Suit
from ...games.fifty_five import Auction55, Observation55, parse_call, play
from ..base import Seen, legal_moves, observed_as, register

IS_TRUMP, KEY, PRIVILEGED, TRUMP_BASE, trick_winner = (play.IS_TRUMP, play.KEY, play.PRIVILEGED, play.TRUMP_BASE,
                                                       play.trick_winner)

# What one trump is worth in tricks, by its place in the trump order (5, J, A♥, A, K, Q, then the rest).
_TRUMP_TRICKS = (1.0, 0.9, 0.8, 0.65, 0.45, 0.35)
_OTHER_TRUMP = 0.25


def aggression(players: int) -> tuple[float, float]:
    """(what taking the kitty is worth in tricks, points the bot bids beyond its estimate).

    Fitted by self-play (bots of different settings at one table, seats alternating): the kitty and the
    trump choice are worth much at a small table, so bidding boldly pays; at a big one the other hands
    hold more trumps and the bot bids closer to its cards.
    """
    if players <= 4:
        return 1.5, 5.0
    if players <= 7:
        return 1.0, 3.0
    return 1.0, 2.0


def _cards(texts: Iterable[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


def trump_tricks(hand: Sequence[Card], trump: int) -> float:
    """Tricks the trumps of ``hand`` should take with ``trump`` as trumps."""
    key = KEY[trump]
    order = sorted((c for c in CARDS if IS_TRUMP[trump][c]), key=lambda c: -key[c])
    tricks = 0.0
    for c in hand:
        if IS_TRUMP[trump][c]:
            place = order.index(c)
            tricks += _TRUMP_TRICKS[place] if place < len(_TRUMP_TRICKS) else _OTHER_TRUMP
    return tricks


def side_tricks(hand: Sequence[Card], trump: int, players: int) -> float:
    """Plain kings are worth something at a small table, little at a big one."""
    kings = sum(1 for c in hand if not IS_TRUMP[trump][c] and KEY[trump][c] == 13)
    return kings * (0.5 if players <= 3 else 0.25 if players <= 5 else 0.1)


def best_suit(hand: Sequence[Card], players: int) -> tuple[int, float]:
    """The suit the hand plays best as trumps, and its trick estimate."""
    scored = [(trump_tricks(hand, s) + side_tricks(hand, s, players), s) for s in Suit]
    tricks, suit = max(scored, key=lambda x: (x[0], -x[1]))
    return suit, tricks


def estimate(hand: Sequence[Card], players: int, kitty: float) -> float:
    """Points the hand should take as bidder (with the kitty still to come)."""
    suit, tricks = best_suit(hand, players)
    bonus = 5.0 if any(c in PRIVILEGED[suit] and KEY[suit][c] == max(KEY[suit]) for c in hand) else 2.0
    return 5.0 * min(tricks + kitty, 5.0) + bonus


class Rules55Bot:
    """A 55 player of rules of thumb; see the module docstring."""

    name = "rules"

    def __init__(self, seed: int | None = None, aggression: tuple[float, float] | None = None) -> None:
        self.rng = random.Random(seed)
        self.aggression = aggression
        """``(kitty tricks, points beyond the estimate)``; ``None``: :func:`aggression` for the table."""

    def choose(self, seen: Seen) -> str:
        obs = observed55(seen)
        legal = legal_moves(obs)
        if len(legal) == 1:
            return legal[0]
        phase = obs.phase
        if phase == "auction":
            return self._call(obs, legal)
        if phase == "discard":
            return self._discard(obs, legal)
        if phase == "trump":
            suit, _ = best_suit(obs.hand, obs.rules55.players)
            letter = Suit(suit).letter
            return letter if letter in legal else legal[0]
        return self._play(obs, legal)

    # -- auction ----------------------------------------------------------------------------------------
    def _call(self, obs: Observation55, legal: list[str]) -> str:
        rules = obs.rules55
        kitty, boldness = self.aggression or aggression(rules.players)
        worth = estimate(obs.hand, rules.players, kitty) + boldness
        auction = replay_auction(obs)
        high = auction.bidder
        if high is not None and rules.side_of[high] == rules.side_of[own_seat(obs)]:
            worth -= 10      # a partner holds the bid: raise only with a clearly better hand
        if "HOLD" in legal and high is not None and auction.value <= worth:
            return "HOLD"
        bids = [int(t) for t in legal if t.isdigit() and int(t) <= worth]
        if bids:
            return str(min(bids))
        return "P"

    # -- discard and trumps ---------------------------------------------------------------------------------
    def _discard(self, obs: Observation55, legal: list[str]) -> str:
        hand = list(obs.hand)
        suit, _ = best_suit(hand, obs.rules55.players)
        key, is_trump = KEY[suit], IS_TRUMP[suit]
        # Keep trumps first, then plain cards by rank; throw the five least useful.
        order = sorted(hand, key=lambda c: (is_trump[c], key[c]))
        throw = set(order[:5])
        for text in legal:
            if set(_cards(text.split())) == throw:
                return text
        return legal[0]  # pragma: no cover - every 5 of the 10 cards is legal

    # -- play ------------------------------------------------------------------------------------------
    def _play(self, obs: Observation55, legal_texts: list[str]) -> str:
        trump = obs.trump
        if trump is None or obs.trick is None:
            raise ValueError("a 55 card is played once the trump is named")
        key, is_trump = KEY[trump], IS_TRUMP[trump]
        legal = _cards(legal_texts)
        hand = list(obs.hand)
        trick = list(obs.trick.cards)
        n = obs.rules55.players
        if not trick:
            return str(self._lead(obs, trump, hand, legal))
        seat = own_seat(obs)
        leader = obs.trick.leader
        best_i = trick_winner(trick, trump)
        side_of = obs.rules55.side_of
        ours = side_of[(leader + best_i) % n] == side_of[seat]
        last = len(trick) == n - 1
        lowest = min(legal, key=lambda c: (is_trump[c], c in PRIVILEGED[trump], key[c]))
        led_trump = is_trump[trick[0]]
        if led_trump and any(not is_trump[c] for c in legal):
            # The renege privilege lets us keep the 5, J and A♥ back: do, unless one of them takes the
            # trick for good as the last card.
            winners = [c for c in legal if is_trump[c] and key[c] > key[trick[best_i]]]
            if last and winners and not ours:
                return str(min(winners, key=key.__getitem__))
            return str(lowest)
        if ours and (last or key[trick[best_i]] >= TRUMP_BASE + 12):
            return str(lowest)
        beats = [c for c in legal if _beats(trump, c, trick, best_i)]
        if beats:
            return str(min(beats, key=key.__getitem__))
        return str(lowest)

    def _lead(self, obs: Observation55, trump: int, hand: list[Card], legal: list[Card]) -> Card:
        key, is_trump = KEY[trump], IS_TRUMP[trump]
        out = _unseen_trumps(obs, trump, hand)
        mine = sorted((c for c in legal if is_trump[c]), key=lambda c: -key[c])
        if mine and (not out or key[mine[0]] > max(key[c] for c in out)):
            return mine[0]      # the best trump still out: draw trumps
        plain = [c for c in legal if not is_trump[c]]
        if plain:
            kings = [c for c in plain if key[c] == 13]
            return kings[0] if kings else min(plain, key=key.__getitem__)
        return min(legal, key=key.__getitem__)


def _beats(trump: Suit, card: Card, trick: Sequence[Card], best_i: int) -> bool:
    """Whether ``card`` would take the trick from its best card so far."""
    return trick_winner([*trick, card], trump) == len(trick)


def _unseen_trumps(obs: Observation55, trump: int, hand: Sequence[Card]) -> list[Card]:
    """The trumps neither in ``hand``, nor in a finished trick, nor in the discard the seat may see."""
    seen = set(hand)
    for t in obs.tricks:
        seen.update(t.cards)
    seen.update(obs.discard or ())
    return [c for c in CARDS if IS_TRUMP[trump][c] and c not in seen]


def observed55(seen: Seen) -> Observation55:
    """What a 55 seat knows (:func:`fiftysix.bots.base.observed`).

    :raises ValueError: for a view of another game.
    """
    return observed_as(seen, Observation55, "55")


def own_seat(obs: Observation55) -> int:
    """The seat of an observation that asks for a move.

    :raises ValueError: for a spectator's view.
    """
    if obs.seat is None:
        raise ValueError("a spectator's view asks for no move")
    return obs.seat


def replay_auction(seen: Seen) -> Auction55:
    """The public calls replayed through the game's own auction (the hold duel and all)."""
    obs = observed55(seen)
    auction = Auction55(obs.rules55, obs.dealer)
    for text in obs.auction:
        auction.push_unchecked(parse_call(text))
    return auction


register("rules", Rules55Bot, "55")
