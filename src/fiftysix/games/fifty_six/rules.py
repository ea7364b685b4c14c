"""The options of 56 and its named presets (``docs/spec/rules-56.md``).

Code elsewhere asks a :class:`Rules56` object (``rules.double == "closes"``); it never compares preset
names.  Derived facts (deck size, hand size, teams) are computed once here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.errors import RulesError
from ...core.meaning import N_, Meaning
from ...core.options import resolve_rules, rules_json

RANKS = "J9ATKQ87"
"""56's ranks, high to low."""

RANK_POINTS = {"J": 3, "9": 2, "A": 1, "T": 1}
"""Card points by rank letter (the others are worth nothing)."""

DECK_CHOICES = {4: (48, 32), 6: (48,), 8: (64, 48)}
"""Allowed decks per number of players; the first is the default."""

CHOICES: dict[str, tuple[object, ...]] = {
    "players": (4, 6, 8),
    "teams": ("two", "pairs"),
    "deck": (None, 32, 48, 64),
    "bidding": ("standard", "announcements"),
    "double": ("reopens", "closes"),
    "multiplier": ("x2x4", "plus1plus2"),
    "all_pass": ("28nt", "forced"),
    "trump": ("bid", "chosen", "hidden"),
    "scoring": ("tables", "points"),
    "tables": (range(1, 1000),),       # a range allows each number in it (core.options.allows)
    "deals": (range(1, 10000),),
    "target": (None, range(1, 100000)),
    "claim": (False, True),
}

_BASE: dict[str, object] = {}
PRESETS: dict[str, dict[str, object]] = {
    "56-4": {"players": 4},
    "56-6": {"players": 6},
    "56-8": {"players": 8},
    "56-pairs-6": {"players": 6, "teams": "pairs", "double": "closes"},
    "56-pairs-8": {"players": 8, "teams": "pairs", "double": "closes"},
    "56-announce": {"players": 6, "bidding": "announcements", "trump": "chosen", "scoring": "points"},
    "56-hidden": {"players": 6, "trump": "hidden"},
}
DEFAULT_PRESET = "56-6"


@dataclass(frozen=True)
class Rules56:
    """Every option of 56.  Build one with :meth:`from_json` or :meth:`preset`."""

    players: int = 6
    teams: str = "two"
    deck: int | None = None
    bidding: str = "standard"
    double: str = "reopens"
    multiplier: str = "x2x4"
    all_pass: str = "28nt"
    trump: str = "bid"
    scoring: str = "tables"
    tables: int = 12
    deals: int = 12
    target: int | None = None
    claim: bool = False
    preset: str = DEFAULT_PRESET

    deck_size: int = field(init=False, repr=False, compare=False)
    hand_size: int = field(init=False, repr=False, compare=False)
    n_teams: int = field(init=False, repr=False, compare=False)
    team_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    ranks: str = field(init=False, repr=False, compare=False)

    game = "56"

    def __post_init__(self) -> None:
        if self.players not in DECK_CHOICES:
            raise RulesError(Meaning("players must be 4, 6 or 8, not {value}", {"value": repr(self.players)}))
        allowed = DECK_CHOICES[self.players]
        deck = allowed[0] if self.deck is None else self.deck
        if deck not in allowed:
            needs = ", ".join(str(n) for n, d in DECK_CHOICES.items() if deck in d)
            raise RulesError(Meaning("deck={deck} needs {needs} players, not {players}",
                                     {"deck": str(deck), "needs": needs, "players": str(self.players)}))
        n_teams = 2 if self.teams == "two" else self.players // 2
        s = object.__setattr__
        s(self, "deck_size", deck)
        s(self, "hand_size", deck // self.players)
        s(self, "n_teams", n_teams)
        s(self, "team_of", tuple(seat % n_teams for seat in range(self.players)))
        s(self, "ranks", RANKS[: deck // 8])

    @classmethod
    def from_json(cls, data: object) -> Rules56:
        """Read the ``rules`` field of a record: a preset name or ``{"preset": ..., option: value}``.

        :raises RulesError: for an unknown preset or option, or a value not allowed.
        """
        return resolve_rules(cls, PRESETS, CHOICES, data, DEFAULT_PRESET)

    @classmethod
    def preset_named(cls, name: str = DEFAULT_PRESET, **options: object) -> Rules56:
        """A preset, optionally with some options changed: ``Rules56.preset_named("56-4", deck=32)``."""
        return cls.from_json({"preset": name, **options})

    def to_json(self, full: bool = False) -> object:
        return rules_json(self, PRESETS, full)

    def for_players(self, players: int) -> Rules56:
        """The same rules for fewer players (survivors after a team is out): the deck and hand size
        for their number, keeping the chosen deck where it is allowed."""
        deck = self.deck if self.deck in DECK_CHOICES[players] else None
        values = {k: getattr(self, k) for k in CHOICES}
        values.update(players=players, deck=deck, preset=self.preset)
        return Rules56(**values)

    @property
    def copies(self) -> int:
        return 2

    def points_of_rank(self, rank_char: str) -> int:
        return RANK_POINTS.get(rank_char, 0)


PRESET_DESCRIPTIONS: dict[str, str] = {
    "56-4": N_("56 for 4 players in two teams."),
    "56-6": N_("56 for 6 players in two teams (the classic)."),
    "56-8": N_("56 for 8 players in two teams."),
    "56-pairs-6": N_("56 for 6: three teams of partners seated opposite."),
    "56-pairs-8": N_("56 for 8: four teams of partners seated opposite."),
    "56-announce": N_("56 with announcements, trumps chosen after the auction and points scoring."),
    "56-hidden": N_("56 with a hidden trump, turned up when a player who cannot follow asks for it."),
}
"""One sentence per preset, for the create form."""

OPTION_DESCRIPTIONS: dict[str, dict[str, str]] = {
    "teams": {"two": N_("Two teams, seats alternating."),
              "pairs": N_("Teams of two partners seated opposite.")},
    "bidding": {"standard": N_("Bids name a value and a strain (28H, H28, +1NOES ...)."),
                "announcements": N_("Announcements raise the value and show top cards and lengths "
                                    "(+H, -2S, NOS ...).")},
    "double": {"reopens": N_("After a double the auction goes on; a higher bid cancels it."),
               "closes": N_("After a double no more bids; the doubled team may still redouble.")},
    "multiplier": {"x2x4": N_("A double multiplies the payment by 2, a redouble by 4."),
                   "plus1plus2": N_("A double adds 1 to the payment, a redouble 2.")},
    "all_pass": {"28nt": N_("If everybody passes, first hand plays 28 no-trumps."),
                 "forced": N_("First hand may not pass on the first call.")},
    "trump": {"bid": N_("The contract's strain is trumps."),
              "chosen": N_("The declarer names trumps after the auction."),
              "hidden": N_("The declarer chooses trumps secretly; they are turned up when a player who cannot follow "
                        "asks.")},
    "scoring": {"tables": N_("Each team starts with tables and pays them; a team without tables is out."),
                "points": N_("Payments are points credited to the winner; the match ends after a number of deals or "
                          "at a target.")},
    "claim": {"false": N_("Every trick is played out."),
              "true": N_("A player may claim the rest once the outcome cannot change.")},
}
"""One sentence per option value worth explaining, for the create form."""
