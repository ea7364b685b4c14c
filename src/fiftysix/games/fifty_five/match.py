"""A 55 match: deal after deal, the dealer rotating, until a side reaches the target.

Standings are kept per side (a team with partnerships, otherwise a seat), starting at 0; they may go
below zero.  A thrown-in deal scores nothing but still passes the deal on.  A deal is always played out;
if several sides reach the target in it, :func:`~.scoring.first_to_reach` decides.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.cards import CARDS, Card
from ...core.deal import Deal
from ...core.match import MatchBase
from ...core.meaning import Meaning
from .deal import Deal55
from .rules import KITTY_SIZE, Rules55
from .scoring import first_to_reach


class Match55(MatchBase[Rules55]):
    """The same public face as :class:`~fiftysix.games.fifty_six.match.Match56`.

    :ivar standings: each side's score after the deals booked so far.
    :ivar winner: the side that reached the target first, once the match is over.
    """

    game = "55"

    rules: Rules55

    def __init__(self, rules: Rules55, first_dealer: int | None = None, seed: int | None = None) -> None:
        super().__init__(rules, [0] * rules.n_sides, first_dealer, seed)

    def current_scores(self) -> list[int]:
        """Standings per side (55 never re-seats, so these are the deal's side numbers too)."""
        return list(self.standings)

    def new_deal(self, seed: int | None = None) -> Deal55:
        """Shuffle and deal the next deal (from the match's generator unless a seed is given)."""
        return Deal55.from_seed(self.rules, dealer=self.dealer, rng=self._deal_rng(seed))

    def deal_from(self, hands: list[list[Card]], kitty: Sequence[Card] | None = None) -> Deal55:
        """The next deal with the given hands; without a kitty, it is dealt from the rest of the pack."""
        if kitty is None:
            used = {c for h in hands for c in h}
            kitty = self.rng.sample([c for c in CARDS if c not in used], KITTY_SIZE)
        return Deal55(self.rules, self.dealer, hands, kitty)

    def finish(self, deal: Deal) -> dict[str, object]:
        """Book a finished deal: add its score, decide whether a side has won, pass the deal on.

        :returns: the deal's result.
        """
        if not isinstance(deal, Deal55):
            raise TypeError(f"a match of {self.rules.game} books a Deal55, not {type(deal).__name__}")
        assert deal.is_over and not self.over
        result: dict[str, object] = dict(deal.result())
        score = deal.score()
        assert score is not None
        before = list(self.standings)
        for side, delta in enumerate(score):
            self.standings[side] += delta
        self.deals_booked += 1
        self.results.append(result)
        bonus_trick = deal.highest[2] if deal.highest is not None else None
        winner = first_to_reach(self.rules, before, score, deal.trick_sides(), bonus_trick, deal.contract)
        if winner is not None:
            self.over = True
            self.winner = winner
            self.end_reason = Meaning("side {side} reached the target {target}",
                                      {"side": winner, "target": self.rules.target})
        self.dealer = (self.dealer + 1) % self.rules.players
        return result
