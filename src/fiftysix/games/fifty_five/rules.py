"""The options of 55 and its named presets (``docs/spec/rules-55.md``).

Code elsewhere asks a :class:`Rules55` object (``rules.discards == "open"``); it never compares preset
names.  Derived facts (sides, which side each seat plays for) are computed once here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.errors import RulesError
from ...core.meaning import N_, Meaning
from ...core.options import resolve_rules, rules_json

RANKS = "AKQJT98765432"
"""The rank letters of the 52-card pack, in notation order (how they rank depends on the trump suit)."""

HAND_SIZE = 5
KITTY_SIZE = 5
TRICKS = 5
TRICK_POINTS = 5
BONUS = 5
"""The highest trump of the deal is worth this much to whoever played it."""

BIDS = (10, 15, 20, 25, 60)
SLAM = 60
"""The bid that undertakes to win all five tricks."""

TEAM_PLAYERS = {"none": tuple(range(2, 10)), "two": (4, 6, 8), "three": (6, 9)}
"""How many players each partnership option allows."""

CHOICES: dict[str, tuple[object, ...]] = {
    "players": tuple(range(2, 10)),
    "teams": ("none", "two", "three"),
    "all_pass": ("redeal", "dealer"),
    "discards": ("open", "closed"),
    "sixty_fail": (60, 30),
    "target": (55, 110, 220),
    "bidder_first": (False, True),
}

PRESETS: dict[str, dict[str, object]] = {
    "55": {"players": 4},
    **{f"55-{n}": {"players": n} for n in range(2, 10)},
    "55-teams-4": {"players": 4, "teams": "two"},
    "55-teams-6": {"players": 6, "teams": "two"},
    "55-110": {"players": 4, "target": 110},
    "55-220": {"players": 4, "target": 220},
}
DEFAULT_PRESET = "55"


@dataclass(frozen=True)
class Rules55:
    """Every option of 55.  Build one with :meth:`from_json` or :meth:`preset_named`.

    A *side* is a team when partnerships are played, otherwise a single seat; points, scores and
    standings are kept per side.
    """

    players: int = 4
    teams: str = "none"
    all_pass: str = "redeal"
    discards: str = "open"
    sixty_fail: int = 60
    target: int = 55
    bidder_first: bool = False
    preset: str = DEFAULT_PRESET

    n_sides: int = field(init=False, repr=False, compare=False)
    side_of: tuple[int, ...] = field(init=False, repr=False, compare=False)

    game = "55"
    hand_size = HAND_SIZE
    deck_size = 52
    ranks = RANKS

    def __post_init__(self) -> None:
        if self.players not in CHOICES["players"]:
            raise RulesError(Meaning("players must be 2-9, not {value}", {"value": repr(self.players)}))
        allowed = TEAM_PLAYERS.get(self.teams)
        if allowed is None:
            raise RulesError(Meaning("teams must be none, two or three, not {value}", {"value": repr(self.teams)}))
        if self.players not in allowed:
            needs = ", ".join(str(n) for n in allowed)
            raise RulesError(Meaning("teams={teams} needs {needs} players, not {players}",
                                     {"teams": self.teams, "needs": needs, "players": str(self.players)}))
        n_sides = {"none": self.players, "two": 2, "three": 3}[self.teams]
        s = object.__setattr__
        s(self, "n_sides", n_sides)
        s(self, "side_of", tuple(seat % n_sides for seat in range(self.players)))

    # The generic code (records, views) speaks of teams; in 55 they are the sides.
    @property
    def n_teams(self) -> int:
        return self.n_sides

    @property
    def team_of(self) -> tuple[int, ...]:
        return self.side_of

    @property
    def partnerships(self) -> bool:
        return self.teams != "none"

    @classmethod
    def from_json(cls, data: object) -> Rules55:
        """Read the ``rules`` field of a record: a preset name or ``{"preset": ..., option: value}``.

        :raises RulesError: for an unknown preset or option, a value not allowed, or teams that do not fit
            the number of players.
        """
        return resolve_rules(cls, PRESETS, CHOICES, data, DEFAULT_PRESET)

    @classmethod
    def preset_named(cls, name: str = DEFAULT_PRESET, **options: object) -> Rules55:
        """A preset, optionally with some options changed: ``Rules55.preset_named("55-6", discards="closed")``.

        :raises RulesError: as :meth:`from_json`.
        """
        return cls.from_json({"preset": name, **options})

    def to_json(self, full: bool = False) -> object:
        return rules_json(self, PRESETS, full)


PRESET_DESCRIPTIONS: dict[str, str] = {
    "55": N_("55 for 4, each for themselves."),
    **{f"55-{n}": Meaning("55 for {n}, each for themselves.", {"n": n}) for n in range(2, 10)},
    "55-teams-4": N_("55 for 4 in two teams."),
    "55-teams-6": N_("55 for 6 in two teams."),
    "55-110": N_("55 for 4, each for themselves, to 110 points."),
    "55-220": N_("55 for 4, each for themselves, to 220 points."),
}
"""One sentence per preset, for the create form."""

OPTION_DESCRIPTIONS: dict[str, dict[str, str]] = {
    "teams": {"none": N_("Each player for themselves."), "two": N_("Two teams, seats alternating."),
              "three": N_("Three teams, every third seat.")},
    "all_pass": {"redeal": N_("If nobody bids the deal is thrown in."),
                 "dealer": N_("If nobody bids the dealer must take 10.")},
    "discards": {"open": N_("The bidder's discard is shown to everyone."),
                 "closed": N_("The bidder's discard stays hidden.")},
    "sixty_fail": {"60": N_("A failed bid of 60 costs 60."), "30": N_("A failed bid of 60 costs 30.")},
    "target": {"55": N_("The match is played to 55 points."), "110": N_("The match is played to 110 points."),
               "220": N_("The match is played to 220 points.")},
    "bidder_first": {"false": N_("If several sides reach the target in one deal, the first to reach it wins."),
                     "true": N_("A bidder's side that made its bid and passed the target wins.")},
}
"""One sentence per option value worth explaining, for the create form."""
