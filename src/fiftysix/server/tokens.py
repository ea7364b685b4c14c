"""Player tokens: no sign-up; a player is a random id and a chosen name, signed by the server.

The token lives in a cookie (browsers) or is sent in the ``hello`` message (other clients).  A seat
belongs to a player id; only a token signed by this server's key proves that id.
"""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeSerializer

COOKIE = "fiftysix_player"
MAX_NAME = 24


@dataclass(frozen=True)
class Player:
    id: str
    name: str


class Tokens:
    def __init__(self, secret: str) -> None:
        self._signer = URLSafeSerializer(secret, salt="fiftysix-player")

    def issue(self, name: str, player_id: str | None = None) -> tuple[Player, str]:
        player = Player(player_id or secrets.token_hex(8), name)
        return player, self._signer.dumps({"id": player.id, "name": player.name})

    def read(self, token: object) -> Player | None:
        """The player a token proves, or ``None`` for a forged, foreign or malformed token."""
        if not isinstance(token, str) or len(token) > 512:
            return None
        try:
            data = self._signer.loads(token)
        except BadSignature:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("id"), str) or not isinstance(data.get("name"), str):
            return None
        return Player(data["id"], data["name"])


def clean_name(value: object) -> str:
    """A player or table name: printable, trimmed, 1-24 characters.

    :raises ValueError: with a message for the person.
    """
    if not isinstance(value, str):
        raise ValueError("a name must be text")
    name = " ".join("".join(ch for ch in value if unicodedata.category(ch)[0] != "C").split())
    if not name:
        raise ValueError("choose a name (1 to 24 characters)")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name may have at most {MAX_NAME} characters")
    return name
