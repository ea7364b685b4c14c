"""Seated ``rules`` bots of 56 played inside the compiled vector env (:mod:`.vector_rules56_jit`), issue 60.

``VectorEnv("56-4", bots={1: "rules", 3: "rules"})`` keeps its compiled auction and play: after the learner's
move, the kernel decides every bot seat's call or card at once, and the env's own compiled kernels apply them,
round after round, until a learner's seat is to move.  A table the kernels do not hold (a deal put there with
``load``) has its bots played by the Python bot (:class:`.seated.BotSeats`), counted in :attr:`RulesSeats.fallbacks`.

The kernel's tables come from the bot's own code and constants: the strain estimates' weights (``WEIGHTS`` or
``_fallback_weights``), ``SHOWN_SHARE``, each seat's bot's ``margin`` and ``partner_allowance``, each call read by
``read_bid`` and ``call_suits``, each call's claim by the game's bid forms (``forms.claim``, folded as
``knowledge.Table`` folds it), the ranks' order and the cards' strength and points by the game's play rule.  The
bot draws no random number (its ``rng`` is never read), so no stream is to be reproduced.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import numpy as np

from ..bots.base import Bot, make_bot
from ..bots.heuristic import knowledge, rules56
from ..core.cards import Suit
from ..core.moves import Call
from ..games.fifty_six import calls as calls56
from ..games.fifty_six import forms
from ..games.fifty_six import play as play56
from .vector_base import CALLS_MADE, BoolArray, FloatArray, IntArray
from .vector_support import compiled_auction

MAX_PLUS = 13       # +kH: k up to a suit's cards


def compilable(bot: Bot, rules: Any) -> bool:
    """Whether the kernel plays ``bot`` at these rules: the ``rules`` bot itself (not a subclass: it may decide
    otherwise) in 56 with the compiled auction's rules (standard bidding, the trump the contract's strain)."""
    return type(bot) is rules56.Rules56Bot and compiled_auction(rules)     # (the compiled auction is 56's only)


def rules_bots(seated: Mapping[int, str | Bot], rules: Any) -> dict[int, Bot] | None:
    """The seated bots as objects if the kernel plays every one of them (else None: the Python bots play)."""
    game = str(rules.game)
    bots = {s: make_bot(b, 0, game) if isinstance(b, str) else b for s, b in seated.items()}
    if not all(compilable(b, rules) for b in bots.values()):
        return None
    try:
        import numba  # noqa: F401
    except ImportError:
        return None
    return bots


class RulesTables:
    """The kernel's tables, built from the bot's code for one env (its rules, kinds and actions)."""

    def __init__(self, env: Any, bots: Mapping[int, Bot]) -> None:
        rules, n = env.rules, env.n
        kinds = [str(c) for c in env.enc.kinds]
        k = len(kinds)
        self.n, self.k = n, k
        self.kind_suit = np.array([knowledge.SUITS.index(knowledge.suit_of(c)) for c in kinds], np.int64)
        self.strength = np.array([knowledge.strength(c) for c in kinds], np.int64)
        self.points = np.array([knowledge.points(c) for c in kinds], np.int64)
        self.is_j = np.array([knowledge.rank_of(c) == "J" for c in kinds], np.bool_)
        self.is_9 = np.array([knowledge.rank_of(c) == "9" for c in kinds], np.bool_)
        ranks = rules.ranks
        self.suit_kinds = np.array([[kinds.index(r + s) for r in ranks] for s in knowledge.SUITS], np.int64)
        self.n_ranks = len(ranks)
        # the legal cards' order: the hand's (suits S H D C, strongest first)
        self.order = np.array(sorted(range(k), key=lambda j: (self.kind_suit[j], -self.strength[j])), np.int64)
        self.keys = np.array([[[play56.trick_key(c, led, t) for c in env.enc.kinds] for led in range(4)]
                              for t in (*Suit, None)], np.int64)
        w = rules56.WEIGHTS.get((n, rules.deck_size, rules.n_teams)) or rules56._fallback_weights(
            n, rules.deck_size, rules.n_teams)
        self.w_suit = np.array(w["suit"], np.float64)
        self.w_nt = np.array(w["nt"], np.float64)
        self.w_j, self.w_9 = max(w["suit"][1], 0.0), max(w["suit"][2], 0.0)
        self.share = rules56.SHOWN_SHARE
        self.margins = np.zeros(n, np.float64)
        self.allowances = np.zeros(n, np.float64)
        for seat, bot in bots.items():
            self.margins[seat] = bot.margin           # type: ignore[attr-defined]
            self.allowances[seat] = bot.partner_allowance    # type: ignore[attr-defined]
        self.closes = rules.double == "closes"
        self._calls(env, rules, kinds)

    def _calls(self, env: Any, rules: Any, kinds: list[str]) -> None:
        """Each call action read as the bot reads it (``read_bid``, ``call_suits``), its claim as the game's bid
        forms make it, and the actions of the forms the bot writes."""
        calls: list[Call] = list(env.game.call_vocabulary(rules))
        m = len(calls)
        self.num_calls = m
        self.c_kind = np.array([{"pass": 0, "double": 1, "redouble": 2}.get(c.kind, 3) for c in calls], np.int64)
        self.c_abs = np.full(m, -1, np.int64)
        self.c_step = np.zeros(m, np.int64)
        self.c_strain = np.full(m, 4, np.int64)
        self.c_suit = np.full(m, -1, np.int64)
        self.c_psuits = np.zeros(m, np.int64)
        self.c_lo_kind = np.zeros((m, 8), np.int64)
        self.c_lo_cnt = np.zeros((m, 8), np.int64)
        self.c_lo_len = np.zeros(m, np.int64)
        self.c_hi0 = np.zeros((m, len(kinds)), np.bool_)
        self.c_exact = np.full(m, -1, np.int64)
        self.c_void_last = np.zeros(m, np.bool_)
        top = 61
        self.a_num_suit = np.full((top, 4), -1, np.int64)
        self.a_suit_num = np.full((top, 4), -1, np.int64)
        self.a_nt = np.full(top, -1, np.int64)
        self.a_noes = np.full(top, -1, np.int64)
        self.a_plus = np.full((MAX_PLUS, 4), -1, np.int64)
        action = {c.text: a for a, c in enumerate(calls)}
        self.a_pass, self.a_x, self.a_xx = (action.get(t, -1) for t in ("P", "X", "XX"))
        for v in range(calls56.MIN_BID, min(calls56.MAX_BID, top - 1) + 1):
            self.a_nt[v] = action.get(f"{v}NT", -1)
            self.a_noes[v] = action.get(f"{v}NOES", -1)
            for s, letter in enumerate(knowledge.SUITS):
                self.a_num_suit[v, s] = action.get(f"{v}{letter}", -1)
                self.a_suit_num[v, s] = action.get(f"{letter}{v}", -1)
        for kk in range(1, MAX_PLUS):
            for s, letter in enumerate(knowledge.SUITS):
                self.a_plus[kk, s] = action.get(f"+{kk}{letter}", -1)
        auction = SimpleNamespace(rules=rules, value=calls56.MIN_BID - 1, suit_bids=[Suit(0)], announced_top=[0] * 4)
        for a, call in enumerate(calls):
            self.c_psuits[a] = sum(1 << knowledge.SUITS.index(ch) for ch in rules56.call_suits(call.text))
            if not call.is_bid:
                continue
            low = knowledge.read_bid(call.text, 27, False)
            high = knowledge.read_bid(call.text, 30, False)
            if low[0] == high[0]:
                self.c_abs[a] = low[0]
            else:
                self.c_step[a] = high[0] - 30
            self.c_strain[a] = 4 if low[1] == "NT" or low[1] is None else knowledge.SUITS.index(low[1])
            self.c_suit[a] = -1 if low[2] is None else knowledge.SUITS.index(low[2])
            self._claim(a, call, auction, kinds)

    def _claim(self, a: int, call: Call, auction: Any, kinds: list[str]) -> None:
        """Call ``a``'s claim (``forms.claim``): the cards it shows in order, those it denies, the suit it shows
        exactly, and whether it shows a void in the last suit named (that suit is the auction's)."""
        form = forms.FORMS.get(call.form)
        if form is None:
            return
        if form.void is not None:
            if form.void(call, 0) != 1:
                raise ValueError(f"the compiled rules bot reads a void in the last suit named only, not {call.text}")
            self.c_void_last[a] = True
            return
        found = forms.claim(call, 0, auction, Counter())
        if found is None:
            return
        for q, (card, cnt) in enumerate(found.lo):
            self.c_lo_kind[a, q] = kinds.index(str(card))
            self.c_lo_cnt[a, q] = cnt
        self.c_lo_len[a] = len(found.lo)
        for card, cnt in found.hi:
            if cnt == 0:
                self.c_hi0[a, kinds.index(str(card))] = True
        if any(hi == 0 for _, hi in found.suit_hi):
            raise ValueError(f"the compiled rules bot does not read the void of {call.text}")
        exact = knowledge._exact_suits(found)
        if len(exact) > 1:
            raise ValueError(f"the compiled rules bot reads one exact suit a call, not {call.text}'s")
        for x in exact:
            self.c_exact[a] = x


class RulesSeats:
    """The env's seated ``rules`` bots, played by the kernel (:meth:`play`: the env's one seam for its bots,
    ``VectorEnv._opponents_play``), reading and moving the env's parts: its tables' arrays
    (:class:`.vector_base.Tables`), the mask bank, the compiled auction and play, and a step's deal ends."""

    def __init__(self, env: Any, bots: Mapping[int, Bot]) -> None:
        from .vector_rules56_jit import rules_moves  # (numba: imported only where the env is compiled)

        self.kernel = rules_moves
        self.tables = RulesTables(env, bots)
        self.is_bot = np.zeros(env.n + 1, np.bool_)      # (index -1: no seat to move)
        self.is_bot[list(bots)] = True
        kind = np.full(52, -1, np.int64)
        kind[:] = env.tables.kind
        self.card_kind = kind
        self.team_arr = np.array(env.tables.team_of, np.int64)
        self.fallbacks = 0
        """Decisions taken by the Python bot (tables the kernels do not hold)."""
        self.decisions = 0
        """Decisions taken by the kernel."""

    def decide(self, env: Any, movers: BoolArray) -> IntArray:
        """The bots' actions at the tables ``movers`` (-1 elsewhere)."""
        t, tab, play, auction = self.tables, env.tables, env.play, env.auction
        out = np.full(env.num_tables, -1, np.int64)
        self.kernel(movers, out, t.margins, t.allowances, env.n, tab.hands, tab.to_move, auction.in_auction,
                    play.live, env.bank.bank, tab.rows, tab.bits, auction.history, auction.auction, CALLS_MADE,
                    play.cards_played, play.n_played, self.card_kind, auction.first_hand, play.trump_at,
                    tab.declarer, self.team_arr, play.keys, t.keys, t.kind_suit, t.strength, t.points, t.is_j, t.is_9,
                    t.suit_kinds, t.n_ranks, t.order, t.w_suit, t.w_nt, t.w_j, t.w_9, t.share, t.closes,
                    t.num_calls, t.c_kind, t.c_abs, t.c_step, t.c_strain, t.c_suit, t.c_psuits, t.c_lo_kind,
                    t.c_lo_cnt, t.c_lo_len, t.c_hi0, t.c_exact, t.c_void_last, t.a_pass, t.a_x, t.a_xx,
                    t.a_num_suit, t.a_suit_num, t.a_nt, t.a_noes, t.a_plus, env.first_card)
        self.decisions += int(movers.sum())
        return out

    def play(self, env: Any, rewards: FloatArray, terminations: BoolArray) -> None:
        """Let the bots move at every table where a bot's seat is to move, until a learner's seat is: the kernels'
        tables round by round (one move at each such table a round), the others by the Python bots."""
        tab, steps = env.tables, env.steps
        held = env.auction.in_auction | env.play.live
        engine = self.is_bot[tab.to_move] & ~held
        if engine.any():    # (their engine deals are up to date: the kernels do not hold them)
            deals = tab.deal_list
            before = [len(d.history) for d in deals]
            env.bot_seats.play(deals, np.where(engine, tab.to_move, -1).tolist(), tab.team_of, rewards,
                               terminations, steps.deal_ended_by_bot, steps.sync)
            self.fallbacks += sum(max(len(d.history) - b, 0) for d, b in zip(tab.deal_list, before, strict=True))
        for _ in range(1000):
            movers = self.is_bot[tab.to_move] & (env.auction.in_auction | env.play.live)
            if not movers.any():
                return
            self._round(env, self.decide(env, movers), rewards, terminations)
        raise RuntimeError("the compiled rules bots made 1000 rounds without the learner's turn")

    @staticmethod
    def _round(env: Any, acts: IntArray, rewards: FloatArray, terminations: BoolArray) -> None:
        """One move at each table with an action: the cards, then the calls, by the env's compiled kernels."""
        tab, auction, steps = env.tables, env.auction, env.steps
        live, next_seat, bits, over = env.play.play(acts, rewards)
        tab.to_move[live] = next_seat[live]
        tab.bits[live] = bits[live]
        called = auction.call(np.where(live, -1, acts))
        auction.calls_done(called)
        tab.bits_changed()
        ended = np.flatnonzero(over).tolist()
        if not ended:
            return
        terminations[ended] = True
        steps.deals_ended(ended, rewards, tab.to_move, frozenset(ended))
        tab.to_move[ended] = auction.first_hand if steps.same_step else -1
