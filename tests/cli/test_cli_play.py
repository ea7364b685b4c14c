"""``fiftysix play`` driven by scripted input: a whole deal, help, bad input, quitting and end of input."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from fiftysix.cli.common import parse_rules, stderr_warn
from fiftysix.cli.play import run_play
from fiftysix.core.cards import Card
from fiftysix.games import GAMES
from helpers.cli import run

SYMBOL_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


class Script:
    """Plays the person's seat: asks ``legal`` and then answers the first move printed, unless a scripted
    answer is due.  ``special(prompt, lines)`` may return an answer to use instead (or ``None``)."""

    def __init__(self, special: Callable[[str, list[str]], str | None] | None = None,
                 limit: int = 2000) -> None:
        self.lines: list[str] = []
        self.prompts: list[str] = []
        self.answers: list[str] = []
        self.special = special
        self.limit = limit
        self._mark: int | None = None

    def print(self, text: str) -> None:
        self.lines.extend(text.split("\n"))

    def input(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.lines.append(prompt)
        if len(self.prompts) > self.limit:
            raise EOFError
        answer: str | None = None
        if self.special is not None:
            answer = self.special(prompt, self.lines)
        if answer is None:
            if self._mark is None:
                self._mark = len(self.lines)
                answer = "legal"
            else:
                printed = [x for x in self.lines[self._mark:] if x.startswith("  ")]
                self._mark = None
                answer = printed[0].split()[0]
        self.answers.append(answer)
        self.lines[-1] = prompt + answer
        return answer

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def play(script: Script, preset: str = "56-6", seat: int = 0, seed: int = 1, deals: int | None = 1,
         bots: str = "rules") -> int:
    game, rules = parse_rules(preset)
    return run_play(game, rules, seat, seed, bots, deals, script.input, script.print, stderr_warn)


def test_a_whole_deal_by_scripted_input() -> None:
    s = Script()
    assert play(s) == 0
    out = s.text
    assert "Your hand:" in out and "Auction:" in out
    assert "--- Deal 1 is over ---" in out
    assert re.search(r"Points: team 0: \d+, team 1: \d+", out)
    assert "Match tables: team 0:" in out
    assert "Stopped after 1 deal as asked" in out
    assert "Hands as dealt" not in out          # the person never sees the other hands
    assert len(s.prompts) >= 16                 # 8 cards (and 'legal' before each) at least


@pytest.mark.parametrize("preset", ["56-4", "56-8", "56-pairs-6", "56-announce", "56-hidden"])
def test_whole_deals_in_other_presets(preset: str) -> None:
    for seat in (0, 1):
        s = Script()
        assert play(s, preset, seat=seat, seed=seat + 3) == 0
        assert "--- Deal 1 is over ---" in s.text


def test_the_match_goes_on_to_its_end() -> None:
    s = Script()
    assert play(s, '{"preset": "56-4", "tables": 1}', deals=None) == 0
    assert "The match is over" in s.text
    assert "You win!" in s.text or "You lose." in s.text


def test_help_and_legal() -> None:
    answers = iter(["?", "help", "l", "auction", "show", "tricks", "quit"])
    s = Script(lambda prompt, lines: next(answers))
    assert play(s) == 0
    out = s.text
    assert "? or help" in out and "quit" in out
    assert "Your legal moves now: P," in out
    assert re.search(r"^  P .*28H", out, re.M) or re.search(r"^  P\b", out, re.M)
    assert "no trick has been completed yet" in out
    assert out.rstrip().endswith("Goodbye.")
    assert len(s.prompts) == 7


def test_bad_input_in_the_auction_prints_a_message_and_prompts_again() -> None:
    answers = iter(["JSS", "KH", "27H", "", "quit"])
    s = Script(lambda prompt, lines: next(answers))
    assert play(s) == 0
    out = s.text
    assert "Cannot read that: malformed call 'JSS'" in out
    assert "Not allowed: the auction has not ended; no card may be played yet" in out   # a card out of turn
    assert re.search(r"Not allowed: (bids start at 28|bid 27H is not higher than the current bid)", out)
    assert "Legal: P," in out
    assert len(s.prompts) == 5 and len(set(s.prompts)) == 1   # the same prompt each time
    assert "Traceback" not in out


def _hand_and_led(lines: list[str]) -> tuple[list[Card], str | None]:
    at = max(i for i, x in enumerate(lines) if x.startswith("Your hand:"))
    hand_line = lines[at]
    cards: list[Card] = []
    for group in hand_line[len("Your hand:"):].split("   "):
        group = group.strip()
        if not group:
            continue
        suit, *ranks = group.split()
        cards += [Card.parse(r + SYMBOL_SUIT[suit]) for r in ranks]
    trick_line = lines[at - 1]   # the view prints the current trick, then the points, then the hand
    trick_line = lines[at - 2] if trick_line.startswith("Points so far") else trick_line
    m = re.search(r"led  \d+\*?:(\S+)", trick_line) if trick_line.startswith("This trick:") else None
    led = Card.parse(m.group(1)).suit.letter if m else None
    return cards, led


def test_illegal_cards_in_the_play_are_refused_and_prompted_again() -> None:
    state = {"not_held": False, "renege": False}

    def special(prompt: str, lines: list[str]) -> str | None:
        if "play a card" not in prompt or lines[-2].startswith("  "):
            return None
        if not state["not_held"]:
            state["not_held"] = True
            return "8S"                         # not in the 48-card deck's hands: not held
        hand, led = _hand_and_led(lines)
        if not state["renege"] and led is not None and any(c.suit.letter == led for c in hand):
            other = [c for c in hand if c.suit.letter != led]
            if other:
                state["renege"] = True
                return str(other[0])
        return None

    s = Script(special)
    assert play(s, seed=2) == 0
    out = s.text
    assert "Not allowed: seat 0 does not hold 8S" in out
    assert state["renege"], "no chance to break the duty to follow in this deal"
    assert re.search(r"Not allowed: seat 0 must follow \w+: has", out)
    assert "--- Deal 1 is over ---" in out


def test_end_of_input_leaves_cleanly() -> None:
    def eof(prompt: str) -> str:
        raise EOFError

    lines: list[str] = []
    game, rules = parse_rules("56-6")
    assert run_play(game, rules, 0, 1, "rules", None, eof, lines.append, stderr_warn) == 0
    assert lines[-1] == "Goodbye."


def test_command_line_play_with_piped_input() -> None:
    r = run("play", "--seed", "1", "--deals", "1", stdin="?\nquit\n")
    assert r.code == 0
    assert "Goodbye." in r.out
    assert "? or help" in r.out
    r = run("play", "--seed", "1", stdin="")
    assert r.code == 0 and "Goodbye." in r.out


def test_command_line_play_errors() -> None:
    r = run("play", "--rules", "57-6")
    assert r.code == 2 and "unknown preset" in r.err
    r = run("play", "--seat", "6")
    assert r.code == 2 and "--seat must be a seat 0-5" in r.err
    r = run("play", "--deals", "0")
    assert r.code == 2 and "--deals" in r.err
    r = run("play", "--bots", "rules,random")
    assert r.code == 2 and "--bots" in r.err


def test_a_bot_list_may_leave_out_the_persons_seat() -> None:
    s = Script()
    game, rules = parse_rules("56-4")
    assert run_play(game, rules, 1, 5, "random,rules,random", 1, s.input, s.print, stderr_warn) == 0
    assert "--- Deal 1 is over ---" in s.text


def test_55_in_the_terminal_when_present() -> None:
    if "55" not in GAMES:
        pytest.skip("55 not registered")
    preset = next(iter(GAMES["55"].presets()))
    s = Script()
    assert play(s, preset, bots="random") == 0
    assert "--- Deal 1 is over ---" in s.text
