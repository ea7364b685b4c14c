"""``fiftysix play``: a person plays one seat in the terminal against computer players, deal after deal
through the game's match, until the match ends or ``--deals`` deals have been played.

The person sees only their seat's view (plus the public announcement of each move as it is made).
Input and output are injectable (``input_fn``, ``print_fn``) so the loop can be driven by a script.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Sequence

from ..core.cards import Card
from ..core.deal import Deal
from ..core.errors import FiftySixError, IllegalMoveError
from ..core.meaning import N_, Meaning, words_of
from ..core.moves import Call, Move, Reveal, TrumpChoice
from ..core.options import Rules
from ..games.spec import GameSpec, MatchLike
from ..i18n import LANGUAGES, from_environment, localize, ntr, tr, translate
from ..views import SeatView, view
from .common import (
    DEFAULT_RULES,
    CliError,
    Io,
    Warn,
    ask_bot,
    parse_rules,
    rules_help,
    seat_bots,
)
from .render import (
    auction_lines,
    can_show_symbols,
    card_text,
    legal_lines,
    legal_summary,
    match_line,
    phase_prompt,
    result_lines,
    side_name,
    strain_words,
    trick_text,
    view_lines,
)

InputFn = Callable[[str], str]
PrintFn = Callable[[str], None]

QUIT_WORDS = frozenset({"quit", "exit", "q", "bye"})
HELP_WORDS = frozenset({"?", "help"})
LEGAL_WORDS = frozenset({"legal", "l"})
SHOW_WORDS = frozenset({"show", "table", "hand"})
AUCTION_WORDS = frozenset({"auction", "calls"})
TRICKS_WORDS = frozenset({"tricks"})
REVEAL_WORDS = frozenset({"reveal", "ask", "trumps?"})

HELP_TEXT = N_("""\
Type your move in the notation of the rules: a card (JS, 10♥, th), a call (as listed by 'legal'),
or trumps (S H D C NT) when you choose them.
  ? or help    this help and your legal moves
  legal or l   list all your legal moves
  show         show the table again (your hand, the trick, the score)
  auction      the auction with the meaning of every call
  tricks       every trick played so far
  reveal       ask for a hidden trump to be turned up (when you cannot follow suit)
  quit         leave the game""")


class Quit(Exception):
    """The person left (``quit`` or end of input)."""


class TerminalGame:
    """One person at one seat of a match, the other seats played by bots."""

    def __init__(self, game: GameSpec, rules: Rules, human: int, seed: int | None, bots_text: str | None,
                 input_fn: InputFn, print_fn: PrintFn, warn: Warn, symbols: bool = True, lang: str = "en") -> None:
        n = rules.players
        if not 0 <= human < n:
            raise CliError(tr(lang, "--seat must be a seat 0-{last}, not {seat}", last=n - 1, seat=human))
        self.game = game
        self.rules = rules
        self.human = human
        self.seed = seed
        self.input_fn = input_fn
        self.print_fn = print_fn
        self.warn = warn
        self.symbols = symbols
        self.lang = lang
        self.side = getattr(game, "side_word", "team")
        self.bots, self.fallback = seat_bots(bots_text, n, seed, game.name, human=human)   # bots by original seat
        self.match: MatchLike = game.new_match(rules, seed=seed)
        self.me: int | None = human        # the person's seat in the current deal

    # -- output helpers -----------------------------------------------------------------------------
    def local(self, text: str) -> str:
        """``text`` in the player's language (a :class:`Meaning`, or a message id)."""
        return translate(text, self.lang)

    def say(self, text: str = "") -> None:
        self.print_fn(self.local(text) if text else text)

    def say_lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.print_fn(self.local(line))

    def legal(self, legal: Sequence[str], phase: object, limit: int = 16) -> str:
        return legal_summary(legal, str(phase), self.symbols, limit=limit, lang=self.lang)

    def view_text(self, v: SeatView, deal: Deal) -> list[str]:
        return view_lines(v, self.call_seats(deal), self.symbols, self.side, lang=self.lang)

    def view(self, deal: Deal, seat: int | None) -> SeatView:
        """The seat's view with the rules' meanings in the player's language."""
        local: SeatView = localize(view(deal, seat, self.match), self.lang)     # the same fields, words translated
        return local

    # -- the match ----------------------------------------------------------------------------------
    def run(self, max_deals: int | None = None) -> int:
        self.say(Meaning("Game {game}: you play seat {seat} against computer players. Type ? for help, quit to "
                         "leave.", {"game": self.game.name, "seat": self.human}))
        played = 0
        try:
            while not self.match.over and (max_deals is None or played < max_deals):
                deal = self.match.new_deal()
                seats = list(getattr(self.match, "seats", range(deal.n)))
                self.me = seats.index(self.human) if self.human in seats else None
                self.play_deal(deal, seats)
                result = self.match.finish(deal)
                played += 1
                self.say()
                self.say(Meaning("--- Deal {n} is over ---", {"n": played}))
                self.say_lines(result_lines(result, self.side, self.lang))
                self.say(match_line(self._rules_json(), list(self.match.standings), self.side, self.lang))
        except Quit:
            self.say(Meaning("Goodbye."))
            return 0
        self.say()
        if self.match.over:
            winner = self.match.winner
            reason = self.local(self.match.end_reason)
            self.say(tr(self.lang, "The match is over: {reason}. Winner: {side}.", reason=reason,
                        side=side_name(self.side, winner, self.lang)) if winner is not None else
                     tr(self.lang, "The match is over: {reason}. No single winner.", reason=reason))
            mine = self._original_team()
            if winner is not None and mine is not None:
                self.say(Meaning("You win!") if winner == mine else Meaning("You lose."))
        else:
            self.say(ntr(self.lang, "Stopped after {n} deal as asked (--deals).",
                         "Stopped after {n} deals as asked (--deals).", played))
        return 0

    def _rules_json(self) -> dict[str, object]:
        data = self.game.rules_to_json(self.rules, full=True)
        return data if isinstance(data, dict) else {}

    def _original_team(self) -> int | None:
        team_of = getattr(self.rules, "team_of", None)
        return int(team_of[self.human]) if team_of is not None else None

    # -- one deal -----------------------------------------------------------------------------------
    def play_deal(self, deal: Deal, seats: Sequence[int]) -> None:
        me = self.me
        self.say()
        facts = {"n": self.match.deal_number, "dealer": deal.dealer, "first": deal.first_hand, "me": me}
        self.say(Meaning("=== Deal {n}: dealer seat {dealer}, first hand seat {first}, you are seat {me} ===", facts)
                 if me is not None else
                 Meaning("=== Deal {n}: dealer seat {dealer}, first hand seat {first} (you are out: the others play "
                         "on) ===", facts))
        if me is not None:
            self.say_lines(self.view_text(self.view(deal, me), deal))
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None     # a deal not over has a seat to move
            if seat == me:
                move = self.ask_human(deal)
            else:
                bot = self.bots[seats[seat]]
                assert bot is not None
                move = deal.parse_move(ask_bot(bot, deal, seat, self.match, self.fallback, self.warn))
                tricks_before = len(deal.tricks)
                deal.push(move)
                if me is not None:
                    self.say_lines(self.announce(deal, seat, move, tricks_before))
            if me is not None and deal.to_move == me and not deal.is_over:
                self.say()
                self.say_lines(self.view_text(self.view(deal, me), deal))

    @staticmethod
    def call_seats(deal: Deal) -> list[int]:
        """Who made each call: public, the whole table hears it."""
        return [s for s, m in deal.history if isinstance(m, Call)]

    def announce(self, deal: Deal, seat: int, move: Move, tricks_before: int) -> list[str]:
        """What the table hears when ``seat`` makes ``move`` (public information only)."""
        who = Meaning(N_("seat {seat} (you)") if seat == self.me else N_("seat {seat}"), {"seat": seat})
        if isinstance(move, Call):
            index = sum(1 for _, m in deal.history if isinstance(m, Call)) - 1
            return [Meaning("{who} calls {call}: {meaning}", {"who": who, "call": str(move),
                                                                "meaning": self.game.describe_call(deal, index)})]
        if isinstance(move, TrumpChoice):
            shown = self.game.observation(deal, None).trump_text
            if shown is None and seat != self.me:
                return [Meaning("{who} has chosen trumps (face down)", {"who": who})]
            strain = strain_words(str(move), self.lang)
            return [Meaning("{who} chooses trumps: {strain}", {"who": who, "strain": strain})]
        if isinstance(move, Reveal):
            shown = self.game.observation(deal, None).trump_text
            return [Meaning("{who} asks for the trump to be turned up: trumps are {strain}",
                            {"who": who, "strain": strain_words(shown, self.lang)})]
        if isinstance(move, Card):
            lines: list[str] = [Meaning("{who} plays {card}", {"who": who, "card": card_text(str(move), self.symbols)})]
            if len(deal.tricks) > tricks_before:
                trick = trick_text(deal.tricks[-1].to_json(), deal.n, self.symbols, self.me, lang=self.lang)
                lines.append(Meaning("  trick {n}: {trick}", {"n": len(deal.tricks), "trick": trick}))
            return lines
        return [Meaning("{who}: {move}", {"who": who, "move": str(move)})]

    # -- the person -----------------------------------------------------------------------------------
    def read(self, prompt: str) -> str:
        try:
            return self.input_fn(prompt)
        except (EOFError, KeyboardInterrupt):
            self.say()
            raise Quit from None

    def ask_human(self, deal: Deal) -> Move:
        me = self.me
        assert me is not None
        while True:
            v = self.view(deal, me)
            phase = v.get("phase")
            legal: list[str] = list(v.get("legal") or [])
            prompt = tr(self.lang, "seat {seat}, {what}> ", seat=me, what=phase_prompt(phase, self.lang))
            text = self.read(prompt).strip()
            if not text:
                continue
            word = text.lower()
            if word in QUIT_WORDS:
                raise Quit
            if word in HELP_WORDS:
                self.say(Meaning(HELP_TEXT))
                self.say(Meaning("Your legal moves now: {legal}", {"legal": self.legal(legal, phase, limit=24)}))
                continue
            if word in LEGAL_WORDS:
                self.say_lines(legal_lines(legal, phase, self.symbols, lang=self.lang))
                continue
            if word in SHOW_WORDS:
                self.say_lines(self.view_text(v, deal))
                continue
            if word in AUCTION_WORDS:
                self.say_lines(auction_lines(v.get("auction") or [], v.get("auction_meanings") or [],
                                             self.call_seats(deal), you=me, lang=self.lang))
                continue
            if word in TRICKS_WORDS:
                tricks = v.get("tricks") or []
                if not tricks:
                    self.say(Meaning("  no trick has been completed yet"))
                for k, t in enumerate(tricks):
                    self.say(f"  {k + 1:>2}. {trick_text(t, deal.n, self.symbols, me, lang=self.lang)}")
                continue
            if word in REVEAL_WORDS:
                text = "?"
            tricks_before = len(deal.tricks)
            try:
                move: Move = deal.parse_move(text)
                deal.push(move, seat=me)
            except IllegalMoveError as e:
                self.say(Meaning("  Not allowed: {why}", {"why": self.local(words_of(e))}))
                words = set(re.findall(r"[^\s,;:()]+", str(e)))
                if e.legal and not any(m in words for m in e.legal):
                    self.say(Meaning("  Legal: {legal}", {"legal": self.legal(list(e.legal), phase)}))
                continue
            except FiftySixError as e:
                self.say(Meaning("  Cannot read that: {why}", {"why": self.local(words_of(e))}))
                self.say(Meaning("  Legal: {legal} (type ? for help)", {"legal": self.legal(legal, phase)}))
                continue
            self.say_lines(self.announce(deal, me, move, tricks_before))
            return move


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("play", help="play one seat in the terminal against computer players",
                       description="Play a match in the terminal: you hold one seat, computer players the "
                                   "others. Type ? at the prompt for help.")
    p.add_argument("--rules", default=DEFAULT_RULES, help=rules_help())
    p.add_argument("--seat", type=int, default=0, help="your seat (default %(default)s)")
    p.add_argument("--seed", type=int, default=None, help="seed of the match (shuffles, first dealer, bots)")
    p.add_argument("--bots", default="rules",
                   help="one bot for the other seats, or a comma list per seat (default %(default)s)")
    p.add_argument("--deals", type=int, default=None, help="stop after this many deals (default: the whole match)")
    p.add_argument("--ascii", action="store_true", help="cards as JS, TH instead of suit symbols")
    p.add_argument("--lang", choices=sorted(LANGUAGES), default=None,
                   help="language of the game's words (default: from LANGUAGE/LC_ALL/LANG, else English)")


def run(args: argparse.Namespace, io: Io) -> int:
    """Play in the terminal: the process's own terminal when ``io.interactive``, else the given streams
    (with the typed lines echoed, so that a transcript reads like a terminal session)."""
    game, rules = parse_rules(args.rules)
    out, inp = io.stdout, io.stdin
    symbols = not args.ascii and can_show_symbols(out)
    lang = args.lang or from_environment(os.environ)

    def input_fn(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        line = inp.readline()
        if not line:
            raise EOFError
        line = line.rstrip("\n")
        out.write(line + "\n")   # echo: the transcript then reads like a terminal session
        return line

    def print_fn(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    if io.interactive:
        echo = not sys.stdin.isatty()

        def tty_input(prompt: str) -> str:
            line = input(prompt)
            if echo:
                print(line)
            return line
        return run_play(game, rules, args.seat, args.seed, args.bots, args.deals, tty_input, print, io.warn,
                        symbols, lang)
    return run_play(game, rules, args.seat, args.seed, args.bots, args.deals, input_fn, print_fn, io.warn,
                    symbols, lang)


def run_play(game: GameSpec, rules: Rules, human: int, seed: int | None, bots_text: str | None,
             max_deals: int | None, input_fn: InputFn, print_fn: PrintFn, warn: Warn,
             symbols: bool = True, lang: str = "en") -> int:
    if max_deals is not None and max_deals < 1:
        raise CliError(tr(lang, "--deals must be at least 1, not {deals}", deals=max_deals))
    return TerminalGame(game, rules, human, seed, bots_text, input_fn, print_fn, warn, symbols,
                        lang).run(max_deals)
