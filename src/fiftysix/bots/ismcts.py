"""``ismcts``: information-set Monte Carlo tree search over sampled deals (56 and 55).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree whose nodes are the moves made
from the bot's information set.  Each iteration draws one deal consistent with the bot's view
(:mod:`.sampling`), walks down the tree choosing among the moves available in that deal by UCB with
availability counts, adds one node, finishes the deal with a light rollout policy and credits every
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
``infer`` (read length from suit bids when sampling, :class:`~.sampling.DealSampler`), ``calls``
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

import functools
import math
import random
import time
from collections.abc import Sequence
from typing import Any

from ..core.cards import SUITS, Card
from ..core.deal import AUCTION, DISCARD, PLAY, TRUMP
from ..core.moves import CLAIM, PASS, REVEAL, Call, Discard, Move
from .base import register
from .sampling import DealSampler, SamplingError

CALLERS = ("search", "rules", "pimc")
"""Who makes an ``ismcts`` bot's calls (auction, trump choice, 55's discard)."""


SOLVED_CARDS = 24
"""By default an iteration is valued double dummy from the trick at whose start this many cards are left (56):
about a millisecond's search (``bench/solver.py``), and it plays the endings better than rollouts do."""


class _Node:
    """Statistics of one move from its parent's information set."""

    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self) -> None:
        self.children: dict[Move, _Node] = {}
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
        self._caller: dict[str, Any] = {}
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
    def choose(self, view: dict[str, Any]) -> str:
        legal: list[str] = view["legal"]
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        phase = view["phase"]
        if self.calls != "search" and phase in ("auction", "trump", "discard"):
            return str(self.caller(view["game"]).choose(view))
        hint: str | None = None
        if phase == "play" and (self.prior or self.search_from != 0):
            hint = str(self.rules_bot(view["game"]).choose(view))
            if len(view["hand"]) > self.search_depth(view) and hint in legal:
                return hint
        try:
            sampler = DealSampler(view, infer=self.infer)
        except SamplingError:   # a view no deal agrees with (it cannot come from the rules): play safe
            return legal[self.rng.randrange(len(legal))]
        game = _policy_for(view["game"])
        root = _Node()
        rng = self.rng
        start = time.perf_counter()
        done = 0
        root_moves: dict[Any, Move] = {}
        bias: dict[Any, float] = {}    # the rules card's progressive bias at the root
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
            if not self.paired:
                self._iterate(game, root, deal, [], bias)
                done += 1
                continue
            # Every root move on this same deal: their averages differ by the moves, not by the deals drawn.
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
                done += 1
        self.last_iterations = done
        self.last_visits = {str(root_moves[k]): ch.visits for k, ch in root.children.items()}
        texts = set(legal)

        def rank(key: Any, ch: _Node) -> tuple[float, ...]:
            mean = ch.total / ch.visits
            # paired, every move saw the same deals: the best average; else the most visited
            return (mean + bias[key] / (ch.visits + 1),) if self.paired else (ch.visits, mean)

        scored = [(rank(k, ch), str(root_moves[k])) for k, ch in root.children.items()
                  if ch.visits and str(root_moves[k]) in texts]
        return max(scored)[1] if scored else legal[0]

    def _iterate(self, game: Any, node: _Node, deal: Any, path: list[tuple[_Node, int]],
                 root_bias: dict[Any, float] | None) -> None:
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

    def search_depth(self, view: dict[str, Any]) -> int:
        """Cards held at which the play is searched (``search_from``); above it the ``rules`` card is played."""
        if self.search_from is not None:
            return self.search_from if self.search_from > 0 else 99
        if view["game"] != "56":
            return 99
        from .pimc import dd_tricks
        return dd_tricks("56", len(view.get("hand_sizes") or []) or 4)[1]

    def rules_bot(self, game: str) -> Any:
        """The game's ``rules`` bot: the card it would play is the search's prior, and early in a long deal
        the move itself (``search_from``)."""
        bot = self._caller.get("rules:" + game)
        if bot is None:
            from .base import make_bot
            bot = self._caller["rules:" + game] = make_bot("rules", seed=self.seed, game=game)
        return bot

    def caller(self, game: str) -> Any:
        """The bot that makes this bot's calls (``calls`` option), one per game."""
        bot = self._caller.get(game)
        if bot is None:
            from .base import make_bot
            if self.calls == "pimc" and self.call_samples is not None:
                from .pimc import PimcBot
                bot = PimcBot(seed=self.seed, game=game, bid_samples=self.call_samples)
            else:
                bot = make_bot(self.calls, seed=self.seed, game=game)
            self._caller[game] = bot
        return bot


# -- game policies: candidate moves, rollouts, rewards ------------------------------------------------------

class _Policy56:
    """What ISMCTS needs to know about 56."""

    def __init__(self) -> None:
        from ..games.fifty_six import calls
        from ..games.fifty_six.deal import TRUMP_CHOICES
        from ..games.fifty_six.play import POINTS, STRENGTH, SUIT

        self.calls, self.points, self.strength, self.suit = calls, POINTS, STRENGTH, SUIT
        self.trump_choices: tuple[Move, ...] = TRUMP_CHOICES
        self.partner_limit = 30
        # Sampled hands know nothing of the strength a bid shows, so the search thinks too well of its own
        # contracts and too badly of the other side's: it doubles only high bids, and a declaring team's
        # reward is shaded.
        self.double_from = 36
        self.declarer_shade = 0.1

    def suit_strength(self, hand: Sequence[Card]) -> list[float]:
        score = [0.0, 0.0, 0.0, 0.0]
        for c in hand:
            score[self.suit[c]] += 1 + self.points[c]
        return score

    def candidates(self, deal: Any) -> list[tuple[Any, Move]]:
        """(tree key, move) pairs.  Cards and trumps are their own keys; calls are keyed by what they do
        (``bid1`` = the lowest bid in the hand's best suit), so that a seat whose hand differs from one
        sampled deal to the next keeps the same few branches."""
        phase = deal.phase
        if phase == PLAY:
            return [(m, m) for m in deal.legal_moves() if m is not CLAIM]
        if phase == TRUMP:
            return [(m, m) for m in self.trump_choices]
        return self.call_candidates(deal)

    def _suit_bid(self, value: int, s: int, has_jack: bool, standard: bool) -> Call:
        suit = SUITS[s]
        if not standard:
            return self.calls.raise_to(value, suit)
        return self.calls.number_suit(value, suit) if has_jack else self.calls.suit_number(value, suit)

    def call_candidates(self, deal: Any) -> list[tuple[Any, Move]]:
        """Pass, double, redouble, and honest bids at the lowest value in the two best suits and no-trumps,
        plus a jump by two in the best suit."""
        auction, rules = deal.auction, deal.rules
        out: list[tuple[Any, Move]] = [(m.text, m) for m in auction.legal()[:3]
                                       if not m.is_bid and (m.kind != "double" or auction.value >= self.double_from)]
        value = max(auction.value + 1, self.calls.MIN_BID)
        if value > self.calls.MAX_BID or (auction.doubled and rules.double == "closes"):
            return out or [(m.text, m) for m in auction.legal()[:1]]
        if auction.bidder is not None and value > self.partner_limit \
                and rules.team_of[auction.bidder] == rules.team_of[deal.to_move] and out:
            # The sampled partner hands know nothing of the strength a bid shows, so the search would
            # always prefer its own strain; above the first round it leaves partner's bid alone.
            return out
        hand = deal.hands[deal.to_move]
        strength = self.suit_strength(hand)
        suits = sorted(range(4), key=lambda s: -strength[s])[:2]
        std = rules.bidding == "standard"
        jacks = [any(self.suit[c] == s and self.strength[c] == 8 for c in hand) for s in range(4)]
        bids: list[tuple[str, Call]] = [(f"bid{i + 1}", self._suit_bid(value, s, jacks[s], std))
                                        for i, s in enumerate(suits)]
        bids.append(("nt", self.calls.number_nt(value) if std else self.calls.raise_to(value, None)))
        if value + 2 <= self.calls.MAX_BID:
            bids.append(("jump", self._suit_bid(value + 2, suits[0], jacks[suits[0]], std)))
        out += [(k, b) for k, b in bids if auction.is_legal(b)]
        return out or [(m.text, m) for m in auction.legal()[:1]]

    def finish(self, deal: Any, rng: random.Random, epsilon: float, solve_from: int | None) -> list[float]:
        """Play the deal out by the rollout policy and reward each team; once the position is
        :meth:`solvable`, the rest is valued double dummy instead."""
        while not deal.is_over:
            if self.solvable(deal, solve_from):
                return self.solved_rewards(deal)
            deal.push_unchecked(self.rollout_move(deal, rng, epsilon))
        return self.rewards(deal)

    def solvable(self, deal: Any, solve_from: int | None) -> bool:
        """Whether an iteration values this position double dummy: the seat to move holds at most
        ``solve_from`` cards (anywhere in a trick), two teams, the trump known."""
        if solve_from is None:
            solve_from = SOLVED_CARDS // deal.n if _kernel() else 0
        return bool(solve_from and deal.phase == PLAY and len(deal.hands[deal.to_move]) <= solve_from
                    and deal.revealed and deal.rules.n_teams == 2)

    def solved_rewards(self, deal: Any) -> list[float]:
        """The rewards when the rest of the deal is played double dummy."""
        from ..games.fifty_six.scoring import deal_score, is_made
        from ..solver import Position, solve

        pos = Position.from_deal(deal)
        team = pos.team_to_move
        left = pos.points_left()
        value = solve(pos)
        points = [p + (value if t == team else left - value) for t, p in enumerate(deal.points)]
        contract = deal.contract
        score = deal_score(deal.rules, contract, is_made(contract, points))
        return self.reward(score, points, contract.team)

    def rollout_move(self, deal: Any, rng: random.Random, epsilon: float) -> Move:
        """The light policy's move, in any phase."""
        phase = deal.phase
        if phase == PLAY:
            return self.card(deal, rng, epsilon)
        if phase == AUCTION:
            legal: list[Move] = deal.legal_moves()
            if legal[0] is PASS:
                return PASS
            options = [m for _, m in self.call_candidates(deal)]
            return next((m for m in options if isinstance(m, Call) and m.is_bid), options[0])
        strength = self.suit_strength(deal.hands[deal.to_move])
        return self.trump_choices[max(range(4), key=strength.__getitem__)]

    def card(self, deal: Any, rng: random.Random, epsilon: float) -> Move:
        """Light play: win cheaply when possible, give points to a partner who is winning, else throw low."""
        legal: list[Move] = deal.legal_moves()
        if rng.random() < epsilon:
            m = legal[rng.randrange(len(legal))]
            return legal[0] if m is CLAIM else m
        cards = [m for m in legal if isinstance(m, Card)]
        if REVEAL in legal and rng.random() < 0.3:
            return REVEAL
        trick = deal.trick_cards
        if not trick:
            return self.lead(deal, cards)
        suit, strength, points = self.suit, self.strength, self.points
        trump = deal.active_trump
        led = suit[trick[0]]

        def key(c: Card) -> int:
            s = suit[c]
            return strength[c] + (32 if s == trump else 16 if s == led else 0)

        best_i = max(range(len(trick)), key=lambda i: (key(trick[i]), -i))
        best = key(trick[best_i])
        n = deal.n
        me = deal.to_move
        winner_seat = (me - len(trick) + best_i) % n
        team_of = deal.rules.team_of
        if team_of[winner_seat] == team_of[me]:
            return max(cards, key=lambda c: (points[c], -strength[c]))
        winners = [c for c in cards if key(c) > best]
        if winners:
            return min(winners, key=lambda c: (key(c), -points[c]))
        return min(cards, key=lambda c: (points[c], strength[c]))

    def lead(self, deal: Any, cards: Sequence[Card]) -> Card:
        """Lead the richest card nobody can beat or ruff (the playout sees every hand of its sampled deal),
        else the cheapest card of the longest suit."""
        suit, strength, points = self.suit, self.strength, self.points
        me, trump = deal.to_move, deal.active_trump
        top = [-1, -1, -1, -1]          # the best strength of each suit in the other hands
        ruffers = [False, False, False, False]
        held = [[False] * 4 for _ in range(deal.n)]
        for seat, hand in enumerate(deal.hands):
            if seat == me:
                continue
            for c in hand:
                held[seat][suit[c]] = True
                if strength[c] > top[suit[c]]:
                    top[suit[c]] = strength[c]
        if trump is not None:
            ruffers = [any(not held[seat][s] and held[seat][trump] for seat in range(deal.n) if seat != me)
                       if s != trump else False for s in range(4)]
        masters = [c for c in cards if strength[c] > top[suit[c]] and not ruffers[suit[c]]]
        if masters:
            return max(masters, key=lambda c: (points[c], strength[c]))
        length = [0, 0, 0, 0]
        for c in cards:
            length[suit[c]] += 1
        return min(cards, key=lambda c: (-length[suit[c]], points[c], strength[c]))

    def rewards(self, deal: Any) -> list[float]:
        score = deal.score() or [0] * deal.rules.n_teams
        return self.reward(score, deal.points, deal.contract.team if deal.contract is not None else -1)

    def reward(self, score: Sequence[int], points: Sequence[int], declarer: int) -> list[float]:
        """Each team's reward: its score, clipped, plus a little of its card points above a fair share."""
        fair = 56 / len(score)
        return [max(-2.0, min(2.0, s / 4)) + 0.25 * (p - fair) / 28 - (self.declarer_shade if t == declarer else 0.0)
                for t, (s, p) in enumerate(zip(score, points, strict=True))]


class _Policy55:
    """What ISMCTS needs to know about 55."""

    def __init__(self) -> None:
        from ..games.fifty_five.deal import TRUMP_CHOICES
        from ..games.fifty_five.ranking import EFFECTIVE_SUIT, KEY, TRUMP_BASE

        self.key, self.eff, self.trump_base, self.trump_choices = KEY, EFFECTIVE_SUIT, TRUMP_BASE, TRUMP_CHOICES

    def trump_strength(self, hand: Sequence[Card]) -> list[int]:
        base = self.trump_base
        return [sum(k - base for k in (self.key[s][c] for c in hand) if k > base) for s in range(4)]

    def discards(self, deal: Any) -> list[tuple[Any, Move]]:
        """Per trump suit, put away the five cards that are worth least with that suit as trumps."""
        hand = deal.hands[deal.to_move]
        out: list[tuple[Any, Move]] = []
        for s in range(4):
            worst = sorted(hand, key=self.key[s].__getitem__)[:len(hand) - 5]
            move = Discard(tuple(deal.sort_hand(worst)))
            if all(move != m for _, m in out):
                out.append((f"keep{s}", move))
        return out

    def candidates(self, deal: Any) -> list[tuple[Any, Move]]:
        if deal.phase == DISCARD:
            return self.discards(deal)
        return [(m, m) for m in deal.legal_moves()]

    def solvable(self, deal: Any, solve_from: int | None) -> bool:
        """55 deals are short: always played out."""
        return False

    def finish(self, deal: Any, rng: random.Random, epsilon: float, solve_from: int | None) -> list[float]:
        """Play the deal out by the rollout policy (55 deals are short) and reward each side."""
        while not deal.is_over:
            phase = deal.phase
            if phase == PLAY:
                move: Move = self.card(deal, rng, epsilon)
            elif phase == AUCTION:
                legal = deal.legal_moves()
                move = PASS if PASS in legal else legal[0]
            elif phase == DISCARD:
                strength = self.trump_strength(deal.hands[deal.to_move])
                best = max(range(4), key=strength.__getitem__)
                key = self.key[best]
                hand = deal.hands[deal.to_move]
                move = Discard(tuple(deal.sort_hand(sorted(hand, key=lambda c: key[c])[:len(hand) - 5])))
            else:
                strength = self.trump_strength(deal.hands[deal.to_move])
                move = self.trump_choices[max(range(4), key=strength.__getitem__)]
            deal.push_unchecked(move)
        return self.rewards(deal)

    def card(self, deal: Any, rng: random.Random, epsilon: float) -> Move:
        legal: list[Card] = deal.legal_moves()      # 55's play has cards only
        if rng.random() < epsilon or not deal.trick_cards:
            return legal[rng.randrange(len(legal))]
        trick = deal.trick_cards
        key, eff, base = self.key[deal.trump], self.eff[deal.trump], self.trump_base
        led = eff[trick[0]]
        best_i, best = 0, key[trick[0]]
        for i in range(1, len(trick)):
            k = key[trick[i]]
            if k > best and (k > base or eff[trick[i]] == led):
                best, best_i = k, i
        me = deal.to_move
        side_of = deal.rules.team_of
        if side_of[(me - len(trick) + best_i) % deal.n] == side_of[me]:
            return min(legal, key=lambda c: key[c])
        winners = [c for c in legal if key[c] > best and (key[c] > base or eff[c] == led)]
        if winners:
            return min(winners, key=lambda c: key[c])
        return min(legal, key=lambda c: key[c])

    def rewards(self, deal: Any) -> list[float]:
        score = deal.score() or [0] * deal.rules.n_teams
        return [s / 30 for s in score]


@functools.cache
def _kernel() -> bool:
    from ..solver import kernel_available
    return kernel_available()


_POLICIES: dict[str, Any] = {}


def _policy_for(game: str) -> Any:
    policy = _POLICIES.get(game)
    if policy is None:
        policy = _POLICIES[game] = _Policy56() if game == "56" else _Policy55()
    return policy


register("ismcts", IsmctsBot)
