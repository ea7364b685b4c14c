"""``fiftysix replay FILE``: a record shown in the terminal, deal by deal: the hands as dealt, the auction
with each call's public meaning, the contract and trumps, every trick, then the result and the score.

The record is checked first; an invalid record prints the check error and exits 1.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import TextIO

from ..core.cards import Card
from ..core.deal import Deal
from ..core.moves import Call, Claim, Discard, Reveal, TrumpChoice
from ..core.options import Rules
from ..games.spec import GameSpec
from ..records import check, read_deal
from .common import Io, RecordFileError, game_of_record, load_json
from .render import (
    as_list,
    auction_lines,
    can_show_symbols,
    cards_line,
    contract_text,
    hand_by_suit,
    per_side,
    result_lines,
    seat_name,
    strain_words,
    trick_text,
)


def _team_of(rules: Rules) -> tuple[int, ...] | None:
    team_of = getattr(rules, "team_of", None)
    return tuple(team_of) if team_of is not None else None


def _trump_word(game: GameSpec, deal: Deal) -> str:
    """The trump as the table sees it once turned up (public after a reveal)."""
    shown = game.observation(deal, None).trump_text
    return strain_words(shown) if shown is not None else "turned up"


def deal_lines(game: GameSpec, deal: Deal, result: Mapping[str, object], record: Mapping[str, object],
               symbols: bool = True) -> list[str]:
    """The whole story of one replayed deal."""
    side = getattr(game, "side_word", "team")
    rules_text = json.dumps(game.rules_to_json(deal.rules), ensure_ascii=False)
    out = [f"Game {game.name}, rules {rules_text}, {deal.n} players, dealer seat {deal.dealer}"
           f", first hand seat {deal.first_hand}"]
    out += ["", "Hands as dealt:", *_hand_lines(deal, record, side, symbols)]
    calls = [(s, m) for s, m in deal.history if isinstance(m, Call)]
    meanings = [game.describe_call(deal, i) for i in range(len(calls))]
    out += ["", "Auction:", *auction_lines([str(m) for _, m in calls], meanings, [s for s, _ in calls])]
    out += ["", _contract_line(result, side)]
    other_lines, notes = _other_moves(game, deal, symbols)
    out += other_lines
    out += _play_lines(deal, _mappings(result.get("tricks")), notes, symbols)
    out.append("")
    out += result_lines(result, side)
    return out


def _hand_lines(deal: Deal, record: Mapping[str, object], side: str, symbols: bool) -> list[str]:
    """Each seat's hand as dealt (the dealer marked), and the kitty if the record has one."""
    team_of = _team_of(deal.rules)
    out = []
    for seat, hand in enumerate(deal.dealt):
        label = seat_name(seat, None, team_of, side)
        if seat == deal.dealer:
            label += " dealer"
        out.append(f"  {label + ':':<24} {hand_by_suit([str(c) for c in hand], symbols)}")
    kitty = record.get("kitty")
    if kitty is not None:
        kitty_cards = kitty.split() if isinstance(kitty, str) else [str(c) for c in as_list(kitty)]
        out.append(f"  {'kitty:':<24} {hand_by_suit(kitty_cards, symbols)}")
    return out


def _contract_line(result: Mapping[str, object], side: str) -> str:
    contract = result.get("contract")
    if isinstance(contract, Mapping):
        return f"Contract: {contract_text(contract, side)}"
    return "Contract: none (nobody bid)" if result.get("complete") else "Contract: not decided yet"


def _other_moves(game: GameSpec, deal: Deal, symbols: bool) -> tuple[list[str], dict[tuple[int, int], str]]:
    """Moves that are neither calls nor cards: trumps, discards and claims as lines of their own; a reveal as
    a note on the trick (number, position in it) where it came."""
    out: list[str] = []
    notes: dict[tuple[int, int], str] = {}
    cards_played = 0
    for seat, move in deal.history:
        if isinstance(move, Call):
            continue
        if isinstance(move, Card):
            cards_played += 1
            continue
        trick_no, pos = divmod(cards_played, deal.n)
        if isinstance(move, TrumpChoice):
            hidden = " (face down)" if getattr(deal.rules, "trump", None) == "hidden" else ""
            out.append(f"Trumps: seat {seat} chooses {strain_words(str(move))}{hidden}")
        elif isinstance(move, Discard):
            out.append(f"Discard: seat {seat} puts away {cards_line([str(c) for c in move.cards], symbols)}")
        elif isinstance(move, Reveal):
            notes[(trick_no, pos)] = f"seat {seat} asks for trumps: {_trump_word(game, deal)}"
        elif isinstance(move, Claim):
            out.append(f"Claim: seat {seat} claims the rest after trick {trick_no}")
    return out, notes


def _play_lines(deal: Deal, tricks: list[Mapping[str, object]], notes: dict[tuple[int, int], str],
                symbols: bool) -> list[str]:
    """The tricks played, with their notes, and the trick under way (nothing before the first card)."""
    if not tricks and not deal.trick_cards:
        return []
    n = deal.n

    def notes_of(k: int) -> dict[int, str]:
        return {pos: text for (t, pos), text in notes.items() if t == k}

    out = ["", "Play:"]
    for k, trick in enumerate(tricks):
        out.append(f"  {k + 1:>2}. {trick_text(trick, n, symbols, notes=notes_of(k))}")
    if deal.trick_cards:
        k = len(tricks)
        current = {"leader": deal.trick_leader, "cards": [str(c) for c in deal.trick_cards]}
        out.append(f"  {k + 1:>2}. {trick_text(current, n, symbols, notes=notes_of(k))}  (unfinished)")
    return out


def _mappings(value: object) -> list[Mapping[str, object]]:
    """A list field of objects (tricks, deals) of a checked record or result."""
    return [item for item in as_list(value) if isinstance(item, Mapping)]


def replay_lines(data: Mapping[str, object], result: Mapping[str, object], symbols: bool = True) -> list[str]:
    """The replay of a checked, valid deal or match record."""
    game = game_of_record(data)
    assert game is not None
    if "deals" not in data:
        deal = read_deal(data)
        return deal_lines(game, deal, result, data, symbols)
    rules = game.rules_from_json(data.get("rules"))
    records = _mappings(data["deals"])
    first = records[0].get("dealer") if records else 0
    match = game.new_match(rules, first_dealer=first if isinstance(first, int) else 0)
    side = getattr(game, "side_word", "team")
    out = [f"Match of {len(records)} deal(s)"]
    for i, record in enumerate(records):
        deal = read_deal(record, match)
        deal_result = _mappings(result["deals"])[i]
        out.append("")
        out.append(f"=== Deal {i + 1} ===")
        out += deal_lines(game, deal, deal_result, record, symbols)
        if deal.is_over:
            match.finish(deal)
        label = "Tables" if getattr(rules, "scoring", None) == "tables" else "Standings"
        out.append(f"{label} after deal {i + 1}: {per_side(list(match.standings), side)}")
    out.append("")
    winner = result.get("winner")
    if match.over:
        out.append(f"The match is over: {match.end_reason}. Winner: {side} {winner}.")
    else:
        out.append(f"The match is not over yet; standings {per_side(as_list(result.get('standings')), side)}.")
    return out


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="show a record in the terminal, trick by trick",
                       description="Show a deal or match record: hands, the auction with each call's meaning, "
                                   "the contract, every trick, the result and the score.")
    p.add_argument("file", metavar="FILE", help="a record file (- for standard input)")
    p.add_argument("--ascii", action="store_true", help="cards as JS, TH instead of suit symbols")


def run(args: argparse.Namespace, io: Io) -> int:
    symbols = not args.ascii and can_show_symbols(io.stdout)
    return run_replay(args.file, io.stdout, io.stderr, io.stdin, symbols)


def run_replay(path: str, out: TextIO, err: TextIO, stdin: TextIO | None = None, symbols: bool = True) -> int:
    name = "standard input" if path == "-" else path
    try:
        data = load_json(path, stdin)
    except RecordFileError as e:
        err.write(f"fiftysix replay: {e}\n")
        return 1
    result = check(data)
    if not result.get("valid"):
        where = result.get("field")
        if result.get("index") is not None:
            where = f"{where}[{result['index']}]"
        err.write(f"fiftysix replay: {name} is not a valid record ({where}): {result.get('error')}\n")
        return 1
    assert isinstance(data, Mapping)
    for line in replay_lines(data, result, symbols):
        out.write(line + "\n")
    return 0
