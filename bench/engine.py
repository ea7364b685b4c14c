"""Random deals per CPU second through the engine's own legal-move generator, against a minimal bitmask loop.

Three figures per preset, all measured in this one run, as CPU time (``time.process_time``):

* ``complete``: deals dealt from a seed, then every move (calls, trump choice, discard, cards) drawn uniformly
  from ``deal.legal_moves()`` and applied with the validating ``deal.push()``;
* ``play``: the same for the play alone, from deals brought to the start of the play beforehand (untimed);
* ``minimal``: a minimal pure-Python bitmask loop of the play (hands as ints, legal cards by masking, the trick
  winner by comparing strengths; no validation, no history, no objects) from the same starting positions: the
  reference the engine's play is measured against.

Moves are drawn uniformly: ``legal[int(rng.random() * len(legal))]`` (``--chooser random``, the default), or
with ``rng.randrange`` (``--chooser randrange``, as before; it costs about as much as a whole engine move).
Garbage left by the untimed preparation is collected before each timed stretch.

    taskset -c 1 .venv/bin/python bench/engine.py [--seconds 2] [--presets 56-4,56-6,56-8,55,55-9]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import time
from collections.abc import Callable
from typing import Any

from fiftysix.games import game_of_preset

try:  # the play rule's one home
    from fiftysix.games.fifty_five.play import EFFECTIVE_SUIT, KEY, PRIVILEGED, TRUMP_BASE
    from fiftysix.games.fifty_six.play import POINTS, STRENGTH
except ImportError:  # the engine before games/*/play.py existed (to measure old code with this bench)
    from fiftysix.games.fifty_five.ranking import (  # type: ignore[no-redef]
        EFFECTIVE_SUIT,
        KEY,
        PRIVILEGED,
        TRUMP_BASE,
    )
    from fiftysix.games.fifty_six.deal import POINTS, STRENGTH  # type: ignore[no-redef]

BATCH = 100


# ---- the engine ------------------------------------------------------------------------------------------

class Chooser(random.Random):
    """``randrange(n)`` as ``int(random() * n)``: uniform enough for a benchmark, and cheap."""

    def randrange(self, n: int) -> int:  # type: ignore[override]
        return int(self.random() * n)


def play_out(deal: Any, rng: random.Random) -> int:
    randrange = rng.randrange
    moves = 0
    while not deal.is_over:
        legal = deal.legal_moves()
        deal.push(legal[randrange(len(legal))])
        moves += 1
    return moves


def to_play(game: Any, rules: Any, seed: int, rng: random.Random) -> Any | None:
    """The deal of ``seed`` after a random auction (and trump choice, discard), or ``None`` if thrown in."""
    deal = game.new_deal(rules, seed=seed)
    while deal.phase != "play" and not deal.is_over:
        legal = deal.legal_moves()
        deal.push(legal[rng.randrange(len(legal))])
    return None if deal.is_over else deal


# ---- the minimal loop --------------------------------------------------------------------------------------

SUIT56 = tuple(((1 << 26) - 1) << (26 * s) for s in range(4))   # a 56 hand: bits 2c and 2c+1 for card c


def minimal_56(hands: list[int], leader: int, trump: int, team_of: tuple[int, ...], tricks: int,
               rng: random.Random) -> list[int]:
    randrange = rng.randrange
    n = len(hands)
    points = [0] * (max(team_of) + 1)
    for _ in range(tricks):
        seat, led, best, winner, pts = leader, -1, -1, leader, 0
        for _ in range(n):
            h = hands[seat]
            legal = h & SUIT56[led] if led >= 0 else 0
            if not legal:
                legal = h
            bits = []
            while legal:
                low = legal & -legal
                bits.append(low)
                legal ^= low
            b = bits[randrange(len(bits))]
            hands[seat] = h ^ b
            c = (b.bit_length() - 1) >> 1
            s = c // 13
            if led < 0:
                led = s
            key = STRENGTH[c] + (32 if s == trump else 16 if s == led else 0)
            if key > best:
                best, winner = key, seat
            pts += POINTS[c]
            seat = seat + 1 if seat + 1 < n else 0
        points[team_of[winner]] += pts
        leader = winner
    return points


def _masks55(trump: int) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    key, eff = KEY[trump], EFFECTIVE_SUIT[trump]
    trumps = sum(1 << c for c in range(52) if key[c] > TRUMP_BASE)
    plain = tuple(sum(1 << c for c in range(52) if eff[c] == s and key[c] < TRUMP_BASE) for s in range(4))
    # the privileged trumps above each trump led: those may be kept back
    above = tuple(sum(1 << p for p in PRIVILEGED[trump] if key[p] > key[c]) for c in range(52))
    return trumps, plain, above


MASKS55 = tuple(_masks55(t) for t in range(4))


def minimal_55(hands: list[int], leader: int, trump: int, side_of: tuple[int, ...], tricks: int,
               rng: random.Random) -> list[int]:
    randrange = rng.randrange
    n = len(hands)
    key, eff = KEY[trump], EFFECTIVE_SUIT[trump]
    trumps, plain, above = MASKS55[trump]
    points = [0] * (max(side_of) + 1)
    top, top_seat = 0, -1
    for _ in range(tricks):
        seat, best, winner, led = leader, -1, leader, -1
        for i in range(n):
            h = hands[seat]
            if i == 0:
                legal = h
            elif key[led] > TRUMP_BASE:
                t = h & trumps
                legal = t if t & ~above[led] else h
            elif h & plain[eff[led]]:
                legal = h & (plain[eff[led]] | trumps)
            else:
                legal = h
            bits = []
            while legal:
                low = legal & -legal
                bits.append(low)
                legal ^= low
            b = bits[randrange(len(bits))]
            hands[seat] = h ^ b
            c = b.bit_length() - 1
            if i == 0:
                led = c
            k = key[c]
            if k > best and (k > TRUMP_BASE or eff[c] == eff[led]):
                best, winner = k, seat
            seat = seat + 1 if seat + 1 < n else 0
        if best > top:
            top, top_seat = best, winner
        points[side_of[winner]] += 5
        leader = winner
    if top > TRUMP_BASE:
        points[side_of[top_seat]] += 5
    return points


def minimal_start(deal: Any) -> tuple[Callable[..., list[int]], list[int], int, int, tuple[int, ...], int]:
    """The minimal loop's arguments for a deal at the start of its play (built untimed)."""
    hands = [[int(c) for c in h] for h in deal.hands]
    if deal.game == "56":
        masks = []
        for h in hands:
            m = 0
            for c in h:
                m |= 1 << (2 * c + 1) if m >> (2 * c) & 1 else 1 << (2 * c)
            masks.append(m)
        trump = -1 if deal.trump is None or not deal.revealed else int(deal.trump)
        return minimal_56, masks, deal.to_move, trump, deal.rules.team_of, len(hands[0])
    masks = [sum(1 << c for c in h) for h in hands]
    return minimal_55, masks, deal.to_move, int(deal.trump), deal.rules.side_of, len(hands[0])


# ---- measuring -----------------------------------------------------------------------------------------------

def bench(preset: str, seconds: float, chooser: type[random.Random]) -> dict[str, float]:
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    out: dict[str, float] = {}
    clock = time.process_time

    rng, deals, moves, spent = chooser(1), 0, 0, 0.0
    gc.collect()
    while spent < seconds:
        start = clock()
        for _ in range(BATCH):
            moves += play_out(game.new_deal(rules, seed=deals), rng)
            deals += 1
        spent += clock() - start
    out["complete"], out["complete_moves"] = deals / spent, moves / spent

    rng = chooser(2)
    seed, play_deals, play_moves, play_spent, min_deals, min_spent = 0, 0, 0, 0.0, 0, 0.0
    while play_spent < seconds:      # the minimal loop plays the same positions, in less time
        batch = []
        while len(batch) < BATCH:
            d = to_play(game, rules, seed, rng)
            seed += 1
            if d is not None:
                batch.append(d)
        starts = [minimal_start(d) for d in batch]
        gc.collect()
        start = clock()
        for d in batch:
            play_moves += play_out(d, rng)
        play_spent += clock() - start
        play_deals += len(batch)
        gc.collect()
        start = clock()
        for loop, hands, leader, trump, teams, tricks in starts:
            loop(hands, leader, trump, teams, tricks, rng)
        min_spent += clock() - start
        min_deals += len(batch)
    out["play"], out["play_moves"] = play_deals / play_spent, play_moves / play_spent
    out["minimal"] = min_deals / min_spent
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure and preset")
    parser.add_argument("--presets", default="56-4,56-6,56-8,55,55-9")
    parser.add_argument("--chooser", choices=("random", "randrange"), default="random")
    args = parser.parse_args()
    chooser = Chooser if args.chooser == "random" else random.Random
    print(f"load average {os.getloadavg()[0]:.2f}; CPU time; deals per second (moves per second); "
          f"moves drawn with {args.chooser}")
    print(f"{'preset':<8} {'complete':>18} {'play':>18} {'minimal play':>13} {'play/minimal':>13}")
    for preset in args.presets.split(","):
        try:
            game_of_preset(preset)
        except ValueError as e:
            print(f"{preset:<8} skipped: {e}")
            continue
        r = bench(preset, args.seconds, chooser)
        complete = f"{r['complete']:,.0f} ({r['complete_moves']:,.0f})"
        play = f"{r['play']:,.0f} ({r['play_moves']:,.0f})"
        print(f"{preset:<8} {complete:>18} {play:>18} {r['minimal']:>13,.0f} {r['play'] / r['minimal']:>12.2f}x",
              flush=True)


if __name__ == "__main__":
    main()
