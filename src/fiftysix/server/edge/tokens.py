"""Player tokens: no sign-up; a player is a random id and a chosen name, signed by the server.

The token lives in a cookie (browsers) or is sent in the ``hello`` message (other clients).  A seat
belongs to a player id; only a token signed by this server's key proves that id.

A token is timestamped and expires :data:`MAX_AGE` seconds after it was issued; the server issues a fresh
one (sliding) when an older than :data:`REFRESH_AFTER` token is used on a page.  It also carries the
player's *generation*: "sign out everywhere" bumps the generation kept in the database, and every token of
an older generation is refused from then on.  The generations of players who ever signed out are few and
small, so all of them are kept in memory and a check costs a signature and a dictionary lookup.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from itsdangerous import BadSignature, TimestampSigner, URLSafeTimedSerializer

from .names import PLAYER_NAME, check_name

COOKIE = "fiftysix_player"
MAX_NAME = PLAYER_NAME
MAX_AGE = 30 * 24 * 3600        # a token is good for 30 days after it was issued ...
REFRESH_AFTER = 24 * 3600       # ... and one older than a day is renewed when used on a page


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    issued: float = 0.0     # unix seconds the token was signed
    session: str = ""       # the signed-in device (server/accounts); "" for a token from before accounts
    generation: int = 0     # the player's sign-out generation the token was issued in


class TokenData(TypedDict):
    """What a player token signs: the player's id and name, their sign-out generation and the device's session."""

    id: str
    name: str
    g: int
    s: NotRequired[str]


class Tokens:
    def __init__(self, secret: str, generations: dict[str, int] | None = None, max_age: int = MAX_AGE,
                 clock: Callable[[], float] = time.time) -> None:
        class Signer(TimestampSigner):
            def get_timestamp(self) -> int:     # the time a token is signed at, and checked against
                return int(clock())

        # a new salt: tokens of the untimed format from before are refused, not misread
        self._signer = URLSafeTimedSerializer(secret, salt="fiftysix-player-2", signer=Signer)
        self.generations: dict[str, int] = dict(generations or {})
        self.revoked: set[str] = set()     # signed-out devices (sessions) whose tokens are refused
        self.max_age = max_age

    def issue(self, name: str, player_id: str | None = None, session: str = "") -> tuple[Player, str]:
        pid = player_id or secrets.token_hex(8)
        player = Player(pid, name, session=session, generation=self.generations.get(pid, 0))
        data = TokenData(id=player.id, name=player.name, g=player.generation)
        if session:
            data["s"] = session
        return player, self._signer.dumps(data)

    def read(self, token: object) -> Player | None:
        """The player a token proves, or ``None`` for a forged, foreign, malformed, expired or signed-out token."""
        if not isinstance(token, str) or len(token) > 512:
            return None
        try:
            data, signed = self._signer.loads(token, max_age=self.max_age, return_timestamp=True)
        except BadSignature:    # SignatureExpired is a BadSignature
            return None
        if (not isinstance(data, dict) or not isinstance(data.get("id"), str) or not isinstance(data.get("name"), str)
                or data.get("g") != self.generations.get(data["id"], 0)):
            return None
        session = data.get("s", "")
        if not isinstance(session, str) or session in self.revoked:
            return None
        return Player(data["id"], data["name"], signed.timestamp(), session, data["g"])

    def still_in(self, player: Player) -> bool:
        """Whether ``player`` (read from a token earlier) is still signed in: its device not signed out, its player
        not signed out everywhere (nor deleted) since.  An open websocket asks this at every message."""
        return player.session not in self.revoked and player.generation == self.generations.get(player.id, 0)

    def signed_out(self, player_id: str, generation: int) -> None:
        """Record that ``player_id`` signed out everywhere: tokens before ``generation`` are refused."""
        self.generations[player_id] = generation


def clean_name(value: object) -> str:
    """A player name: printable, NFC, trimmed, 1-24 characters.

    :raises ValueError: with a message for the person.
    """
    return check_name(value, "name", MAX_NAME)
