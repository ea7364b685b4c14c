"""The start page's words for each table option, in one table: what the option is called and what it decides
(the games' own ``option_descriptions`` say what each value means).  The page shows these, never the keys."""

from __future__ import annotations

from typing import Any

OPTIONS: dict[str, tuple[str, str]] = {
    "players": ("Players", "How many sit at the table."),
    "teams": ("Teams", "Who plays with whom."),
    "deck": ("Deck", "How many cards are dealt (the usual deck for the number of players by default)."),
    "bidding": ("Bidding", "How bids are written and what they show."),
    "double": ("After a double", "Whether the auction goes on after a double."),
    "multiplier": ("Double and redouble", "What a double and a redouble do to the payment."),
    "all_pass": ("If everybody passes", "What happens when nobody bids."),
    "trump": ("Trumps", "How the trump suit is set."),
    "scoring": ("Scoring", "How a deal is paid and when the match ends."),
    "tables": ("Tables each", "How many tables each team starts with; a team that has paid them all is out."),
    "deals": ("Deals", "How many deals the match lasts (with points scoring)."),
    "target": ("Target", "The score that ends the match (empty: none)."),
    "claim": ("Claims", "Whether a player may claim the remaining tricks."),
    "discards": ("Discards", "Whether the bidder's discard is shown."),
    "sixty_fail": ("A failed 60", "What a failed bid of 60 costs."),
    "bidder_first": ("Reaching the target", "Who wins when several sides reach the target in one deal."),
}

VALUES: dict[str, dict[str, str]] = {
    "deck": {"null": "The usual deck for the number of players.", "32": "32 cards (A K Q J 10 9 of each suit, "
             "twice).", "48": "48 cards.", "64": "64 cards."},
}


def option_words(options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """For each option of a game: its ``label`` and ``help`` sentence, and ``values`` meanings where the game
    gives none (an option missing here is named by its key with spaces)."""
    out: dict[str, dict[str, Any]] = {}
    for key in options:
        label, help_text = OPTIONS.get(key, (key.replace("_", " ").capitalize(), ""))
        out[key] = {"label": label, "help": help_text, "values": VALUES.get(key, {})}
    return out
