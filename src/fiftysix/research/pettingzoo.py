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

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .table import Encoding, Table

OBS_HIGH = 64.0    # no count, size or point total a view shows comes near this


class FiftySixEnv(AECEnv):
    """One deal of a preset of 56 or 55 as an AEC environment.

    :raises RulesError: for an unknown preset.
    :raises ValueError: for a render mode other than ``ansi``.
    """

    metadata = {"render_modes": ["ansi"], "name": "fiftysix_v0", "is_parallelizable": False}

    def __init__(self, preset: str = "56-4", render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.enc = Encoding(preset)
        self.preset = preset
        self.possible_agents = [f"player_{s}" for s in range(self.enc.n)]
        self.agents = self.possible_agents[:]
        size = self.enc.obs_layout.size
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, OBS_HIGH, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.enc.num_actions,), np.int8),
        })
        self._act_space = spaces.Discrete(self.enc.num_actions)
        self.table = Table(self.enc)
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

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
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

    def observe(self, agent: str) -> dict[str, Any]:
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
        if self.render_mode is None:
            return None
        seat = self.table.to_move
        return self.table.seat_string(seat if seat is not None else None)

    def close(self) -> None:
        pass


def env(preset: str = "56-4", render_mode: str | None = None) -> Any:
    """The environment with PettingZoo's usual guards (an out-of-range action or a step before ``reset``)."""
    e: Any = FiftySixEnv(preset, render_mode)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


raw_env = FiftySixEnv

__all__ = ["FiftySixEnv", "env", "raw_env"]
