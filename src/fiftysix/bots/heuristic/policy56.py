"""The ISMCTS policy of 56: candidate moves (a few honest bids, the trump choice, the cards), a light rollout
and the rewards (the deal's score for the team plus a little of its card points)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

from ...core.cards import SUITS, Card
from ...core.deal import AUCTION, PLAY, TRUMP, Deal
from ...core.moves import CLAIM, PASS, REVEAL, Call, Move
from ...games.fifty_six import TRUMP_CHOICES, Contract, Deal56, calls, deal_score, is_made, play
from ...solver import Position, kernel_available, solve

POINTS, STRENGTH, SUIT, trick_key = play.POINTS, play.STRENGTH, play.SUIT, play.trick_key

SOLVED_CARDS = 24
"""By default an iteration is valued double dummy from the trick at whose start this many cards are left (56):
about a millisecond's search (``bench/solver.py``), and it plays the endings better than rollouts do."""


class Policy56:
    """What ISMCTS needs to know about 56."""

    def __init__(self) -> None:
        self.calls, self.points, self.strength, self.suit = calls, POINTS, STRENGTH, SUIT
        self.trump_choices: tuple[Move, ...] = TRUMP_CHOICES
        self.partner_limit = 30
        # Sampled hands know nothing of the strength a bid shows, so the search thinks too well of its own
        # contracts and too badly of the other side's: it doubles only high bids, and a declaring team's
        # reward is shaded.
        self.double_from = 36
        self.declarer_shade = 0.1

    def suit_strength(self, hand: Sequence[Card]) -> list[float]:
        score = [0.0, 0.0, 0.0, 0.0]
        for c in hand:
            score[self.suit[c]] += 1 + self.points[c]
        return score

    def candidates(self, deal: Deal) -> list[tuple[object, Move]]:
        """(tree key, move) pairs.  Cards and trumps are their own keys; calls are keyed by what they do
        (``bid1`` = the lowest bid in the hand's best suit), so that a seat whose hand differs from one
        sampled deal to the next keeps the same few branches."""
        phase = deal.phase
        if phase == PLAY:
            return [(m, m) for m in deal.legal_moves() if m is not CLAIM]
        if phase == TRUMP:
            return [(m, m) for m in self.trump_choices]
        return self.call_candidates(cast(Deal56, deal))

    def _suit_bid(self, value: int, s: int, has_jack: bool, standard: bool) -> Call:
        suit = SUITS[s]
        if not standard:
            return self.calls.raise_to(value, suit)
        return self.calls.number_suit(value, suit) if has_jack else self.calls.suit_number(value, suit)

    def call_candidates(self, deal: Deal56) -> list[tuple[object, Move]]:
        """Pass, double, redouble, and honest bids at the lowest value in the two best suits and no-trumps,
        plus a jump by two in the best suit."""
        auction, rules = deal.auction, deal.rules
        out: list[tuple[object, Move]] = [(m.text, m) for m in auction.legal()[:3]
                                       if not m.is_bid and (m.kind != "double" or auction.value >= self.double_from)]
        value = max(auction.value + 1, self.calls.MIN_BID)
        if value > self.calls.MAX_BID or (auction.doubled and rules.double == "closes"):
            return out or [(m.text, m) for m in auction.legal()[:1]]
        if auction.bidder is not None and value > self.partner_limit \
                and rules.team_of[auction.bidder] == rules.team_of[cast(int, deal.to_move)] and out:
            # The sampled partner hands know nothing of the strength a bid shows, so the search would
            # always prefer its own strain; above the first round it leaves partner's bid alone.
            return out
        hand = deal.hands[cast(int, deal.to_move)]
        strength = self.suit_strength(hand)
        suits = sorted(range(4), key=lambda s: -strength[s])[:2]
        std = rules.bidding == "standard"
        jacks = [any(self.suit[c] == s and self.strength[c] == 8 for c in hand) for s in range(4)]
        bids: list[tuple[str, Call]] = [(f"bid{i + 1}", self._suit_bid(value, s, jacks[s], std))
                                        for i, s in enumerate(suits)]
        bids.append(("nt", self.calls.number_nt(value) if std else self.calls.raise_to(value, None)))
        if value + 2 <= self.calls.MAX_BID:
            bids.append(("jump", self._suit_bid(value + 2, suits[0], jacks[suits[0]], std)))
        out += [(k, b) for k, b in bids if auction.is_legal(b)]
        return out or [(m.text, m) for m in auction.legal()[:1]]

    def finish(self, deal: Deal, rng: random.Random, epsilon: float, solve_from: int | None) -> list[float]:
        """Play the deal out by the rollout policy and reward each team; once the position is
        :meth:`solvable`, the rest is valued double dummy instead."""
        deal = cast(Deal56, deal)
        while not deal.is_over:
            if self.solvable(deal, solve_from):
                return self.solved_rewards(deal)
            deal.push_unchecked(self.rollout_move(deal, rng, epsilon))
        return self.rewards(deal)

    def solvable(self, deal: Deal, solve_from: int | None) -> bool:
        """Whether an iteration values this position double dummy: the seat to move holds at most
        ``solve_from`` cards (anywhere in a trick), two teams, the trump known."""
        if solve_from is None:
            solve_from = SOLVED_CARDS // deal.n if kernel_available() else 0
        # annotations, not casts: this runs at every rollout move
        to: int = deal.to_move  # type: ignore[assignment]
        d56: Deal56 = deal  # type: ignore[assignment]
        return bool(solve_from and deal.phase == PLAY and len(deal.hands[to]) <= solve_from
                    and d56.revealed and deal.rules.n_teams == 2)

    def solved_rewards(self, deal: Deal56) -> list[float]:
        """The rewards when the rest of the deal is played double dummy."""
        pos = Position.from_deal(deal)
        team = pos.team_to_move
        left = pos.points_left()
        value = solve(pos)
        points = [p + (value if t == team else left - value) for t, p in enumerate(deal.points)]
        contract = cast(Contract, deal.contract)     # set in the play phase
        score = deal_score(deal.rules, contract, is_made(contract, points))
        return self.reward(score, points, contract.team)

    def rollout_move(self, deal: Deal56, rng: random.Random, epsilon: float) -> Move:
        """The light policy's move, in any phase."""
        phase = deal.phase
        if phase == PLAY:
            return self.card(deal, rng, epsilon)
        if phase == AUCTION:
            legal = deal.legal_moves()
            if legal[0] is PASS:
                return PASS
            options = [m for _, m in self.call_candidates(deal)]
            return next((m for m in options if isinstance(m, Call) and m.is_bid), options[0])
        strength = self.suit_strength(deal.hands[cast(int, deal.to_move)])
        return self.trump_choices[max(range(4), key=strength.__getitem__)]

    def card(self, deal: Deal56, rng: random.Random, epsilon: float) -> Move:
        """Light play: win cheaply when possible, give points to a partner who is winning, else throw low."""
        legal = deal.legal_moves()
        if rng.random() < epsilon:
            m = legal[rng.randrange(len(legal))]
            return legal[0] if m is CLAIM else m
        cards = [m for m in legal if isinstance(m, Card)]
        if REVEAL in legal and rng.random() < 0.3:
            return REVEAL
        trick = deal.trick_cards
        if not trick:
            return self.lead(deal, cards)
        suit, strength, points = self.suit, self.strength, self.points
        trump = deal.active_trump
        led = suit[trick[0]]

        def key(c: Card) -> int:
            return trick_key(c, led, trump)

        best_i = play.trick_winner(trick, trump)     # the game's own rule
        best = key(trick[best_i])
        n = deal.n
        me: int = deal.to_move  # type: ignore[assignment]  # (a rollout's every card: no cast call)
        winner_seat = (me - len(trick) + best_i) % n
        team_of = deal.rules.team_of
        if team_of[winner_seat] == team_of[me]:
            return max(cards, key=lambda c: (points[c], -strength[c]))
        winners = [c for c in cards if key(c) > best]
        if winners:
            return min(winners, key=lambda c: (key(c), -points[c]))
        return min(cards, key=lambda c: (points[c], strength[c]))

    def lead(self, deal: Deal56, cards: Sequence[Card]) -> Card:
        """Lead the richest card nobody can beat or ruff (the playout sees every hand of its sampled deal),
        else the cheapest card of the longest suit."""
        suit, strength, points = self.suit, self.strength, self.points
        me, trump = deal.to_move, deal.active_trump
        top = [-1, -1, -1, -1]          # the best strength of each suit in the other hands
        ruffers = [False, False, False, False]
        held = [[False] * 4 for _ in range(deal.n)]
        for seat, hand in enumerate(deal.hands):
            if seat == me:
                continue
            for c in hand:
                held[seat][suit[c]] = True
                if strength[c] > top[suit[c]]:
                    top[suit[c]] = strength[c]
        if trump is not None:
            ruffers = [any(not held[seat][s] and held[seat][trump] for seat in range(deal.n) if seat != me)
                       if s != trump else False for s in range(4)]
        masters = [c for c in cards if strength[c] > top[suit[c]] and not ruffers[suit[c]]]
        if masters:
            return max(masters, key=lambda c: (points[c], strength[c]))
        length = [0, 0, 0, 0]
        for c in cards:
            length[suit[c]] += 1
        return min(cards, key=lambda c: (-length[suit[c]], points[c], strength[c]))

    def rewards(self, deal: Deal56) -> list[float]:
        score = deal.score() or [0] * deal.rules.n_teams
        return self.reward(score, deal.points, deal.contract.team if deal.contract is not None else -1)

    def reward(self, score: Sequence[int], points: Sequence[int], declarer: int) -> list[float]:
        """Each team's reward: its score, clipped, plus a little of its card points above a fair share."""
        fair = 56 / len(score)
        return [max(-2.0, min(2.0, s / 4)) + 0.25 * (p - fair) / 28 - (self.declarer_shade if t == declarer else 0.0)
                for t, (s, p) in enumerate(zip(score, points, strict=True))]
