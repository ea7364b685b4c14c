"""An immutable double-dummy position: every hand known, the current trick, trumps and the sides.

The question the solver answers about a :class:`Position` is the best card-point total that the side to
move (its team; every other team together opposes it) can force from the cards still to be played,
counting the cards already in the current trick.  Points already taken (:attr:`Position.points`) matter
only to :func:`~fiftysix.solver.can_reach`.

Simplification for 56 with ``trump: hidden``: a trump that has not been turned up acts as no trumps, and
the search has no reveal moves (``?``).  Once it is turned up it is the position's trump.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..core.cards import Card, Suit, cards_text
from ..core.deal import PLAY, Deal
from ..games import GAMES
from ..games.spec import PlayRule


class PositionError(ValueError):
    """A position that cannot arise in the game: wrong hand sizes, a card too often, a bad seat."""


def play_rules(game: str) -> PlayRule:
    """The card play of ``game`` (``"56"``, ``"55"``), from its :class:`~fiftysix.games.spec.GameSpec`.

    :raises PositionError: for a game that is not installed.
    """
    spec = GAMES.get(game)
    if spec is None:
        raise PositionError(f"the solver knows the games {', '.join(GAMES)}, not {game!r}")
    return spec.play


@dataclass(frozen=True)
class Position:
    """A position in the play phase with all hands known.

    :ivar game: ``"56"`` or ``"55"``.
    :ivar hands: each seat's cards still held, as a sorted multiset (a card held twice appears twice).
    :ivar trick: the cards of the current trick in the order played (fewer than one per seat).
    :ivar leader: the seat that led (or leads) the current trick.
    :ivar trump: the suit that acts as trump, ``None`` for no trumps (and for a hidden trump in 56).
    :ivar team_of: each seat's team (side).
    :ivar points: points already taken per team, before this position.
    :ivar bonus_team: 55 only: the side that will score the 5 for the deal's highest trump, if not yet
        counted in :attr:`points` (``None`` when there is none).
    :ivar must_trump: 56 with a hidden trump: the seat to move has just asked for the trump to be turned up
        and must play a trump if it holds one (this card only).
    """

    game: str
    hands: tuple[tuple[Card, ...], ...]
    trick: tuple[Card, ...]
    leader: int
    trump: Suit | None
    team_of: tuple[int, ...]
    points: tuple[int, ...]
    bonus_team: int | None = None
    must_trump: bool = False

    def __post_init__(self) -> None:
        self._check()

    # -- construction -------------------------------------------------------------------------------
    @classmethod
    def make(cls, game: str, hands: Sequence[Iterable[Card]], trick: Iterable[Card] = (), leader: int = 0,
             trump: Suit | None = None, team_of: Iterable[int] | None = None, points: Iterable[int] | None = None,
             bonus_team: int | None = None) -> Position:
        """Build a position from plain values (cards in any order; ``team_of`` defaults to seat mod 2).

        :raises PositionError: if the position is impossible.
        """
        n = len(hands)
        teams = tuple(team_of) if team_of is not None else tuple(s % 2 for s in range(n))
        n_teams = max(teams) + 1 if teams else 0
        pts = tuple(points) if points is not None else (0,) * n_teams
        return cls(game, tuple(tuple(sorted(h)) for h in hands), tuple(trick), leader, trump, teams, pts,
                   bonus_team)

    @classmethod
    def from_deal(cls, deal: Deal) -> Position:
        """The position of a deal in its play phase (the game says what the solver sees of it).

        :raises PositionError: if the deal is not in its play phase (or its game is not installed).
        """
        if getattr(deal, "phase", None) != PLAY or deal.to_move is None:
            what = deal.waiting_for() if hasattr(deal, "waiting_for") else "not a deal"
            raise PositionError(f"the deal is not in its play phase: {what}")
        spec = GAMES.get(deal.game)
        if spec is None:
            raise PositionError(f"the solver knows the games {', '.join(GAMES)}, not {deal.game!r}")
        st = spec.play_state(deal)
        return cls(deal.game, tuple(tuple(sorted(h)) for h in st.hands), st.trick, st.leader, st.trump,
                   st.team_of, st.points, st.bonus_team, st.must_trump)

    def _check(self) -> None:
        n = len(self.hands)
        if n < 2 or len(self.team_of) != n:
            raise PositionError(f"{n} hands but team_of has {len(self.team_of)} seats")
        if not 0 <= self.leader < n:
            raise PositionError(f"leader must be a seat 0-{n - 1}, not {self.leader}")
        if len(self.trick) >= n:
            raise PositionError(f"the trick has {len(self.trick)} cards; a trick of {n} players is over at {n}")
        if any(t < 0 for t in self.team_of) or len(self.points) != max(self.team_of) + 1:
            raise PositionError(f"points has {len(self.points)} entries for teams {self.team_of}")
        rules = play_rules(self.game)
        played = {(self.leader + i) % n for i in range(len(self.trick))}
        sizes = {len(h) + (1 if s in played else 0) for s, h in enumerate(self.hands)}
        if len(sizes) != 1:
            shown = ", ".join(f"seat {s}: {len(h)}" for s, h in enumerate(self.hands))
            raise PositionError(f"impossible hand sizes for a trick of {len(self.trick)} cards led by seat "
                                f"{self.leader}: {shown}")
        count = Counter(c for h in self.hands for c in h)
        count.update(self.trick)
        for card, k in count.items():
            if not isinstance(card, Card):
                raise PositionError(f"{card!r} is not a card")
            if k > rules.COPIES:
                raise PositionError(f"{card} appears {k} times; the deck holds it {rules.COPIES} time(s)")
        if self.bonus_team is not None and not 0 <= self.bonus_team < len(self.points):
            raise PositionError(f"bonus_team {self.bonus_team} is not a team")
        if self.must_trump and (self.trump is None or not self.trick):
            raise PositionError("must_trump needs a trump suit and a trick in progress")

    # -- facts ---------------------------------------------------------------------------------------
    @property
    def rules(self) -> PlayRule:
        return play_rules(self.game)

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def n_teams(self) -> int:
        return len(self.points)

    @property
    def to_move(self) -> int:
        """The seat to play next."""
        return (self.leader + len(self.trick)) % self.n

    @property
    def team_to_move(self) -> int:
        return self.team_of[self.to_move]

    @property
    def is_over(self) -> bool:
        """No cards left to play."""
        return not self.trick and not any(self.hands)

    @property
    def cards_left(self) -> int:
        return sum(len(h) for h in self.hands)

    def points_left(self) -> int:
        """Every point still to be scored: cards in hands and in the trick, trick bonuses, the 55 bonus."""
        rules = self.rules
        points = rules.POINTS
        cards = sum(points[c] for h in self.hands for c in h)
        cards += sum(points[c] for c in self.trick)
        tricks = (self.cards_left + len(self.trick)) // self.n
        return cards + rules.TRICK_BONUS * tricks + (5 if self.bonus_team is not None else 0)

    def still_needed(self, team: int, target: int) -> int | None:
        """The points ``team`` must still take to reach ``target`` in the whole deal: 0 if it has them,
        ``None`` if more than are left.

        :raises ValueError: if ``team`` is not a team of the position.
        """
        if not 0 <= team < self.n_teams:
            raise ValueError(f"team {team} is not a team of this position (teams 0-{self.n_teams - 1})")
        need = target - self.points[team]
        if need <= 0:
            return 0
        return need if need <= self.points_left() else None

    def fixed_points(self, team: int) -> int:
        """Points of the remaining play that are already sure to go to ``team`` whatever is played
        (the 55 bonus for the deal's highest trump)."""
        return 5 if self.bonus_team is not None and self.bonus_team == team else 0

    def legal(self) -> tuple[Card, ...]:
        """The distinct cards the seat to move may play (empty when the play is over)."""
        if self.is_over:
            return ()
        legal = self.rules.legal_cards(self.hands[self.to_move], self.trick, self.trump)
        if self.must_trump:
            return tuple(c for c in legal if c.suit == self.trump) or legal
        return legal

    def play(self, card: Card) -> Position:
        """The position after the seat to move plays ``card`` (a complete trick is scored and gathered).

        :raises PositionError: if the card is not legal here.
        """
        if card not in self.legal():
            raise PositionError(f"seat {self.to_move} may not play {card}; legal: {cards_text(self.legal())}")
        seat = self.to_move
        hand = list(self.hands[seat])
        hand.remove(card)
        hands = self.hands[:seat] + (tuple(hand),) + self.hands[seat + 1:]
        trick = (*self.trick, card)
        if len(trick) < self.n:
            return Position(self.game, hands, trick, self.leader, self.trump, self.team_of, self.points,
                            self.bonus_team)
        rules = self.rules
        winner = (self.leader + rules.trick_winner(trick, self.trump)) % self.n
        gained = rules.trick_points(trick)
        pts = list(self.points)
        pts[self.team_of[winner]] += gained
        bonus = self.bonus_team
        if bonus is not None and not any(hands):
            pts[bonus] += 5
            bonus = None
        return Position(self.game, hands, (), winner, self.trump, self.team_of, tuple(pts), bonus)

    def hand_masks(self) -> tuple[tuple[int, int], ...]:
        """Per seat ``(once, twice)``: bit ``card`` is set in ``once`` if the seat holds the card at least
        once, in ``twice`` if it holds both copies."""
        out = []
        for h in self.hands:
            once = twice = 0
            for c in h:
                bit = 1 << c
                if once & bit:
                    twice |= bit
                once |= bit
            out.append((once, twice))
        return tuple(out)

    def __str__(self) -> str:
        trump = "NT" if self.trump is None else self.trump.letter
        lines = [f"{self.game} trump {trump}, seat {self.to_move} to play (team {self.team_to_move}); "
                 f"points {list(self.points)}"]
        for s, h in enumerate(self.hands):
            lines.append(f"  seat {s} (team {self.team_of[s]}): {cards_text(h)}")
        lines.append(f"  trick led by seat {self.leader}: {cards_text(self.trick)}")
        return "\n".join(lines)
