"""Fit the 56 card-location model (``fiftysix/bots/heuristic/cardmodel56.py``) on self-play deals.

The data recipe: ``--deals`` deals of each preset in ``--presets``, dealt from seeds ``--seed``, ``--seed + 1``, …,
played out by ``rules`` bots (calls and cards). At every card decision with probability ``--share`` the view of the
seat to move is read (:class:`Observation`) and each unseen card's true holders are the labels. The last fifth of
the deals of each preset is held out. The fit is a multinomial logistic regression (every unseen copy of a card
lies with one of the seats that may hold it; offset log(cards held), so zero weights are the uniform sampler),
by full-batch Adam with a small L2 penalty, in numpy. It prints the held-out log loss per copy against the
uniform model and writes the weights with their feature names:

    .venv/bin/python bench/train_cardmodel56.py --deals 400 --out src/fiftysix/bots/heuristic/cardmodel56.npz
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from fiftysix.bots import make_bot
from fiftysix.bots.heuristic.cardmodel56 import FEATURES, MAX_OTHERS, WIDTH, Observation
from fiftysix.games import game_of_preset
from fiftysix.views import view

Rows = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def rows_of_deal(preset: str, seed: int, share: float, rng: random.Random) -> list[Rows]:
    """(features, allowed, offset, holders) of the sampled decisions of one self-play deal, padded to
    :data:`MAX_OTHERS` seats."""
    game = game_of_preset(preset)
    rules = game.rules_from_json(preset)
    deal = game.new_deal(rules, seed=seed)
    bots = [make_bot("rules", seed=seed * 10 + s, game="56") for s in range(rules.players)]
    out: list[Rows] = []
    while not deal.is_over:
        seat = deal.to_move
        v = view(deal, seat)
        if deal.phase == "play" and rng.random() < share:
            obs = Observation(v)
            k, m = len(obs.cards), len(obs.others)
            if k:
                f = np.zeros((k, MAX_OTHERS, WIDTH), dtype=np.float32)
                allowed = np.zeros((k, MAX_OTHERS), dtype=bool)
                offset = np.zeros((k, MAX_OTHERS), dtype=np.float32)
                held = np.zeros((k, MAX_OTHERS), dtype=np.float32)
                f[:, :m] = obs.features
                allowed[:, :m] = obs.allowed
                offset[:, :m] = obs.offset
                index = {c: i for i, c in enumerate(obs.cards)}
                for j, s in enumerate(obs.others):
                    for card in deal.hands[s]:
                        i = index.get(str(card))
                        if i is not None:
                            held[i, j] += 1
                # a copy the view rules out where it is (a bid form read against its convention) is left out
                ok = ~((held > 0) & ~allowed).any(axis=1)
                out.append((f[ok], allowed[ok], offset[ok], held[ok]))
        deal.push(bots[seat].choose(v))
    return out


def stack(rows: list[Rows]) -> Rows:
    return tuple(np.concatenate([r[i] for r in rows]) for i in range(4))  # type: ignore[return-value]


def loss_and_grad(w: np.ndarray, data: Rows, l2: float) -> tuple[float, np.ndarray]:
    """Mean negative log likelihood per copy (and its gradient) of the labels under weights ``w``."""
    f, allowed, offset, held = data
    logits = np.where(allowed, f @ w + offset, -np.inf)
    top = logits.max(axis=1, keepdims=True)
    e = np.where(allowed, np.exp(logits - top), 0.0)
    z = e.sum(axis=1, keepdims=True)
    logp = np.where(allowed, logits - top - np.log(z), 0.0)
    copies = held.sum()
    copies_each = held.sum(axis=1, keepdims=True)
    nll = -float((held * logp).sum()) / copies
    p = e / z
    grad = np.einsum("ks,ksd->d", copies_each * p - held, f) / copies
    return nll + l2 * float(w @ w), grad + 2 * l2 * w


def fit(train: Rows, iterations: int, l2: float, rate: float = 0.05) -> np.ndarray:
    w = np.zeros(WIDTH)
    m = np.zeros(WIDTH)
    v = np.zeros(WIDTH)
    for step in range(1, iterations + 1):
        loss, g = loss_and_grad(w, train, l2)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        if step % 100 == 0:
            print(f"  step {step}: training loss {loss:.4f}")
    return w


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--presets", default="56-4,56-6,56-8")
    p.add_argument("--deals", type=int, default=400, help="self-play deals per preset")
    p.add_argument("--seed", type=int, default=7_000_000, help="first deal seed (apart from the arena's)")
    p.add_argument("--share", type=float, default=0.35, help="share of card decisions read")
    p.add_argument("--iterations", type=int, default=600)
    p.add_argument("--l2", type=float, default=1e-4)
    p.add_argument("--out", help="where to write the weights (.npz)")
    args = p.parse_args()
    rng = random.Random(args.seed)
    train: list[Rows] = []
    held_out: dict[str, list[Rows]] = {}
    start = time.process_time()
    for preset in args.presets.split(","):
        cut = args.deals - args.deals // 5
        for i in range(args.deals):
            rows = rows_of_deal(preset, args.seed + i, args.share, rng)
            (train if i < cut else held_out.setdefault(preset, [])).extend(rows)
    data = stack(train)
    print(f"{len(train)} decisions, {int(data[3].sum())} unseen copies to train on "
          f"({time.process_time() - start:.0f} s CPU to play and read)")
    w = fit(data, args.iterations, args.l2)
    zero = np.zeros(WIDTH)
    report = []
    for preset, rows in held_out.items():
        test = stack(rows)
        base = loss_and_grad(zero, test, 0.0)[0]
        fitted = loss_and_grad(w, test, 0.0)[0]
        line = (f"{preset} held out ({len(rows)} decisions, {int(test[3].sum())} copies): log loss per copy "
                f"uniform {base:.4f}, model {fitted:.4f} ({100 * (base - fitted) / base:.1f}% less)")
        report.append(line)
        print(line)
    for name, x in sorted(zip(FEATURES, w, strict=True), key=lambda nx: -abs(nx[1])):
        print(f"  {x:+.3f}  {name}")
    if args.out:
        np.savez(args.out, weights=w, features=np.array(FEATURES),
                 recipe=np.array(f"bench/train_cardmodel56.py --presets {args.presets} --deals {args.deals} "
                                 f"--seed {args.seed} --share {args.share} --iterations {args.iterations} "
                                 f"--l2 {args.l2}"),
                 report=np.array(report))
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
