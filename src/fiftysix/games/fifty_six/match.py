"""A 56 match: deal after deal, the dealer rotating, until one team is left (``tables``) or the set
number of deals or the target is reached (``points``).

Teams keep their original numbers in :attr:`Match56.standings`; when a team runs out of tables its
players leave and the survivors are re-seated in their old order, with the deck and hand size for their
number.
"""

from __future__ import annotations

from ...core.cards import Card
from ...core.deal import Deal
from ...core.match import MatchBase
from ...core.meaning import Meaning, Plural
from .deal import Deal56
from .rules import Rules56
from .scoring import deal_score, pay_tables


class Match56(MatchBase[Rules56]):
    game = "56"
    rules: Rules56
    deal_rules: Rules56

    def __init__(self, rules: Rules56, first_dealer: int | None = None, seed: int | None = None) -> None:
        start = rules.tables if rules.scoring == "tables" else 0
        super().__init__(rules, [start] * rules.n_teams, first_dealer, seed)
        self.seats: list[int] = list(range(rules.players))   # original seat of each current seat
        self.out: list[bool] = [False] * rules.n_teams

    def team_of_current(self, team: int) -> int:
        """The original number of the current deal's team ``team``."""
        return self.rules.team_of[self.seats[team]]

    def current_scores(self) -> list[int]:
        """Standings indexed by the current deal's team numbers."""
        return [self.standings[self.team_of_current(t)] for t in range(self.deal_rules.n_teams)]

    def new_deal(self, seed: int | None = None) -> Deal56:
        """Shuffle and deal the next deal (from the match's generator unless a seed is given)."""
        return Deal56.from_seed(self.deal_rules, dealer=self.dealer, rng=self._deal_rng(seed))

    def deal_from(self, hands: list[list[Card]]) -> Deal56:
        return Deal56(self.deal_rules, self.dealer, hands)

    def finish(self, deal: Deal) -> dict[str, object]:
        """Book a finished deal: move tables or points, drop teams that are out, rotate the dealer.

        :returns: the deal's result with ``score`` the change really made (capped by what teams hold).
        """
        if not isinstance(deal, Deal56):
            raise TypeError(f"a match of {self.rules.game} books a Deal56, not {type(deal).__name__}")
        assert deal.is_over and not self.over
        result: dict[str, object] = dict(deal.result())
        contract = deal.contract
        made = deal.made()
        if contract is not None and made is not None:
            if self.rules.scoring == "tables":
                change = pay_tables(self.deal_rules, contract, made, self.current_scores())
            else:
                change = deal_score(self.deal_rules, contract, made)
            result["score"] = change
            for t, delta in enumerate(change):
                self.standings[self.team_of_current(t)] += delta
        self.deals_booked += 1
        self.results.append(result)
        self._next_dealer_and_end()
        return result

    def _next_dealer_and_end(self) -> None:
        rules = self.rules
        if rules.scoring == "tables":
            old_dealer = self.seats[self.dealer]
            for team, tables in enumerate(self.standings):
                if tables <= 0:
                    self.out[team] = True
            alive = [t for t in range(rules.n_teams) if not self.out[t]]
            if len(alive) <= 1:
                self.over = True
                self.winner = alive[0] if alive else None
                self.end_reason = Meaning("team {team} is the last team with tables", {"team": self.winner})
                return
            survivors = [s for s in range(rules.players) if not self.out[rules.team_of[s]]]
            if len(survivors) != len(self.seats):
                self.seats = survivors
                self.deal_rules = rules.for_players(len(survivors))
            # next dealer: the first surviving player after the old dealer
            for k in range(1, rules.players + 1):
                orig = (old_dealer + k) % rules.players
                if orig in self.seats:
                    self.dealer = self.seats.index(orig)
                    break
            return
        self.dealer = (self.dealer + 1) % self.deal_rules.players
        reached = rules.target is not None and max(self.standings) >= rules.target
        if self.deals_booked >= rules.deals or reached:
            self.over = True
            best = max(self.standings)
            leaders = [t for t, s in enumerate(self.standings) if s == best]
            self.winner = leaders[0] if len(leaders) == 1 else None
            self.end_reason = (Meaning("team {team} reached the target {target}",
                                       {"team": self.winner, "target": rules.target}) if reached
                               else Plural("the {n} deal has been played", "all {n} deals have been played",
                                           rules.deals))
