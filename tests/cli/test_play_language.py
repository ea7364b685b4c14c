"""``fiftysix play`` in Malayalam: the table's announcements, every bid's meaning and the help are in the
player's language (``--lang`` or the POSIX locale); the notation typed and shown stays as players write it."""

from __future__ import annotations

import re

import pytest

from fiftysix.i18n import from_environment
from helpers.cli import run
from helpers.words import english_words

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


# ---- a whole deal in Malayalam: no English sentence word left -------------------------------------------

def deal_script(game_cards: str) -> str:
    """Typed lines that get through any deal: every command once, a malformed call, then again and again
    pass, a bid (when passing is not allowed), a trump suit and every card, so each prompt finds a legal
    move among them (the refusals on the way are part of what is checked)."""
    cycle = ["P", "28S", "S", *game_cards.split()]
    return "\n".join(["?", "legal", "show", "auction", "tricks", "zz9", *cycle * 40]) + "\n"


CARDS_56 = " ".join(r + s for s in "SHDC" for r in "J9ATKQ")


def test_the_word_check_finds_english() -> None:
    """The check below can fail: it finds the sentence words of the same deal played in English."""
    r = run("play", "--lang", "en", "--seed", "1", "--deals", "1", "--rules", "56-6", stdin=deal_script(CARDS_56))
    assert r.code == 0, r.err
    assert {"Points", "Contract", "Your", "hand", "trick", "wins", "Match", "Stopped"} <= english_words(r.out)


@pytest.mark.parametrize(("preset", "seed"), [("56-6", 1), ("56-6", 2), ("56-4", 3), ("56-4", 4)])
def test_a_whole_deal_in_malayalam_leaves_no_english_words(preset: str, seed: int) -> None:
    r = run("play", "--lang", "ml", "--seed", str(seed), "--deals", "1", "--rules", preset,
            stdin=deal_script(CARDS_56))
    assert r.code == 0, r.err
    out = r.out
    assert "--- 1-ആം കളി തീർന്നു ---" in out, out[-2000:]           # the deal was played to its end
    for words in ("നിങ്ങളുടെ ചീട്ടുകൾ:", "ചെയ്യാവുന്നത്:", "അനുവദനീയമല്ല:", "അത് മനസ്സിലായില്ല: തെറ്റായ വിളി",
                  "പോയിന്റ്:", "സ്കോർ:", "മാച്ചിലെ ടേബിൾ:", "കൈ പിടിച്ചു", "ആവശ്യപ്പെട്ടതുപോലെ 1 കളിക്കു ശേഷം"):
        assert words in out, words                  # the view, refusals, tricks and the deal summary
    assert english_words(out) == set(), sorted(english_words(out))


@pytest.mark.parametrize(("args", "english"), [
    (["--seat", "9"], "--seat must be a seat 0-5, not 9"),
    (["--rules", "99"], "--rules: unknown preset '99'; presets are 56-4"),
    (["--deals", "0"], "--deals must be at least 1, not 0"),
])
def test_plays_usage_errors_in_malayalam(args: list[str], english: str) -> None:
    en = run("play", "--lang", "en", *args, stdin="quit\n")
    ml = run("play", "--lang", "ml", *args, stdin="quit\n")
    assert en.code == ml.code == 2
    assert english in en.err
    why = ml.err.split("error: ", 1)[1]
    assert MALAYALAM.search(why) and english_words(why) == set(), ml.err
