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

import json
import random
import re
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from ..bots.base import Seen, view_json
from ..core.cards import Card
from ..core.deal import Deal
from ..core.moves import Move
from ..games import GAMES
from ..games.spec import Sampler
from .table import Encoding, Table, deal_from, record_actions, table_record

SHORT_NAME = "python_fiftysix"
DEFAULT_PRESET = "56-4"


_SAMPLERS: OrderedDict[str, Sampler] = OrderedDict()
_KEEP = 32     # samplers kept: a search resamples one view many times, and reading a view costs most


def sample_deal(seat_view: Mapping[str, object], rng: random.Random) -> Deal:
    """A deal consistent with one seat's view, at the view's position (the game's deal sampler, reached
    through its :class:`~fiftysix.games.spec.GameSpec`).  What the calls claim is a convention, not a fact of
    the view (a random player bids anything), so it is not asked for: only the facts (the cards seen, the voids
    shown).

    :raises SamplingError: if none is found.
    :raises ValueError: for a view that is not a view of its game.
    """
    key = json.dumps(seat_view, sort_keys=True)
    sampler = _SAMPLERS.get(key)
    if sampler is None:
        game = GAMES[str(seat_view["game"])]
        sampler = _SAMPLERS[key] = game.sampler(game.observe(seat_view), use_bids=False)
        if len(_SAMPLERS) > _KEEP:
            _SAMPLERS.popitem(last=False)
    else:
        _SAMPLERS.move_to_end(key)
    return sampler.sample(rng)


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
    parameter_specification={"preset": f'"{DEFAULT_PRESET}"', "dealer": -1, "rules": '""'},
)


def _preset_of(params: Mapping[str, object] | None) -> str:
    """:raises ValueError: for a preset that is not a string."""
    value = (params or {}).get("preset", DEFAULT_PRESET)
    if not isinstance(value, str):
        raise ValueError(f"preset must be a string such as \"56-6\" (quoted in a game string: "
                         f"python_fiftysix(preset=\"56-6\")), not {value!r}; presets are {', '.join(presets())}")
    return value.strip().strip("\"'")


def rules_text(rules: object) -> str:
    """A rules object in the form of the ``rules`` parameter, ``preset:56-6;deck:32`` (a game string cannot
    hold the commas of JSON)."""
    if isinstance(rules, str):
        return f"preset:{rules}"
    if not isinstance(rules, dict):
        raise ValueError(f"rules must be a preset name or a rules object, not {rules!r}")
    return ";".join(f"{k}:{v if isinstance(v, str) else json.dumps(v)}" for k, v in rules.items())


def _read_rules_text(text: str) -> dict[str, object]:
    """:raises ValueError: for a text that is neither a JSON object nor ``key:value;...``."""
    text = text.strip().strip("\"'")
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"rules must be a JSON object such as {{\"preset\": \"56-6\", \"deck\": 32}} or "
                             f"preset:56-6;deck:32, not {text!r} ({e})") from None
        if not isinstance(data, dict):
            raise ValueError(f"rules must be a JSON object, not {text!r}")
        return data
    out: dict[str, object] = {}
    for part in filter(None, text.split(";")):
        key, sep, value = part.partition(":")
        if not sep:
            raise ValueError(f"rules must be a JSON object or preset:56-6;deck:32 (key:value pairs split by ;), "
                             f"not {text!r}")
        if key.strip() == "preset":     # a preset is a name, even one that reads as a number (55)
            out["preset"] = value.strip()
            continue
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value.strip()
    return out


def _rules_of(params: Mapping[str, object] | None) -> str | dict[str, object]:
    """The preset name, or the rules object of the ``rules`` parameter.

    :raises ValueError: for a preset or rules parameter of the wrong form.
    """
    params = params or {}
    rules = params.get("rules", "")
    if rules in ("", '""'):
        return _preset_of(params)
    if isinstance(rules, dict):
        data = dict(rules)
    elif isinstance(rules, str):
        data = _read_rules_text(rules)
    else:
        raise ValueError(f"rules must be a string (a JSON object, or preset:56-6;deck:32), not {rules!r}")
    preset = _preset_of(params)
    named = data.setdefault("preset", preset)
    if params.get("preset") not in (None, DEFAULT_PRESET, f'"{DEFAULT_PRESET}"') and str(named) != preset:
        raise ValueError(f"preset {preset!r} and rules naming preset {named!r} were both given: give the "
                         f"preset inside the rules alone")
    return data


_UNQUOTED = re.compile(r"preset=([^\"',)][^,)]*)")


def load_game(rules: object = DEFAULT_PRESET, dealer: int = -1) -> FiftySixGame:
    """The game of a preset name, a rules object (``{"preset": "56-4", "trump": "hidden"}``) or a game string
    (``'python_fiftysix(preset="56-4")'``), with clear errors where ``pyspiel.load_game`` gives OpenSpiel's.

    :raises ValueError: for an unquoted preset in a game string, a bad dealer or rules of the wrong form.
    :raises RulesError: for an unknown preset, option or value.
    """
    if isinstance(rules, str) and rules.startswith(SHORT_NAME):
        bad = _UNQUOTED.search(rules)
        if bad:
            raise ValueError(f"preset must be quoted in a game string: {SHORT_NAME}(preset=\"{bad.group(1)}\"), "
                             f"not {rules} (OpenSpiel reads 56-4 or 55 unquoted as a number)")
        game = pyspiel.load_game(rules)
    elif isinstance(rules, str):
        game = pyspiel.load_game(SHORT_NAME, {"preset": rules, "dealer": dealer})
    elif isinstance(rules, dict):
        game = pyspiel.load_game(SHORT_NAME, {"rules": rules_text(rules), "dealer": dealer})
    else:
        raise ValueError(f"rules must be a preset name such as \"56-6\", a rules object or a game string, "
                         f"not {rules!r}")
    return game  # type: ignore[no-any-return]


class FiftySixGame(pyspiel.Game):
    """One preset of 56 or 55.  Parameters: ``preset`` (default 56-4) and ``dealer`` (default -1: the last
    seat, so that player 0 calls and leads first).

    :raises RulesError: for an unknown preset.
    :raises ValueError: for a dealer that is not a seat.
    """

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        dealer = (params or {}).get("dealer", -1)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or dealer < -1:
            raise ValueError(f"dealer must be -1 (the last seat) or a seat 0, 1, ..., not {dealer!r}")
        self.enc = Encoding(_rules_of(params), None if dealer == -1 else dealer)
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
        rules_json = enc.rules_json
        own: dict[str, object] = ({"preset": f'"{rules_json}"'} if isinstance(rules_json, str)
                               else {"rules": f'"{rules_text(rules_json)}"'})
        if dealer >= 0:
            own["dealer"] = dealer
        super().__init__(game_type, info, own)

    def new_initial_state(self) -> FiftySixState:
        return FiftySixState(self)

    def state_from_record(self, record: Mapping[str, object]) -> FiftySixState:
        """The state at the position a deal record leaves its deal (reset to a chosen deal).

        :raises RecordError: for a record that does not replay.
        :raises ValueError: for a record of other rules or another dealer than the game's.
        """
        state = self.new_initial_state()
        for action in record_actions(self.enc, record):
            state.apply_action(action)
        return state

    def deserialize_state(self, text: str) -> FiftySixState:
        """A state from :meth:`FiftySixState.serialize`.

        :raises ValueError: for a text that is not one.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"not a serialized fiftysix state (JSON expected): {e}") from None
        if not isinstance(data, dict) or not ({"dealing"} <= set(data) or {"record"} <= set(data)):
            raise ValueError("not a serialized fiftysix state: {\"record\": ...} or {\"dealing\": [...]} expected")
        state = self.new_initial_state()
        dealt = [int(kind) for kind in data.get("dealing", [])]
        if "record" not in data:
            for kind in dealt:
                state.apply_action(kind)
            return state
        actions = record_actions(self.enc, data["record"])
        if sorted(dealt) == sorted(actions[:len(dealt)]):     # the same deal, in the order it was dealt
            actions[:len(dealt)] = dealt
        for action in actions:
            state.apply_action(action)
        for card in data.get("pending", []):
            state.apply_action(self.enc.card_action(card))
        return state

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

    def serialize(self) -> str:
        """The state as JSON: ``{"record": <deal record>, "pending": [cards of a discard in the making]}``, or
        while dealing ``{"dealing": [card kinds dealt]}`` (portable and short, no pickle; Python's
        ``state.serialize()``: OpenSpiel's own C++ serialization is unchanged)."""
        t = self.table
        if t.deal is None:
            return json.dumps({"dealing": t.dealt_kinds})
        pending = [str(self.enc.kinds[k]) for k in t.pending]
        saved, t.pending = t.pending, []
        try:
            record = table_record(t)
        finally:
            t.pending = saved
        # the chance outcomes as dealt: a record holds each hand sorted, and history() must survive
        return json.dumps({"record": record, "pending": pending, "dealing": t.dealt_kinds}, separators=(",", ":"))

    def to_record(self) -> dict[str, object]:
        """The deal as a deal record (``records.md``).

        :raises ValueError: while dealing or in the middle of a 55 discard.
        """
        return table_record(self.table)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> FiftySixState:
        """A state ``player_id`` cannot tell from this one, drawn by the game's deal sampler.

        :raises SamplingError: if no deal agrees with the player's view.
        """
        rng = random.Random(int(probability_sampler() * (1 << 53)))   # OpenSpiel's sampler: uniform in [0, 1)
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
        _replay(fresh, hands, kitty, [m for _, m in sampled.history])
        for k in t.pending if t.to_move == player_id else ():
            fresh.apply_action(self.enc.first_card + k)
        return fresh  # type: ignore[no-any-return]


def _replay(state: FiftySixState, hands: list[list[Card]], kitty: list[Card], moves: list[Move]) -> None:
    """Deal ``hands`` (and the kitty) and make ``moves`` on a new state."""
    for action in deal_from(state.enc, hands, kitty):
        state.apply_action(action)
    for move in moves:
        for action in state.table.move_actions(move):
            state.apply_action(action)


def state_from_view(game: FiftySixGame, seat_view: Mapping[str, object], rng: random.Random) -> FiftySixState:
    """A state of ``game`` that the view's seat cannot tell from the real one: the hidden cards drawn by the
    game's deal sampler, the moves those of the view.

    :raises SamplingError: if no deal agrees with the view.
    """
    deal = sample_deal(seat_view, rng)
    state = game.new_initial_state()
    _replay(state, [list(h) for h in deal.dealt], list(getattr(deal, "kitty", ())), [m for _, m in deal.history])
    return state


class SpielBot:
    """An OpenSpiel bot as one of our bots (a view in, a move out), so it can sit in ``fiftysix arena``, at the
    server or behind ``fiftysix bot`` / ``cmd:``.  Each decision builds a state consistent with the view
    (:func:`state_from_view`) and asks the OpenSpiel bot's ``step``; a 55 discard is asked card by card.  The
    game is that of the views' rules (a preset or a rules object) and dealer.

    :param make_bot: given the OpenSpiel game, an object with ``step(state) -> action`` (a ``pyspiel.Bot``,
        OpenSpiel's Python ``ISMCTSBot``, or your trained policy wrapped so).
    """

    def __init__(self, make_bot: Any, seed: int | None = None, name: str = "openspiel") -> None:
        self.make_bot = make_bot
        self.rng = random.Random(seed)
        self.name = name
        self.game: FiftySixGame | None = None
        self.bot: Any = None

    def _game_of(self, view: dict[str, Any]) -> FiftySixGame:
        """The game of the view's rules (a preset or a rules object) and dealer.

        :raises RulesError: for rules the game does not know.
        """
        spec = GAMES[view["game"]]
        rules = spec.rules_from_json(view["rules"])
        game = self.game
        if game is None or game.enc.rules != rules or game.enc.dealer != view["dealer"]:
            game = self.game = load_game(spec.rules_to_json(rules), view["dealer"])
            self.bot = self.make_bot(game)
        return game

    def choose(self, seen: Seen) -> str:
        view: dict[str, Any] = dict(view_json(seen))    # an in-process caller hands in the observation
        state = state_from_view(self._game_of(view), view, self.rng)
        seat = view["seat"]
        if state.table.discarding:
            chosen = set()
            while state.table.discarding and state.current_player() == seat:
                action = int(self.bot.step(state))
                chosen.add(str(state.enc.card_of_action(action)))
                state.apply_action(action)
            return str(next(t for t in view["legal"] if set(t.split()) == chosen))
        action = int(self.bot.step(state))
        return state.action_to_string(seat, action)  # type: ignore[no-any-return]


def _plain_view(t: Table, seat: int) -> dict[str, object]:
    from ..views import view

    assert t.deal is not None
    return dict(view(t.deal, seat))


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

__all__ = ["DEFAULT_PRESET", "SHORT_NAME", "FiftySixGame", "FiftySixState", "Observer", "SpielBot", "load_game",
           "presets", "rules_text",
           "sample_deal", "state_from_view"]
