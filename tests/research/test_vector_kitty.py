"""55's discard in the vector env, card by card, against the engine's own list of legal discards
(``Deal55.legal_moves``): the env computes the next card's kinds from the bidder's hand and must give exactly the
kinds that some legal discard holding the cards chosen so far continues with."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")

from fiftysix.research.vector import VectorEnv  # noqa: E402


def engine_next_kinds(env: VectorEnv, deal: Any, chosen: list[int]) -> tuple[list[int], dict[frozenset[int], Any]]:
    """The next kinds by the engine's enumeration: in each legal discard holding the ``chosen`` kinds as its
    lowest, its next lowest kind; and the legal discards by their kinds."""
    kind = env.enc.kinds.index
    legal = {frozenset(kind(c) for c in m.cards): m for m in deal.legal_moves()}
    top = max(chosen, default=-1)
    nxt = {min(k - set(chosen)) for k in legal if k.issuperset(chosen) and min(k - set(chosen)) > top}
    return sorted(nxt), legal


@pytest.mark.parametrize(("preset", "seed"), [("55", 1), ("55-6", 2), ("55-9", 3), ("55-teams-4", 4)])
def test_each_discard_card_is_one_the_engines_legal_discards_allow(preset: str, seed: int) -> None:
    """Over some 1,000 discards a preset (every card of each, drawn at random from the mask): the mask of a
    discarding table is exactly the engine's next kinds, and the discard pushed is the engine's own legal move.
    (Fails when the last cards may be ones that leave too few above them, or when the discard's cards are put in
    another order than the engine's.)"""
    env = VectorEnv(preset, num_tables=96, compiled=False)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    cards_checked = discards_made = 0
    making: dict[int, tuple[list[int], dict[frozenset[int], Any]]] = {}
    while discards_made < 1000:
        making = {}
        for i in range(env.num_tables):
            deal = env.deals[i]
            if deal.phase != "discard":
                continue
            chosen = list(env.kitty_tables.pending_kinds[i])
            expected, legal = engine_next_kinds(env, deal, chosen)
            got = np.flatnonzero(info["action_mask"][i]).tolist()
            assert got == [env.first_card + k for k in expected], (i, chosen)
            making[i] = (chosen, legal)
            cards_checked += 1
        actions = env.sample_legal(rng)
        _, _, _, _, info = env.step(actions)
        for i, (chosen, legal) in making.items():
            done = frozenset([*chosen, int(actions[i]) - env.first_card])
            if len(done) == env.kitty:
                assert env.deals[i].discard == legal[done].cards
                discards_made += 1
    assert cards_checked >= 5 * discards_made
