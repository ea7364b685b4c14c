"""The start page's words for each table option, in one table: what the option is called and what it decides
(the games' own ``option_descriptions`` say what each value means).  The page shows these, never the keys."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict

from ...core.meaning import N_

OPTIONS: dict[str, tuple[str, str]] = {
    "players": (N_("Players"), N_("How many sit at the table.")),
    "teams": (N_("Teams"), N_("Who plays with whom.")),
    "deck": (N_("Deck"), N_("How many cards are dealt (the usual deck for the number of players by default).")),
    "bidding": (N_("Bidding"), N_("How bids are written and what they show.")),
    "double": (N_("After a double"), N_("Whether the auction goes on after a double.")),
    "multiplier": (N_("Double and redouble"), N_("What a double and a redouble do to the payment.")),
    "all_pass": (N_("If everybody passes"), N_("What happens when nobody bids.")),
    "trump": (N_("Trumps"), N_("How the trump suit is set.")),
    "scoring": (N_("Scoring"), N_("How a deal is paid and when the match ends.")),
    "tables": (N_("Tables each"), N_("How many tables each team starts with; a team that has paid them all is out.")),
    "deals": (N_("Deals"), N_("How many deals the match lasts (with points scoring).")),
    "target": (N_("Target"), N_("The score that ends the match (empty: none).")),
    "claim": (N_("Claims"), N_("Whether a player may claim the remaining tricks.")),
    "discards": (N_("Discards"), N_("Whether the bidder's discard is shown.")),
    "sixty_fail": (N_("A failed 60"), N_("What a failed bid of 60 costs.")),
    "bidder_first": (N_("Reaching the target"), N_("Who wins when several sides reach the target in one deal.")),
}

VALUES: dict[str, dict[str, str]] = {
    "deck": {"null": N_("The usual deck for the number of players."), "32": N_("32 cards (A K Q J 10 9 of each suit, "
             "twice)."), "48": N_("48 cards."), "64": N_("64 cards.")},
}


class OptionWords(TypedDict):
    """An option's words on the create form: its ``label``, ``help`` sentence and ``values``' meanings."""

    label: str
    help: str
    values: dict[str, str]


def option_words(options: Iterable[str]) -> dict[str, OptionWords]:
    """For each option of a game: its ``label`` and ``help`` sentence, and ``values`` meanings where the game
    gives none (an option missing here is named by its key with spaces)."""
    out: dict[str, OptionWords] = {}
    for key in options:
        label, help_text = OPTIONS.get(key, (key.replace("_", " ").capitalize(), ""))
        out[key] = OptionWords(label=label, help=help_text, values=VALUES.get(key, {}))
    return out
