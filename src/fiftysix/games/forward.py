"""What the two games' specs write alike: checking that the rules, deal and observation handed in are the
game's own, and forwarding to the game's modules.  Each game's spec subclasses :class:`SpecBase`, names its
classes and modules, and writes only what differs (records, the deck, the labels of its legal moves)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic, Protocol, TypeVar

from ..core.deal import Deal
from ..core.moves import Call, Move
from ..core.options import Rules
from .observation import Observation
from .spec import LegalMove, PlayRule, ScoreRange

R = TypeVar("R", bound=Rules)
R_contra = TypeVar("R_contra", bound=Rules, contravariant=True)
D = TypeVar("D", bound=Deal)
O = TypeVar("O", bound=Observation)


class Vocabulary(Protocol[R_contra]):
    """A game's ``vocabulary`` module: its fixed action space."""

    def call_vocabulary(self, rules: R_contra) -> list[Call]: ...

    def auction_bound(self, rules: R_contra) -> int: ...

    def choice_texts(self, rules: R_contra) -> list[str]: ...

    def score_range(self, rules: R_contra) -> ScoreRange: ...


class SpecBase(Generic[R, D, O]):
    """The shared part of a :class:`~fiftysix.games.spec.GameSpec` (see the module)."""

    name: str
    ranks: str
    copies: int
    side_word: str
    default_preset: str
    play: PlayRule
    choices: Mapping[str, tuple[object, ...]]
    preset_descriptions: Mapping[str, str]
    option_descriptions: Mapping[str, Mapping[str, str]]
    rules_type: type[R]
    deal_type: type[D]
    observation_type: type[O]
    vocabulary: Vocabulary[R]
    preset_table: Mapping[str, Mapping[str, object]]

    def _rules(self, rules: Rules) -> R:
        if not isinstance(rules, self.rules_type):
            raise TypeError(f"{self.name} needs {self.rules_type.__name__}, not {type(rules).__name__}")
        return rules

    def _deal(self, deal: Deal) -> D:
        if not isinstance(deal, self.deal_type):
            raise TypeError(f"{self.name} needs a {self.deal_type.__name__}, not {type(deal).__name__}")
        return deal

    def _observation(self, observation: Observation) -> O:
        if not isinstance(observation, self.observation_type):
            raise TypeError(f"{self.name} samples from an {self.observation_type.__name__}, "
                            f"not {type(observation).__name__}")
        return observation

    def rules_to_json(self, rules: Rules, full: bool = False) -> object:
        return self._rules(rules).to_json(full)

    def presets(self) -> Mapping[str, Mapping[str, object]]:
        return self.preset_table

    def legal_moves(self, deal: Deal) -> list[LegalMove]:
        return [self.legal_move(m) for m in deal.legal_moves()]

    def legal_move(self, move: Move) -> LegalMove:
        """One legal move for the browser."""
        raise NotImplementedError

    def call_vocabulary(self, rules: Rules) -> list[Call]:
        return self.vocabulary.call_vocabulary(self._rules(rules))

    def auction_bound(self, rules: Rules) -> int:
        return self.vocabulary.auction_bound(self._rules(rules))

    def choice_texts(self, rules: Rules) -> list[str]:
        return self.vocabulary.choice_texts(self._rules(rules))

    def score_range(self, rules: Rules) -> ScoreRange:
        return self.vocabulary.score_range(self._rules(rules))
