"""``fiftysix deal``: one complete deal played by computer players from a seed, written as a deal record.

The same rules, seed, dealer and bots always give the same record: the deal is shuffled from the seed
and each bot (and the fallback for illegal answers) gets its own seed derived from it.
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from ..core.deal import Deal
from ..core.options import Rules
from ..games.spec import GameSpec
from ..records import deal_record
from .common import (
    DEFAULT_RULES,
    CliError,
    Io,
    Warn,
    ask_bot,
    bots_text,
    parse_rules,
    rules_help,
    seat_bots,
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("deal", help="play one deal with computer players and write its record",
                       description="Play one complete deal with computer players and write the deal record "
                                   "(JSON). The same seed gives the same record.")
    p.add_argument("--rules", default=DEFAULT_RULES, help=rules_help())
    p.add_argument("--seed", type=int, default=None, help="seed of the shuffle and of the bots")
    p.add_argument("--dealer", type=int, default=None, help="the dealer's seat (default: drawn from the seed)")
    p.add_argument("--bots", default="rules",
                   help=f"one bot for every seat or a comma list per seat: {bots_text()} (default %(default)s)")
    p.add_argument("--out", default=None, metavar="FILE", help="write the record here (default: standard output)")


def run(args: argparse.Namespace, io: Io) -> int:
    game, rules = parse_rules(args.rules)
    return run_deal(game, rules, args.seed, args.dealer, args.bots, args.out, io.stdout, io.warn)


def play_deal(game: GameSpec, rules: Rules, seed: int | None, dealer: int | None, bots_text: str | None,
              warn: Warn) -> Deal:
    """Deal from ``seed`` and let the bots play it to the end; returns the finished deal.

    :raises CliError: for a bad dealer or bot list.
    """
    n = rules.players
    if dealer is not None and not 0 <= dealer < n:
        raise CliError(f"--dealer must be a seat 0-{n - 1}, not {dealer}")
    bots, fallback = seat_bots(bots_text, n, seed, game.name)
    deal = game.new_deal(rules, seed=seed, dealer=dealer)
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None     # a deal not over has a seat to move
        bot = bots[seat]
        assert bot is not None
        deal.push(ask_bot(bot, deal, seat, None, fallback, warn))
    return deal


def run_deal(game: GameSpec, rules: Rules, seed: int | None, dealer: int | None, bots_text: str | None,
             out_path: str | None, stdout: TextIO, warn: Warn) -> int:
    deal = play_deal(game, rules, seed, dealer, bots_text, warn)
    text = json.dumps(deal_record(deal), ensure_ascii=False) + "\n"
    if out_path is None or out_path == "-":
        stdout.write(text)
    else:
        try:
            with open(out_path, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise CliError(f"cannot write {out_path}: {e.strerror or e}") from None
    return 0
