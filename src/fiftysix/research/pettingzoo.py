"""56 and 55 as PettingZoo AEC environments, one per preset.

    from fiftysix.pettingzoo import env
    e = env(preset="56-4")
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        e.step(None if termination or truncation else e.action_space(agent).sample(mask))

Agents ``player_0`` ... (seat numbers; seat 0 is first hand).  Each observation is a dict: ``observation``, the
seat's observation tensor of :mod:`fiftysix.research.table` (built from its view), and ``action_mask``, 1 for
each legal action of the agent to move (all 0 for the others).  The actions are those of the OpenSpiel game
(:mod:`fiftysix.research.table`).  The deal is shuffled from the ``reset`` seed; at the end each agent is
rewarded its team's (side's) score of the deal, tables or points as the preset scores.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..views import view
from .table import Encoding, Table, record_actions, table_record
from .vector import VectorEnv

DEFAULT_PRESET = "56-4"

OBS_HIGH = 64.0    # no count, size or point total a view shows comes near this


AgentObservation = dict[str, npt.NDArray[np.float32] | npt.NDArray[np.int8]]
"""What ``observe`` gives an agent: ``observation`` (float32) and ``action_mask`` (int8)."""


class _Seats(AECEnv):
    """What both AEC environments share: one agent a seat, their spaces and the AEC bookkeeping."""

    def _agents(self, n: int, size: int, high: float, num_actions: int) -> None:
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agents = self.possible_agents[:]
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, high, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
        })
        self._act_space = spaces.Discrete(num_actions)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space


class FiftySixEnv(_Seats):
    """One deal of a preset of 56 or 55 as an AEC environment.

    :param preset: a preset name (default 56-4).
    :param rules: a rules object (``{"preset": "56-4", "trump": "hidden"}``) instead of a preset name.
    :raises RulesError: for an unknown preset or option.
    :raises ValueError: for a render mode other than ``ansi`` and ``human``, a dealer that is not a seat, or a
        preset together with rules naming another (as OpenSpiel's ``load_game``).
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "fiftysix_v0", "is_parallelizable": False}

    def __init__(self, preset: str | None = None, render_mode: str | None = None, rules: object = None,
                 dealer: int | None = None) -> None:
        super().__init__()
        _check_render_mode(render_mode)
        self.render_mode = render_mode
        self.enc = Encoding(_rules(preset, rules), dealer)   # type: ignore[arg-type]
        self.preset = self.enc.preset
        self._agents(self.enc.n, self.enc.obs_layout.size, OBS_HIGH, self.enc.num_actions)
        self.table = Table(self.enc)

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        """A new deal shuffled from ``seed``; or, with ``options={"record": record}``, the deal of a deal record
        (``records.md``) at the position the record leaves it (reset to a chosen deal).

        :raises ValueError: for a record of other rules or another dealer (other options are ignored).
        :raises RecordError: for a record that does not replay.
        """
        record = _record_option(options)
        if record is not None:
            self.table = table_from_record(self.enc, record)
        else:
            rng = random.Random(seed)
            self.table = table = Table(self.enc)
            pack = [k for k, c in enumerate(self.enc.copies) for _ in range(c)]
            rng.shuffle(pack)
            for kind in pack[:self.enc.deal_slots]:
                table.deal_card(kind)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        deal = self.table.deal
        assert deal is not None
        if deal.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            for agent, value in zip(self.possible_agents, self.enc.returns(deal), strict=True):
                self.rewards[agent] = value
        else:
            assert deal.to_move is not None
            self.agent_selection = self.possible_agents[deal.to_move]

    def observe(self, agent: str) -> AgentObservation:
        seat = self._seat(agent)
        tensor = np.zeros(self.enc.obs_layout.size, np.float32)
        self.table.fill(tensor, seat, perfect_recall=False)
        mask = np.zeros(self.enc.num_actions, np.int8)
        if self.table.to_move == seat:
            mask[self.table.legal_actions()] = 1
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play ``action`` for the agent to move.

        :raises ValueError: for an action that is not legal now (the mask's zeros).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.table.apply(int(action))
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``ansi``: the view of the seat to move (a spectator's once the deal is over) as JSON; ``human``: the
        same, printed."""
        if self.render_mode is None:
            return None
        seat = self.table.to_move
        text = self.table.seat_string(seat if seat is not None else None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def record(self) -> dict[str, object]:
        """The deal as it stands, as a deal record (``records.md``: JSON)."""
        return table_record(self.table)

    def close(self) -> None:
        pass


def env(preset: str | None = None, render_mode: str | None = None, rules: object = None,
        dealer: int | None = None) -> Any:
    """The environment with PettingZoo's usual guards (an out-of-range action or a step before ``reset``).

    :param rules: a rules object (``{"preset": "56-4", "trump": "hidden"}``) instead of a preset name.
    """
    e: Any = FiftySixEnv(preset, render_mode, rules, dealer)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class VectorTableEnv(_Seats):
    """One table of :class:`~fiftysix.research.vector.VectorEnv` as an AEC environment (56 and 55): the compact
    observation (``docs/research.md``) instead of the view-built tensor, the engine stepped directly.

    Observations are dicts of ``observation`` (the agent's compact observation) and ``action_mask``; the
    actions are those of :class:`FiftySixEnv`.  ``reset(seed)`` deals ``game.new_deal(rules,
    seed=info["deal_seed"])`` with the seed drawn from ``seed``; ``reset(options={"record": record})`` puts a
    deal record's deal, at its position, on the table.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "fiftysix_vector_v0", "is_parallelizable": False}

    def __init__(self, rules: object = "56-4", render_mode: str | None = None, dealer: int | None = None) -> None:
        super().__init__()
        _check_render_mode(render_mode)
        self.render_mode = render_mode
        self.vec = VectorEnv(rules, num_tables=1, dealer=dealer, autoreset=False, reward_seat="all")
        self.enc = self.vec.enc
        self._agents(self.vec.n, self.vec.observation_size, float(max(p.high for p in self.vec.layout.pieces)),
                     self.vec.num_actions)

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        """:raises ValueError: for a record of other rules or another dealer (other options are ignored)."""
        record = _record_option(options)
        _, info = self.vec.reset(seed=seed)
        if record is not None:
            self.vec.load_record(0, record)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"deal_seed": int(info["deal_seed"][0])} for a in self.agents}
        self._select()

    def _select(self) -> None:
        deal = self.vec.deals[0]
        if deal.is_over or deal.to_move is None:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[deal.to_move]

    def observe(self, agent: str) -> AgentObservation:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.vec.num_actions, np.int8)
        if self.vec.deals[0].to_move == seat:
            mask[self.vec.legal_actions(0)] = 1
        return {"observation": self.vec.observe(0, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """:raises ValueError: for an action that is not legal now."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        _, rewards, terminations, _, _ = self.vec.step(np.array([int(action)]))
        if terminations[0]:
            for a, value in zip(self.possible_agents, rewards[0].tolist(), strict=True):
                self.rewards[a] = value
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        deal = self.vec.deals[0]
        text = json.dumps(dict(view(deal, deal.to_move)), separators=(",", ":"), sort_keys=True)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def record(self) -> dict[str, object]:
        """The deal as it stands, as a deal record (``records.md``: JSON)."""
        return self.vec.record(0)

    def close(self) -> None:
        pass


def vector_env(rules: object = "56-4", render_mode: str | None = None, dealer: int | None = None) -> Any:
    """:class:`VectorTableEnv` with PettingZoo's usual guards."""
    e: Any = VectorTableEnv(rules, render_mode, dealer)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def _check_render_mode(render_mode: str | None) -> None:
    if render_mode not in (None, "ansi", "human"):
        raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")


def _rules(preset: str | None, rules: object) -> object:
    """The preset, or the rules object (the preset put in it where it names none).

    :raises ValueError: for a preset that is not a name, or a preset and rules naming another preset (the
        message of OpenSpiel's ``load_game``).
    """
    if preset is not None and not isinstance(preset, str):
        raise ValueError(f"preset must be a preset name such as \"56-6\", not {preset!r} (a rules object "
                         "goes in rules=)")
    if rules is None:
        return preset or DEFAULT_PRESET
    if preset is None:
        return rules
    if isinstance(rules, Mapping) and "preset" not in rules:
        return {**rules, "preset": preset}
    named = rules.get("preset") if isinstance(rules, Mapping) else getattr(rules, "preset", rules)
    if str(named) != preset:
        raise ValueError(f"preset {preset!r} and rules naming preset {named!r} were both given: give the "
                         f"preset inside the rules alone")
    return rules


def _record_option(options: Mapping[str, object] | None) -> dict[str, object] | None:
    if not options or "record" not in options:
        return None     # other options are ignored (PettingZoo's api_test passes one)
    record = options["record"]
    if not isinstance(record, dict):
        raise ValueError(f"the record option must be a deal record (a JSON object), not {type(record).__name__}")
    return record


def table_from_record(enc: Encoding, record: Mapping[str, object]) -> Table:
    """The table of a deal record's deal at the position the record leaves it.

    :raises RecordError: for a record that does not replay.
    :raises ValueError: for a record of other rules or another dealer than ``enc``'s.
    """
    table = Table(enc)
    actions = record_actions(enc, record)
    for kind in actions[:enc.deal_slots]:
        table.deal_card(kind)
    for action in actions[enc.deal_slots:]:
        table.apply(action)
    return table


raw_env = FiftySixEnv

__all__ = ["FiftySixEnv", "VectorTableEnv", "env", "raw_env", "table_from_record", "vector_env"]
