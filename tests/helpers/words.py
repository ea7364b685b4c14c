"""A check that a text in another language has no English sentence words left: what remains in Latin
letters may only be card notation, calls as players write them and the commands a player types."""

from __future__ import annotations

import re

COMMANDS = {"help", "legal", "show", "auction", "tricks", "reveal", "quit"}
"""What the player types at ``fiftysix play``: the help names them as they are typed."""
CALLS = {"P", "X", "XX", "PP", "NT", "NOES", "NOS", "HOLD", "CLAIM", "th"}
"""Call notation as players write it (``th`` is the help's example of a card typed in lower case)."""
CARD = re.compile(r"^(?:[AKQJT2-9]|10)[SHDC]$")
LETTER_RUN = re.compile(r"(?<![A-Za-z0-9+\-])[A-Za-z]{2,}(?![A-Za-z0-9])")


def english_words(text: str) -> set[str]:
    """Runs of two or more Latin letters that are neither card notation, calls nor the commands typed;
    bids (``28S``, ``+2H``, ``S32``) and options (``--deals``) are not taken for words."""
    return {w for w in LETTER_RUN.findall(text) if w not in COMMANDS and w not in CALLS and not CARD.match(w)}
