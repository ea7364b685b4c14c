"""The learned card-location model of 56 and the ``reader`` bot that weighs its sampled deals by it."""

from __future__ import annotations

import math
import os
import random
import socket
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.bots.heuristic import cardmodel56
from fiftysix.bots.heuristic.cardmodel56 import FEATURES, WIDTH, CardModel, SeatReading
from fiftysix.bots.heuristic.knowledge import Table
from fiftysix.bots.kits import kit_for
from fiftysix.bots.protocol import bot_from_spec
from fiftysix.bots.sampling import WeightedSampler, sampler_for
from fiftysix.bots.search.pimc import PimcBot
from fiftysix.bots.search.reader import ReaderBot
from fiftysix.games import game_of_preset
from fiftysix.views import view
from helpers.paths import ROOT, SRC
from helpers.positions56 import Uniform, consistent_deals, location, played_to, worst_share_gap


def test_the_shipped_model_loads_from_the_package_with_no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("the card model must not reach the network")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    cardmodel56.shipped.cache_clear()
    model = cardmodel56.shipped()
    assert model.weights.shape == (WIDTH,) and np.isfinite(model.weights).all()
    assert np.abs(model.weights).max() > 0.1     # trained, not zeros
    assert kit_for("56").card_model is model
    assert kit_for("55").card_model is None


def test_the_weights_file_is_small_and_names_its_features_and_recipe() -> None:
    path = Path(cardmodel56.__file__).with_name(cardmodel56.WEIGHTS_FILE)
    assert path.stat().st_size < 64_000
    data = np.load(path)
    assert tuple(str(x) for x in data["features"]) == FEATURES
    assert "bench/train_cardmodel56.py" in str(data["recipe"])


def test_weights_of_the_wrong_shape_are_refused() -> None:
    with pytest.raises(ValueError, match=f"{WIDTH} weights"):
        CardModel([0.0, 1.0])


def _position(preset: str, seed: int, held: int) -> tuple[object, dict[str, object]]:
    deal = played_to(preset, seed, held)
    me = deal.to_move
    assert me is not None
    return deal, view(deal, me)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["56-4", "56-6", "56-8"]), st.integers(0, 10_000), st.integers(1, 8))
def test_the_model_only_puts_cards_where_the_view_allows(preset: str, seed: int, held: int) -> None:
    """Every unseen copy may lie only with a seat that may hold it (voids, bid forms, cards seen); with zero
    weights the chances are each seat's share of the unseen cards; each card's chances sum to 1."""
    _, v = _position(preset, seed, held)
    obs = SeatReading(v)
    t = Table(v)
    for i, c in enumerate(obs.cards):
        for j, s in enumerate(obs.others):
            assert obs.allowed[i, j] == t.may_hold_card(s, c)
    logp = obs.log_probabilities(cardmodel56.shipped().weights)
    p = np.exp(logp)
    assert np.allclose(p.sum(axis=1), 1.0)
    assert (p[~obs.allowed] == 0).all()
    sizes = np.array([v["hand_sizes"][s] for s in obs.others], dtype=float)  # type: ignore[index]
    uniform = np.exp(obs.log_probabilities(np.zeros(WIDTH)))
    for i in range(len(obs.cards)):
        share = np.where(obs.allowed[i], sizes, 0.0)
        assert np.allclose(uniform[i], share / share.sum())


@given(st.integers(0, 10_000))
@settings(max_examples=10, deadline=None)
def test_the_observation_reads_only_the_view(seed: int) -> None:
    """Two deals that look the same to the seat to move (another seat's hand swapped for a consistent one)
    give the same observation: the model cannot see hidden cards."""
    deal, v = _position("56-6", seed, 4)
    me = v["seat"]
    other = sampler_for(v).sample(random.Random(seed))
    assert view(other, me) == v
    a, b = SeatReading(v), SeatReading(view(other, me))
    assert a.cards == b.cards and (a.features == b.features).all() and (a.allowed == b.allowed).all()


def test_the_model_knows_more_than_the_uniform_sampler_on_unseen_deals() -> None:
    """On deals apart from its training seeds, the true holders of the unseen cards are likelier under the
    model than under the sampler's uniform prior (mean log chance per copy)."""
    model, gain, copies = cardmodel56.shipped(), 0.0, 0
    for seed in range(40):
        deal, v = _position("56-6", 500 + seed, 1 + seed % 7)
        obs = SeatReading(v)
        fitted, uniform = obs.log_probabilities(model.weights), obs.log_probabilities(np.zeros(WIDTH))
        index = {c: i for i, c in enumerate(obs.cards)}
        for j, s in enumerate(obs.others):
            for card in deal.hands[s]:   # type: ignore[attr-defined]
                i = index[str(card)]
                if obs.allowed[i, j]:
                    gain += fitted[i, j] - uniform[i, j]
                    copies += 1
    assert copies > 500
    assert gain / copies > 0.01


class Remembered:
    def __init__(self, lik: cardmodel56.CardLikelihood) -> None:
        self.lik = lik
        self.calls = 0

    def log_weight(self, deal: object) -> float:
        self.calls += 1
        return self.lik.log_weight(deal)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [3, 7, 12, 21])
def test_weighted_sampling_matches_exact_enumeration(seed: int) -> None:
    """56-4, two cards each left (six unseen cards): the model's weighting of the consistent deals, drawn by
    the weighted sampler, gives each card's location the exact share: Σ over every consistent deal of
    Π p(card, holder), normalised (copies told apart, so every labelled deal has the same prior)."""
    deal = played_to("56-4", seed, 2)
    me = deal.to_move
    assert me is not None
    v = view(deal, me)
    obs, logp = cardmodel56.shipped().observe(v)
    index = {c: i for i, c in enumerate(obs.cards)}
    deals = consistent_deals(deal)
    assert deals
    exact: Counter[tuple[str, int]] = Counter()
    total = 0.0
    for d in deals:
        w = math.exp(sum(logp[index[c], obs.others.index(s)] for c, s in location(d, me)))
        total += w
        for k in location(d, me):
            exact[k] += w
    lik = Remembered(cardmodel56.shipped().likelihood(v))
    weighted = WeightedSampler(Uniform(deals), lik, pool=4000)  # type: ignore[arg-type]
    worst = worst_share_gap(weighted, me, exact, total, 4000, random.Random(seed))
    assert worst < 0.05, worst
    assert lik.calls == 4000    # each candidate weighed once


def test_a_reader_at_strength_0_plays_as_pimc() -> None:
    for seed in range(3):
        _, v = _position("56-6", seed, 3)
        reader, pimc = ReaderBot(seed=5, strength=0, samples=6), PimcBot(seed=5, samples=6)
        assert reader.choose(v) == pimc.choose(v)
        assert reader.last["scores"] == pimc.last["scores"]


def test_reader_options_are_checked() -> None:
    with pytest.raises(ValueError, match="strength"):
        ReaderBot(strength=-1)
    with pytest.raises(ValueError, match="pool"):
        ReaderBot(pool=0)


def test_reader_plays_a_whole_deal_with_legal_moves() -> None:
    game = game_of_preset("56-4")
    rules = game.rules_from_json("56-4")
    deal = game.new_deal(rules, seed=11)
    bot = ReaderBot(seed=1, bid_samples=20, samples=6)
    assert isinstance(bot_from_spec("reader,strength=0.5", seed=1, game="56"), ReaderBot)
    while not deal.is_over:
        seat = deal.to_move
        move = bot.choose(view(deal, seat))
        deal.push(move)     # push validates: an illegal move would raise


@pytest.mark.slow
def test_the_training_script_runs_and_writes_weights_the_model_reads(tmp_path: Path) -> None:
    out = tmp_path / "model.npz"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "train_cardmodel56.py"), "--presets", "56-4",
                           "--deals", "6", "--iterations", "20", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, check=True,
                          env={**os.environ, "PYTHONPATH": str(SRC)})
    assert "held out" in done.stdout
    data = np.load(out)
    CardModel(data["weights"])
