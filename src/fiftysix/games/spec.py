"""How the record reader, the views and the command line reach a game without knowing which one.

Each game module exposes one :class:`GameSpec`; :data:`fiftysix.games.GAMES` maps ``"56"`` and
``"55"`` to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from ..core.cards import Card
from ..core.deal import Deal


class MatchLike(Protocol):
    rules: Any
    deal_rules: Any
    dealer: int
    over: bool
    winner: int | None
    standings: list[int]
    results: list[dict[str, object]]
    end_reason: str

    @property
    def deal_number(self) -> int: ...

    def deal_from(self, hands: list[list[Card]]) -> Deal: ...

    def new_deal(self, seed: int | None = None) -> Deal: ...

    def finish(self, deal: Any) -> dict[str, object]: ...

    def current_scores(self) -> list[int]: ...


class GameSpec(Protocol):
    name: str
    ranks: str          # rank letters the game uses, high to low (for notation and messages)
    copies: int         # how often each card exists
    side_word: str      # "team" or "side" in messages

    def rules_from_json(self, data: object) -> Any: ...

    def rules_to_json(self, rules: Any, full: bool = False) -> object: ...

    def presets(self) -> Mapping[str, Any]: ...

    def deck(self, rules: Any) -> list[Card]: ...

    def new_deal(self, rules: Any, seed: int | None = None, dealer: int | None = None) -> Deal: ...

    def new_match(self, rules: Any, first_dealer: int | None = None, seed: int | None = None) -> MatchLike: ...

    def read_setup(self, record: Mapping[str, Any], rules: Any, dealer: int,
                   hands: list[list[Card]], match: MatchLike | None) -> Deal:
        """Check the game's own setup fields (55: the kitty) and build the deal.

        :raises RecordError:
        """
        ...

    def check_trump_field(self, record: Mapping[str, Any], rules: Any) -> None:
        """Check the ``trump`` field's form before the auction is replayed.

        :raises RecordError:
        """
        ...

    def replay_extra(self, record: Mapping[str, Any], deal: Deal) -> None:
        """Apply what the record holds between the auction and the play (trump, 55 discard).

        :raises RecordError:
        """
        ...

    def record_extra(self, deal: Deal) -> dict[str, Any]:
        """Fields the game adds to a deal record (``trump``, 55's ``kitty`` and ``discard``)."""
        ...

    def view_extra(self, deal: Deal, seat: int | None) -> dict[str, Any]:
        """Fields the game adds to a view, already filtered for ``seat``."""
        ...

    def describe_call(self, deal: Deal, index: int) -> str:
        """The public meaning of the ``index``-th call of the auction."""
        ...
