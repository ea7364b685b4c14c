"""What the vector env's compiled path implements, declared option by option (issue 56).

Each option of a game's rules dataclass is named here with the values the compiled kernels play
(:mod:`.vector_play`, :mod:`.vector_auction`), or :data:`ANY` where they read it from the game's own functions
or it does not touch a deal's moves.  A rules object with any other value, or with an option not named here (a
house rule added since), is played by the engine (``env.compiled`` False, or the engine's auction): never by a
kernel that does not know it.  tests/research/test_vector_support.py checks that every option is named and that
the env plays every declared value as the engine does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

ANY: frozenset[object] = frozenset({"*any*"})
"""Every value: the kernel reads the option from the game's own tables and functions, or it is the match's."""

PLAY: Mapping[str, Mapping[str, frozenset[object]]] = {
    "56": {
        "players": ANY, "teams": ANY, "deck": ANY,    # the arrays' shapes, the deck's kinds, team_of
        "bidding": ANY, "double": ANY, "multiplier": ANY, "all_pass": ANY,     # the auction's (or the engine's)
        "trump": frozenset({"bid", "chosen"}),        # hidden: the ? move and turning the trump up
        "scoring": ANY,                               # deal_score's rows
        "tables": ANY, "deals": ANY, "target": ANY,   # the match's
        "claim": frozenset({False}),                  # the CLAIM move
        "preset": ANY,
    },
    "55": {
        "players": ANY, "teams": ANY,                 # the arrays' shapes, side_of
        "all_pass": ANY, "discards": ANY, "bidder_first": ANY,     # the engine's auction and discard
        "sixty_fail": ANY,                            # the game's is_made and deal_score
        "target": ANY, "preset": ANY,
    },
}
"""The compiled card play: each game's options and the values it plays."""

AUCTION: Mapping[str, Mapping[str, frozenset[object]]] = {
    "56": {
        **PLAY["56"],
        "bidding": frozenset({"standard"}),           # announcements: other calls and their meanings
        "trump": frozenset({"bid"}),                  # chosen: a trump choice after the auction
        "double": ANY,                                # (read: closes)
        "multiplier": ANY,                            # deal_score's table
        "all_pass": ANY,                              # the legal calls of each state, from the game's own
    },
}
"""The compiled 56 auction (on top of the compiled play): its options and values; 55's auction is the engine's."""


def options(rules: Any) -> dict[str, object]:
    """The options of a rules object: its dataclass's fields that are set when it is made."""
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if f.init}


def refused(rules: Any, declared: Mapping[str, Mapping[str, frozenset[object]]]) -> list[str]:
    """The options of ``rules`` the declaration does not cover (``option=value``; every option where its game is
    not declared); empty: the compiled path plays these rules."""
    table = declared.get(str(rules.game))
    if table is None:
        return [f"game={rules.game}"]
    out = []
    for name, value in options(rules).items():
        allowed = table.get(name)
        if allowed is None or (allowed is not ANY and value not in allowed):
            out.append(f"{name}={value!r}")
    return out


def compiled_play(rules: Any) -> bool:
    """Whether the compiled card play implements ``rules``."""
    return not refused(rules, PLAY)


def compiled_auction(rules: Any) -> bool:
    """Whether the compiled 56 auction implements ``rules`` (its card play too)."""
    return compiled_play(rules) and not refused(rules, AUCTION)
