"""The one encoder (research/layout.py, read from the typed Observation) writes the same arrays as the two JSON
readers it replaced (frozen in _old_encoding.py), bit for bit: the table env's info-state and observation
tensors, private and public, and the compact observation, for every preset of 56 and 55, at every step of
random deals (the cards dealt one at a time, 55's discard card by card)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from _old_encoding import CLayout, old_encode_view, old_fill, table_layouts  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fiftysix.games import GAMES  # noqa: E402
from fiftysix.research.compact import encode_view  # noqa: E402
from fiftysix.research.table import Encoding, Table  # noqa: E402

PRESETS = [p for g in ("56", "55") for p in GAMES[g].presets()]
_ENC: dict[str, Encoding] = {}


def encoding(preset: str) -> Encoding:
    if preset not in _ENC:
        _ENC[preset] = Encoding(preset)
    return _ENC[preset]


def test_every_preset_is_covered() -> None:
    assert len(PRESETS) > 4 and any(encoding(p).kitty for p in PRESETS)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_layouts_are_the_old_ones(preset: str) -> None:
    from fiftysix.research.compact import Layout

    enc = encoding(preset)
    old = table_layouts(enc)
    for recall, new in ((True, enc.info_layout), (False, enc.obs_layout)):
        assert [(p.name, p.shape) for p in new.pieces] == [(p.name, p.shape) for p in old[recall].pieces]
        assert new.size == old[recall].size and new.offsets == old[recall].offsets
    compact, old_compact = Layout(enc), CLayout(enc)
    assert [(p.name, p.shape, p.low, p.high, p.meaning, p.private) for p in compact.pieces] == \
        [(p.name, p.shape, p.low, p.high, p.meaning, p.private) for p in old_compact.pieces]
    assert (compact.size, compact.offsets, compact.slices, compact.phases, compact.forms, compact.call_width) == \
        (old_compact.size, old_compact.offsets, old_compact.slices, old_compact.phases, old_compact.forms,
         old_compact.call_width)


def compare(t: Table) -> int:
    enc = t.enc
    compared = 0
    for recall in (True, False):
        size = table_layouts(enc)[recall].size
        for seat in range(enc.n):
            for private in (True, False):
                old, new = np.full(size, 7.0, np.float32), np.full(size, 9.0, np.float32)
                old_fill(t, old, seat, recall, private)
                t.fill(new, seat, recall, private)
                assert np.array_equal(old, new), (enc.preset, seat, recall, private, t.moves)
                compared += 1
    if t.deal is not None:
        for seat in range(enc.n):
            v = t.seat_view(seat)
            old = old_encode_view(enc, v)
            new = encode_view(enc, v)
            assert old.dtype == new.dtype and np.array_equal(old, new), (enc.preset, seat, t.moves)
            compared += 1
    return compared


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 200))
def test_the_encodings_are_the_old_ones_bit_for_bit(preset: str, seed: int, stop: int) -> None:
    enc = encoding(preset)
    rng = random.Random(seed)
    t = Table(enc)
    compare(t)
    while t.dealing:
        kinds, weights = zip(*t.chance_outcomes(), strict=True)
        t.deal_card(rng.choices(kinds, weights)[0])
        if rng.random() < 0.1:
            compare(t)
    steps = 0
    while True:
        compare(t)
        legal = t.legal_actions()
        if not legal or steps >= stop:
            break
        t.apply(rng.choice(legal))
        steps += 1
