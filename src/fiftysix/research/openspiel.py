"""56 and 55 as an OpenSpiel Python game: ``python_fiftysix``, one game per preset.

    import pyspiel
    import fiftysix.openspiel  # registers the game
    game = pyspiel.load_game("python_fiftysix", {"preset": "56-6"})
    game = pyspiel.load_game('python_fiftysix(preset="56-6")')   # the same; the quotes are needed

(OpenSpiel reads an unquoted ``56-6`` or ``55`` in a game string as a number, so the preset is written in
quotes there; the game's own string quotes it, so it survives serialization.)

Sequential, explicit chance (the deal, card by card), imperfect information; returns at the end: each
player gets its team's (side's) score of the deal, tables or points as the preset scores.  56 scored in
tables is zero-sum; 56 in points and 55 are general-sum.  The action space and the tensors are described in
:mod:`fiftysix.research.table`.  ``resample_from_infostate`` draws from the game's deal sampler, so
OpenSpiel's ISMCTS (``open_spiel.python.algorithms.ismcts``) can play it.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..bots.sampling import DealSampler
from ..core.deal import Deal
from ..games import GAMES
from .table import Encoding, Table, deal_from

SHORT_NAME = "python_fiftysix"
DEFAULT_PRESET = "56-4"


def sample_deal(seat_view: dict[str, Any], rng: random.Random) -> Deal:
    """A deal consistent with one seat's view, at the view's position (the game's deal sampler).

    :raises SamplingError: if none is found.
    """
    return DealSampler(seat_view).sample(rng)


def presets() -> list[str]:
    """Every preset of both games."""
    return [p for g in GAMES.values() for p in g.presets()]


_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Fifty-six and Fifty-five (fiftysix)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=9,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"preset": f'"{DEFAULT_PRESET}"'},
)


def _preset_of(params: dict[str, Any] | None) -> str:
    """:raises ValueError: for a preset that is not a string."""
    value = (params or {}).get("preset", DEFAULT_PRESET)
    if not isinstance(value, str):
        raise ValueError(f"preset must be a string such as \"56-6\" (quoted in a game string), not {value!r}")
    return value.strip().strip("\"'")


class FiftySixGame(pyspiel.Game):
    """One preset of 56 or 55.

    :raises RulesError: for an unknown preset.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.enc = Encoding(_preset_of(params))
        enc = self.enc
        zero = enc.zero_sum
        game_type = _GAME_TYPE
        if zero:
            game_type = pyspiel.GameType(
                **{**_game_type_fields(_GAME_TYPE), "utility": pyspiel.GameType.Utility.ZERO_SUM})
        info = pyspiel.GameInfo(
            num_distinct_actions=enc.num_actions,
            max_chance_outcomes=len(enc.kinds),
            num_players=enc.n,
            min_utility=enc.min_utility,
            max_utility=enc.max_utility,
            utility_sum=0.0 if zero else None,
            max_game_length=enc.max_moves)
        super().__init__(game_type, info, {"preset": f'"{enc.preset}"'})

    def new_initial_state(self) -> FiftySixState:
        return FiftySixState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self.enc, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


def _game_type_fields(t: Any) -> dict[str, Any]:
    return {name: getattr(t, name) for name in (
        "short_name", "long_name", "dynamics", "chance_mode", "information", "utility", "reward_model",
        "max_num_players", "min_num_players", "provides_information_state_string",
        "provides_information_state_tensor", "provides_observation_string", "provides_observation_tensor",
        "parameter_specification")}


class FiftySixState(pyspiel.State):
    """A deal in progress: dealing (chance), then the auction, trumps, 55's discard, and the play."""

    def __init__(self, game: FiftySixGame) -> None:
        super().__init__(game)
        self.enc: Encoding = game.enc
        self.table = Table(self.enc)

    # -- the OpenSpiel interface -------------------------------------------------------------------
    def current_player(self) -> int:
        t = self.table
        if t.dealing:
            return int(pyspiel.PlayerId.CHANCE)
        if t.deal is not None and t.deal.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        assert t.to_move is not None
        return t.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal_actions() if player == self.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self.table.dealing:
            self.table.deal_card(int(action))
        else:
            self.table.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self.enc.kinds[action]}"
        if action >= self.enc.first_card and self.table.discarding:
            return self.enc.action_text(action, discarding=True)
        return self.enc.action_text(action)

    def is_terminal(self) -> bool:
        deal = self.table.deal
        return deal is not None and deal.is_over

    def returns(self) -> list[float]:
        deal = self.table.deal
        if deal is None or not deal.is_over:
            return [0.0] * self.enc.n
        return self.enc.returns(deal)

    def __str__(self) -> str:
        t = self.table
        if t.deal is None:
            return "dealing: " + " ".join(str(self.enc.kinds[k]) for k in t.dealt_kinds)
        hands = " | ".join(" ".join(str(c) for c in h) for h in t.deal.dealt)
        pending = " pending " + " ".join(str(self.enc.kinds[k]) for k in t.pending) if t.pending else ""
        return f"hands {hands}; moves {' '.join(t.deal.moves_text())}{pending}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> FiftySixState:
        """A state ``player_id`` cannot tell from this one, drawn by the game's deal sampler.

        :raises SamplingError: if no deal agrees with the player's view.
        """
        try:
            seed = int(probability_sampler() * (1 << 53))
        except TypeError:
            seed = random.getrandbits(53)
        rng = random.Random(seed)
        game = self.get_game()
        fresh = game.new_initial_state()
        t = self.table
        if t.deal is None:
            for action in _redeal_so_far(t, player_id, rng):
                fresh.apply_action(action)
            return fresh  # type: ignore[no-any-return]
        seat_view = t.seat_view(player_id)
        sampled = sample_deal(_plain_view(t, player_id), rng)
        hands = [list(h) for h in sampled.dealt]
        kitty = list(getattr(sampled, "kitty", ()))
        if self.enc.kitty and [str(c) for c in hands[player_id]] != seat_view["dealt"]:
            # the 55 bidder knows which of its cards came from the kitty; the sampler does not
            both = hands[player_id] + kitty
            mine = list(t.deal.dealt[player_id])
            for c in mine:
                both.remove(c)
            hands[player_id], kitty = mine, both
        for action in deal_from(self.enc, hands, kitty):
            fresh.apply_action(action)
        for _, move in sampled.history:
            for action in fresh.table.move_actions(move):
                fresh.apply_action(action)
        for k in t.pending if t.to_move == player_id else ():
            fresh.apply_action(self.enc.first_card + k)
        return fresh  # type: ignore[no-any-return]


def _plain_view(t: Table, seat: int) -> dict[str, Any]:
    from ..views import view

    assert t.deal is not None
    return view(t.deal, seat)


def _redeal_so_far(t: Table, seat: int, rng: random.Random) -> list[int]:
    """Chance actions that keep the seat's cards so far and deal the other slots at random."""
    enc = t.enc
    left = [k for k, c in enumerate(enc.copies) for _ in range(c)]
    mine = {i: k for i, k in enumerate(t.dealt_kinds) if t.slot_owner(i) == seat}
    for k in mine.values():
        left.remove(k)
    rng.shuffle(left)
    return [mine[i] if i in mine else left.pop() for i in range(len(t.dealt_kinds))]


class Observer:
    """OpenSpiel's Python observer for :class:`FiftySixGame` (see ``open_spiel/python/observation.py``).

    ``perfect_recall=True`` gives the information state (the whole auction and every trick in order, and the
    hand as dealt); ``False`` the observation (recent calls, the cards each seat has played).  Private
    information is the observing seat's only; with ``private_info=NONE`` a spectator's view.

    :raises ValueError: for observation parameters, or private information of all players.
    """

    def __init__(self, enc: Encoding, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer of every player's private cards is not supported")
        self.enc = enc
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        layout = enc.info_layout if self.perfect_recall else enc.obs_layout
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = layout.views(self.tensor)

    def set_from(self, state: FiftySixState, player: int) -> None:
        state.table.fill(self.tensor, player, self.perfect_recall, private=self.private)

    def string_from(self, state: FiftySixState, player: int) -> str:
        return state.table.seat_string(player if self.private else None, self.perfect_recall)


pyspiel.register_game(_GAME_TYPE, FiftySixGame)

__all__ = ["DEFAULT_PRESET", "SHORT_NAME", "FiftySixGame", "FiftySixState", "Observer", "presets", "sample_deal"]
