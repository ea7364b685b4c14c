"""``fiftysix play`` in Malayalam: the table's announcements, every bid's meaning and the help are in the
player's language (``--lang`` or the POSIX locale); the notation typed and shown stays as players write it."""

from __future__ import annotations

import re

import pytest

from fiftysix.i18n import from_environment
from helpers.cli import run

MALAYALAM = re.compile(r"[\u0d00-\u0d7f]")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_play_in_malayalam_translates_the_calls_and_help(seed: int) -> None:
    r = run("play", "--lang", "ml", "--seed", str(seed), "--deals", "1", "--rules", "56-6", stdin="?\nP\nquit\n")
    assert r.code == 0, r.err
    calls = [line for line in r.out.splitlines() if "വിളിച്ചു:" in line]       # "<seat> <call> called: <meaning>"
    assert calls, r.out
    for line in calls:
        meaning = line.split("വിളിച്ചു:", 1)[1]
        assert MALAYALAM.search(meaning) and not re.search(r"\b(holds|in|the|no-trumps|pass)\b", meaning), line
    assert "ഈ സഹായവും" in r.out and "വീണ്ടും കാണാം." in r.out
    english = run("play", "--lang", "en", "--seed", str(seed), "--deals", "1", "--rules", "56-6", stdin="quit\n")
    assert not MALAYALAM.search(english.out) and "Goodbye." in english.out


@pytest.mark.parametrize(("env", "expected"), [
    ({"LANG": "ml_IN.UTF-8"}, "ml"),
    ({"LANGUAGE": "ml:en", "LANG": "en_US.UTF-8"}, "ml"),
    ({"LANGUAGE": "en:ml", "LANG": "ml_IN.UTF-8"}, "en"),
    ({"LC_ALL": "C", "LANG": "ml_IN"}, "ml"),          # C says nothing; the next variable decides
    ({"LANG": "ta_IN.UTF-8"}, "en"),
    ({}, "en"),
])
def test_language_from_the_environment(env: dict[str, str], expected: str) -> None:
    assert from_environment(env) == expected
