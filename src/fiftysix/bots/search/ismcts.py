"""``ismcts``: information-set Monte Carlo tree search over sampled deals (56 and 55).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree whose nodes are the moves made
from the bot's information set.  Each iteration draws one deal consistent with the bot's view
(:func:`fiftysix.bots.sampling.sampler_for`, the game's own sampler), walks down the tree choosing among
the moves available in that deal by UCB with availability counts, adds one node, finishes the deal with a
light rollout policy (the game's, :meth:`~fiftysix.bots.kits.GameKit.ismcts_policy`) and credits every
move on the path with the outcome for the team that made it.  The bot plays the most visited move.

Two changes make it play well with a hundred iterations (``bench/ddloss.py``; docs/bots.md):

* **Root-paired sampling** (``paired``, on by default): each sampled deal is used once for every move the
  root allows in it, and the tree below each is walked by UCB as usual.  The root moves' averages then
  differ by the moves, not by which deals happened to be drawn for each (a variance reduction, like common
  random numbers); the bot plays the best average, the ``rules`` card's ``prior`` breaking near-ties.
* **Solved leaves** (``solve_from``): once the deal is small enough the solver gives an iteration's exact
  result for that sampled deal, and the tree does not grow below such positions (``deepen`` grows it).

With ``calls=search`` every phase is searched: calls (a short list: pass, double or redouble, and a few
honest bids near the current value in the strains the hand is best in), the trump choice, 55's discard (per
trump suit, keep the five best cards), asking for a hidden trump, and the play.  The reward is the deal's score for the
team plus a little of its card points, so that among equal results the bot prefers more points.

Options: ``iterations`` (default 300) and ``time_limit`` (seconds per decision; the search stops at the
first of the two), ``exploration`` (the UCB constant), ``epsilon`` (share of random moves in rollouts),
``infer`` (read length from suit bids when sampling, :class:`~fiftysix.games.sampling.DealSampler`), ``calls``
(``search``: calls, trump choice and 55's discard are searched like the play; ``rules`` or ``pimc``: that
bot makes them and the tree searches the play only), ``call_samples`` (the deals ``pimc`` samples for a call
when it makes the calls; default its own), ``solve_from`` (56 with two teams: once the seat to move holds at
most this many cards, anywhere in a trick, an iteration values the rest of the deal double dummy instead of
playing it out; 0 turns it off; default: 24 cards left in all, so 6 at four players, 4 at six, 3 at eight; off
without the compiled solver, whose pure-Python reference is too slow for it), ``search_from`` (56: holding more
cards than this the bot plays the ``rules`` card, as ``pimc`` does, because playouts of 7- or 8-card hands
judge the first tricks worse than ``rules``; 0 searches every card; default ``pimc``'s depth, 8 cards at four
players, 6 at six, 5 at eight), ``prior`` (the progressive bias of the ``rules`` card at the root: it adds
``prior / (visits + 1)`` to that card's UCB value, or to its average when paired; 0 turns it off),
``paired`` and ``deepen`` (above).

Sampled hands know nothing of the strength a bid shows, so a searched auction overbids (arena: see
docs/bots.md); the default takes the calls from ``pimc``, whose simulation reads the bids.
"""

from __future__ import annotations

import math
import random
import time

from ...core.deal import Deal
from ...core.moves import Move
from ..base import Bot, Seen, legal_moves, make_bot, observed, register
from ..kits import IsmctsPolicy, kit_for
from ..sampling import Sampler, SamplingError, sampler_for
from .pimc import PimcBot

CALLERS = ("search", "rules", "pimc")
"""Who makes an ``ismcts`` bot's calls (auction, trump choice, 55's discard)."""


class _Node:
    """Statistics of one move from its parent's information set."""

    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self) -> None:
        self.children: dict[object, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class IsmctsBot:
    """Information-set MCTS; see the module documentation."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, iterations: int = 300, time_limit: float | None = None,
                 exploration: float = 0.7, epsilon: float = 0.1, infer: bool = True, calls: str = "pimc",
                 call_samples: int | None = None, solve_from: int | None = None, search_from: int | None = None,
                 prior: float = 0.5, deepen: bool = False, paired: bool = True) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if calls not in CALLERS:
            raise ValueError(f"calls must be one of {', '.join(CALLERS)}, not {calls!r}")
        self.seed = seed
        self.calls = calls
        self.call_samples = call_samples
        self.solve_from = solve_from
        self.search_from = search_from
        self.prior = float(prior)
        self.deepen = bool(deepen)
        self.paired = bool(paired)
        self._caller: dict[str, Bot] = {}
        self.rng = random.Random(seed)
        self.iterations = int(iterations)
        self.time_limit = time_limit
        self.exploration = exploration
        self.epsilon = epsilon
        self.infer = bool(infer)
        self.last_iterations = 0
        self.last_visits: dict[str, int] = {}
        """Visits of each root move in the last search."""

    # -- the search ----------------------------------------------------------------------------------
    def choose(self, seen: Seen) -> str:
        obs = observed(seen)
        legal = legal_moves(obs)
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        phase = obs.phase
        if self.calls != "search" and phase in ("auction", "trump", "discard"):
            return str(self.caller(obs.game).choose(obs))
        hint: str | None = None
        if phase == "play" and (self.prior or self.search_from != 0):
            hint = str(self.rules_bot(obs.game).choose(obs))
            if len(obs.hand) > self.search_depth(obs) and hint in legal:
                return hint
        try:
            sampler = sampler_for(obs, infer=self.infer)
        except SamplingError:   # a view no deal agrees with (it cannot come from the rules): play safe
            return legal[self.rng.randrange(len(legal))]
        root, root_moves, bias = self._search(kit_for(obs.game).ismcts_policy(), sampler, hint)
        return self._best_move(root, root_moves, bias, legal)

    def _search(self, game: IsmctsPolicy, sampler: Sampler, hint: str | None
                ) -> tuple[_Node, dict[object, Move], dict[object, float]]:
        """Iterate over sampled deals until the iterations or the time are spent, or no deal can be sampled;
        returns the root, its moves by tree key and the rules card's progressive bias at the root."""
        root = _Node()
        rng = self.rng
        start = time.perf_counter()
        done = 0
        root_moves: dict[object, Move] = {}
        bias: dict[object, float] = {}
        while done < self.iterations:
            if self.time_limit is not None and done and time.perf_counter() - start >= self.time_limit:
                break
            try:
                deal = sampler.sample(rng)
            except SamplingError:
                break
            options = game.candidates(deal)
            for key, m in options:
                if key not in root_moves:
                    root_moves[key] = m
                    bias[key] = self.prior if str(m) == hint else 0.0
            if self.paired:
                done += self._every_root_move(game, root, deal, options)
            else:
                self._iterate(game, root, deal, [], bias)
                done += 1
        self.last_iterations = done
        self.last_visits = {str(root_moves[k]): ch.visits for k, ch in root.children.items()}
        return root, root_moves, bias

    def _every_root_move(self, game: IsmctsPolicy, root: _Node, deal: Deal, options: list[tuple[object, Move]]
                         ) -> int:
        """Every root move on this same deal: their averages differ by the moves, not by the deals drawn.
        Returns the iterations made (one per move)."""
        assert deal.to_move is not None
        team = deal.rules.team_of[deal.to_move]
        for key, m in options:
            child = root.children.get(key)
            if child is None:
                child = root.children[key] = _Node()
            else:
                child.avail += 1
            line = deal.copy()
            line.push_unchecked(m)
            self._iterate(game, child, line, [(child, team)], None)
        return len(options)

    def _best_move(self, root: _Node, root_moves: dict[object, Move], bias: dict[object, float],
                   legal: list[str]) -> str:
        texts = set(legal)

        def rank(key: object, ch: _Node) -> tuple[float, ...]:
            mean = ch.total / ch.visits
            # paired, every move saw the same deals: the best average; else the most visited
            return (mean + bias[key] / (ch.visits + 1),) if self.paired else (ch.visits, mean)

        scored = [(rank(k, ch), str(root_moves[k])) for k, ch in root.children.items()
                  if ch.visits and str(root_moves[k]) in texts]
        return max(scored)[1] if scored else legal[0]

    def _iterate(self, game: IsmctsPolicy, node: _Node, deal: Deal, path: list[tuple[_Node, int]],
                 root_bias: dict[object, float] | None) -> None:
        """One iteration from ``node``: select by UCB with availability counts, add a node, finish the deal
        (rollout or solved ending) and credit every node on the path with its team's reward.  ``root_bias``
        is given when ``node`` is the root: the progressive bias of its moves."""
        rng, c = self.rng, self.exploration
        team_of = deal.rules.team_of
        root = node if root_bias is not None else None
        while not deal.is_over:
            if node is not root and not self.deepen and game.solvable(deal, self.solve_from):
                break       # the solver values this deal exactly from here: no tree below
            options = game.candidates(deal)
            children = node.children
            untried = []
            for key, m in options:
                child = children.get(key)
                if child is None:
                    untried.append((key, m))
                else:
                    child.avail += 1
            assert deal.to_move is not None
            team = team_of[deal.to_move]
            if untried:
                key, m = untried[rng.randrange(len(untried))]
                child = children[key] = _Node()
                deal.push_unchecked(m)
                path.append((child, team))
                break
            best_key, best_m, best_v = options[0][0], options[0][1], -math.inf
            at_root = node is root
            for key, m in options:
                ch = children[key]
                value = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if at_root and root_bias:
                    value += root_bias.get(key, 0.0) / (ch.visits + 1)
                if value > best_v:
                    best_key, best_m, best_v = key, m, value
            node = children[best_key]
            deal.push_unchecked(best_m)
            path.append((node, team))
        rewards = game.finish(deal, rng, self.epsilon, self.solve_from)
        for ch, team in path:
            ch.visits += 1
            ch.total += rewards[team]

    def search_depth(self, seen: Seen) -> int:
        """Cards held at which the play is searched (``search_from``); above it the ``rules`` card is played."""
        if self.search_from is not None:
            return self.search_from if self.search_from > 0 else 99
        obs = observed(seen)
        return kit_for(obs.game).search_depth(obs.n or 4)

    def rules_bot(self, game: str) -> Bot:
        """The game's ``rules`` bot: the card it would play is the search's prior, and early in a long deal
        the move itself (``search_from``)."""
        bot = self._caller.get("rules:" + game)
        if bot is None:
            bot = self._caller["rules:" + game] = make_bot("rules", seed=self.seed, game=game)
        return bot

    def caller(self, game: str) -> Bot:
        """The bot that makes this bot's calls (``calls`` option), one per game."""
        bot = self._caller.get(game)
        if bot is None:
            if self.calls == "pimc" and self.call_samples is not None:
                bot = PimcBot(seed=self.seed, game=game, bid_samples=self.call_samples)
            else:
                bot = make_bot(self.calls, seed=self.seed, game=game)
            self._caller[game] = bot
        return bot


register("ismcts", IsmctsBot)
