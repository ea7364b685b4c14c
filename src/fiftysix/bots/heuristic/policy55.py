"""The ISMCTS policy of 55: candidate moves (per trump suit one discard; the cards), a light rollout and the
rewards (the deal's score per side)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

from ...core.cards import Card, Suit
from ...core.deal import AUCTION, DISCARD, PLAY, Deal
from ...core.moves import PASS, Discard, Move
from ...games.fifty_five import TRUMP_CHOICES, Deal55, play

KEY, TRUMP_BASE = play.KEY, play.TRUMP_BASE


class Policy55:
    """What ISMCTS needs to know about 55."""

    def __init__(self) -> None:
        self.key, self.trump_base, self.trump_choices = KEY, TRUMP_BASE, TRUMP_CHOICES

    def trump_strength(self, hand: Sequence[Card]) -> list[int]:
        base = self.trump_base
        return [sum(k - base for k in (self.key[s][c] for c in hand) if k > base) for s in range(4)]

    def discards(self, deal: Deal) -> list[tuple[object, Move]]:
        """Per trump suit, put away the five cards that are worth least with that suit as trumps."""
        hand = deal.hands[cast(int, deal.to_move)]
        out: list[tuple[object, Move]] = []
        for s in range(4):
            worst = sorted(hand, key=self.key[s].__getitem__)[:len(hand) - 5]
            move = Discard(tuple(deal.sort_hand(worst)))
            if all(move != m for _, m in out):
                out.append((f"keep{s}", move))
        return out

    def candidates(self, deal: Deal) -> list[tuple[object, Move]]:
        if deal.phase == DISCARD:
            return self.discards(deal)
        return [(m, m) for m in deal.legal_moves()]

    def solvable(self, deal: Deal, solve_from: int | None) -> bool:
        """55 deals are short: always played out."""
        return False

    def finish(self, deal: Deal, rng: random.Random, epsilon: float, solve_from: int | None) -> list[float]:
        """Play the deal out by the rollout policy (55 deals are short) and reward each side."""
        deal = cast(Deal55, deal)
        while not deal.is_over:
            phase = deal.phase
            if phase == PLAY:
                move: Move = self.card(deal, rng, epsilon)
            elif phase == AUCTION:
                legal = deal.legal_moves()
                move = PASS if PASS in legal else legal[0]
            elif phase == DISCARD:
                strength = self.trump_strength(deal.hands[cast(int, deal.to_move)])
                best = max(range(4), key=strength.__getitem__)
                key = self.key[best]
                hand = deal.hands[cast(int, deal.to_move)]
                move = Discard(tuple(deal.sort_hand(sorted(hand, key=lambda c: key[c])[:len(hand) - 5])))
            else:
                strength = self.trump_strength(deal.hands[cast(int, deal.to_move)])
                move = self.trump_choices[max(range(4), key=strength.__getitem__)]
            deal.push_unchecked(move)
        return self.rewards(deal)

    def card(self, deal: Deal55, rng: random.Random, epsilon: float) -> Move:
        # annotations, not casts: this runs at every rollout card
        legal: tuple[Card, ...] = deal.legal_moves()  # type: ignore[assignment]  # 55's play has cards only
        if rng.random() < epsilon or not deal.trick_cards:
            return legal[rng.randrange(len(legal))]
        trick = deal.trick_cards
        trump: Suit = deal.trump  # type: ignore[assignment]  # chosen before the play
        key = self.key[trump]
        best_i = play.trick_winner(trick, trump)     # the game's own rule
        me: int = deal.to_move  # type: ignore[assignment]
        side_of = deal.rules.team_of
        if side_of[(me - len(trick) + best_i) % deal.n] == side_of[me]:
            return min(legal, key=lambda c: key[c])
        winners = [c for c in legal if play.trick_winner([*trick, c], trump) == len(trick)]
        if winners:
            return min(winners, key=lambda c: key[c])
        return min(legal, key=lambda c: key[c])

    def rewards(self, deal: Deal55) -> list[float]:
        score = deal.score() or [0] * deal.rules.n_teams
        return [s / 30 for s in score]
