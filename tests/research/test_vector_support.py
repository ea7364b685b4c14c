"""Issue 56 item 5: the compiled vector env declares, option by option, what it implements
(:mod:`fiftysix.research.vector_support`); every option of each game is named there, every value of every option
is either played by the kernels as the engine plays it or left to the engine."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from fiftysix.core.options import RulesError  # noqa: E402
from fiftysix.games.fifty_five.rules import CHOICES as CHOICES55  # noqa: E402
from fiftysix.games.fifty_five.rules import Rules55  # noqa: E402
from fiftysix.games.fifty_six.rules import CHOICES as CHOICES56  # noqa: E402
from fiftysix.games.fifty_six.rules import Rules56  # noqa: E402
from fiftysix.research import vector_support  # noqa: E402
from fiftysix.research.vector import VectorEnv  # noqa: E402

GAMES = {"56": (Rules56, CHOICES56, ["56-4", "56-6", "56-8"]), "55": (Rules55, CHOICES55, ["55", "55-6"])}


def option_names(rules_class: Any) -> set[str]:
    return {f.name for f in dataclasses.fields(rules_class) if f.init}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_option_of_the_rules_is_named_in_the_declaration(game: str) -> None:
    """A made-up option added to the rules fails here until the compiled env declares whether it plays it."""
    rules_class, choices, _ = GAMES[game]
    assert option_names(rules_class) == set(vector_support.PLAY[game])
    assert set(choices) <= option_names(rules_class)
    if game in vector_support.AUCTION:
        assert option_names(rules_class) == set(vector_support.AUCTION[game])


def values(allowed: tuple[object, ...]) -> list[object]:
    """Each allowed value; a range's first and last."""
    out: list[object] = []
    for v in allowed:
        out += [v.start, v.stop - 1] if isinstance(v, range) else [v]
    return out


def cases() -> list[tuple[str, dict[str, object]]]:
    """Every value of every option, on the first preset of its game where it is a valid rules object."""
    out = []
    for game, (_, choices, presets) in sorted(GAMES.items()):
        for name, allowed in choices.items():
            for value in values(allowed):
                for preset in presets:
                    try:
                        GAMES[game][0].from_json({"preset": preset, name: value})
                    except RulesError:
                        continue
                    out.append((game, {"preset": preset, name: value}))
                    break
    return out


@pytest.mark.parametrize(("game", "rules"), cases(), ids=lambda c: str(c))
def test_each_value_of_each_option_is_played_by_the_kernels_as_declared_and_as_the_engine_plays_it(
        game: str, rules: dict[str, object]) -> None:
    """The env compiles exactly what the declaration says; where it does, 60 steps of 4 tables give the engine's
    answers (the same comparison as test_vector_jit)."""
    from test_vector_jit import run_both  # (pytest puts this folder on the path)

    rules_obj = GAMES[game][0].from_json(rules)
    env = VectorEnv(rules, num_tables=2)
    assert env.compiled == vector_support.compiled_play(rules_obj)
    assert (env.auction is not None) == (game == "56" and vector_support.compiled_auction(rules_obj))
    if env.compiled:
        run_both(rules, seed=7, steps=60, tables=4)


def test_an_undeclared_option_or_value_is_refused_naming_it() -> None:
    rules = Rules56.from_json({"preset": "56-4", "trump": "hidden", "claim": True})
    assert vector_support.refused(rules, vector_support.PLAY) == ["trump='hidden'", "claim=True"]
    assert not vector_support.compiled_play(rules)

    @dataclasses.dataclass(frozen=True)
    class HouseRules(Rules56):
        jacks_low: bool = False     # a made-up house rule the kernels do not know

    house = HouseRules()
    assert vector_support.refused(house, vector_support.PLAY) == ["jacks_low=False"]
    assert not vector_support.compiled_play(house) and not vector_support.compiled_auction(house)
    assert vector_support.compiled_auction(Rules56.from_json("56-6"))
    assert not vector_support.compiled_auction(Rules56.from_json({"preset": "56-6", "trump": "chosen"}))
