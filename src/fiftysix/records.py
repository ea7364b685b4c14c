"""Game records (``docs/spec/records.md``): read, replay, check and write deal and match records.

:func:`check` returns exactly what ``fiftysix check`` prints for a record.  :func:`read_deal` replays a
deal record into a :class:`~fiftysix.core.deal.Deal` and raises :class:`RecordError` naming the field
and index of the first bad entry, in the order game, rules, dealer, hands, (kitty), trump, auction,
(discard), play.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence

from .core.cards import Card, cards_text
from .core.deal import AUCTION, OVER, Deal
from .core.errors import IllegalMoveError, NotationError, RecordError, RulesError
from .core.meaning import Meaning, Plural, words_of
from .core.moves import Call
from .core.options import Rules
from .games import GAMES
from .games.spec import GameSpec, MatchLike


def _game(data: Mapping[str, object]) -> GameSpec:
    name = data.get("game")
    if not isinstance(name, str) or name not in GAMES:
        shown = json.dumps(name, ensure_ascii=False, default=repr)
        raise RecordError("game", None, Meaning('game must be "55" or "56", not {value}', {"value": shown}))
    return GAMES[name]


def _rules(game: GameSpec, data: Mapping[str, object]) -> Rules:
    try:
        return game.rules_from_json(data.get("rules"))
    except RulesError as e:
        raise RecordError("rules", None, words_of(e)) from None


def read_hands(game: GameSpec, rules: Rules, value: object) -> list[list[Card]]:
    """Check the ``hands`` field: one entry per seat, the right size, real cards, no card too often.

    :raises RecordError: with the seat as index.
    """
    n = rules.players
    if not isinstance(value, list):
        raise RecordError("hands", None, Meaning("hands must be a list of {n} hands, one per seat", {"n": n}))
    if len(value) != n:
        raise RecordError("hands", None, Plural("hands has {n} entry; there are {players} players",
                                                "hands has {n} entries; there are {players} players",
                                                len(value), {"players": n}))
    deck = Counter(game.deck(rules))
    seen: Counter[Card] = Counter()
    hands = []
    for seat, entry in enumerate(value):
        cards = _cards_of(game, entry, Meaning("in the hand of seat {seat}", {"seat": seat}), "hands", seat)
        if len(cards) != rules.hand_size:
            raise RecordError("hands", seat, Plural("seat {seat} has {n} card; each seat gets {size}",
                                                    "seat {seat} has {n} cards; each seat gets {size}",
                                                    len(cards), {"seat": seat, "size": rules.hand_size}))
        for c in cards:
            if c not in deck:
                raise RecordError("hands", seat, Meaning("{card} is not in the {size}-card deck (hand of seat {seat})",
                                                         {"card": str(c), "size": rules.deck_size, "seat": seat}))
            seen[c] += 1
            if seen[c] > deck[c]:
                facts = {"card": str(c), "seat": seat}
                raise RecordError("hands", seat, Meaning(
                    "{card} is dealt twice (again in the hand of seat {seat}); the pack holds each card once", facts)
                    if game.copies == 1 else Meaning(
                    "{card} is dealt three times (again in the hand of seat {seat}); the deck holds each card twice",
                    facts))
        hands.append(cards)
    return hands


def _cards_of(game: GameSpec, entry: object, where: Meaning, field: str, index: int | None) -> list[Card]:
    if isinstance(entry, str):
        items: list[object] = list(entry.split())
    elif isinstance(entry, list):
        items = list(entry)
    else:
        raise RecordError(field, index, Meaning("cards {where} must be a string or a list of cards, not {value}",
                                                {"where": where, "value": repr(entry)}))
    out = []
    for item in items:
        try:
            if not isinstance(item, str):
                raise NotationError("")
            out.append(Card.parse(item, game.ranks))
        except NotationError:
            raise RecordError(field, index, Meaning("malformed card {card} {where}",
                                                    {"card": repr(item), "where": where})) from None
    return out


def _list_field(data: Mapping[str, object], field: str) -> list[object]:
    value = data.get(field)
    if value is None:
        return []
    if not isinstance(value, list):
        raise RecordError(field, None, Meaning("{field} must be a list", {"field": field}))
    return value


def read_deal(data: object, match: MatchLike | None = None) -> Deal:
    """Replay a deal record and return the deal in the state the record leaves it.

    :param match: inside a match record, the match so far (it decides rules, seats and dealer).
    :raises RecordError: naming the field and index of the first bad entry.
    """
    if not isinstance(data, Mapping):
        raise RecordError("game", None, Meaning("a deal record must be a JSON object"))
    game = _game(data)
    rules = match.rules if match is not None and data.get("rules") is None else _rules(game, data)
    if match is not None:
        if rules not in (match.rules, match.deal_rules):
            raise RecordError("rules", None, Meaning("the deal's rules differ from the match's rules"))
        rules = match.deal_rules
    dealer = data.get("dealer")
    n = rules.players
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        raise RecordError("dealer", None, Meaning("dealer must be a seat 0-{last}, not {value}",
                                                  {"last": n - 1, "value": json.dumps(dealer, default=repr)}))
    if match is not None and dealer != match.dealer:
        raise RecordError("dealer", None, Meaning("the dealer rotates: deal {n} is dealt by seat {seat}, not {dealer}",
                                                  {"n": match.deal_number - 1, "seat": match.dealer,
                                                   "dealer": dealer}))
    if "hands" not in data:
        raise RecordError("hands", None, Meaning("hands is missing"))
    hands = read_hands(game, rules, data["hands"])
    deal = game.read_setup(data, rules, dealer, hands, match)
    game.check_trump_field(data, rules)
    _replay_auction(deal, _list_field(data, "auction"))
    game.replay_extra(data, deal)
    _replay_play(game, deal, _list_field(data, "play"))
    return deal


def _replay_auction(deal: Deal, calls: list[object]) -> None:
    for i, text in enumerate(calls):
        if deal.phase != AUCTION:
            raise RecordError("auction", i, Meaning("call {i}: the auction is over; no more calls", {"i": i}))
        seat = deal.to_move
        try:
            if not isinstance(text, str):
                raise NotationError(Meaning("malformed call {text}", {"text": repr(text)}))
            deal.push(deal.parse_call(text))
        except (NotationError, IllegalMoveError) as e:
            raise RecordError("auction", i, Meaning("call {i} by seat {seat}: {why}",
                                                    {"i": i, "seat": seat, "why": _param(e)})) from None


def _replay_play(game: GameSpec, deal: Deal, plays: list[object]) -> None:
    for i, text in enumerate(plays):
        if deal.phase == OVER:
            raise RecordError("play", i, Meaning("card {i}: {why}", {"i": i, "why": _param_text(deal.over_text())}))
        if deal.phase == AUCTION:
            raise RecordError("play", i, Meaning("card {i}: the auction has not ended; no card may be played yet",
                                                 {"i": i}))
        if deal.phase != "play":
            why = _param_text(deal.not_ready_text())
            raise RecordError("play", i, Meaning("card {i}: {why}", {"i": i, "why": why}))
        seat = deal.to_move
        try:
            if not isinstance(text, str):
                raise NotationError(_malformed_card(text, game))
            if text.strip() in ("?", "CLAIM", "claim"):
                move = deal.parse_move(text)
            else:
                try:
                    move = Card.parse(text, game.ranks)
                except NotationError:
                    raise NotationError(_malformed_card(text, game)) from None
            deal.push(move)
        except (NotationError, IllegalMoveError) as e:
            raise RecordError("play", i, Meaning("card {i} by seat {seat}: {why}",
                                                 {"i": i, "seat": seat, "why": _param(e)})) from None


def _malformed_card(text: object, game: GameSpec) -> Meaning:
    """``malformed card 'ZZ'; cards are rank then suit...`` with the game's ranks."""
    try:
        Card.parse("?", game.ranks)
    except NotationError as e:
        found = words_of(e)
        if isinstance(found, Meaning) and "help" in found.params:
            return Meaning("malformed card {text}; {help}", {"text": repr(text), "help": found.params["help"]})
    return Meaning("malformed card {text}", {"text": repr(text)})


def _param(error: Exception) -> object:
    """An error's words as a parameter of another message: a Meaning stays one (translated with it)."""
    return _param_text(words_of(error))


def _param_text(text: str) -> object:
    return text if isinstance(text, Meaning) else Meaning(text) if text else text


def check_deal(data: object) -> dict[str, object]:
    """The result ``fiftysix check`` prints for a deal record."""
    try:
        deal = read_deal(data)
    except RecordError as e:
        return invalid(e)
    return {"valid": True, **deal.result()}


def invalid(e: RecordError) -> dict[str, object]:
    return {"valid": False, "index": e.index, "field": e.field, "error": e.message}


def check_match(data: Mapping[str, object]) -> dict[str, object]:
    """The result ``fiftysix check`` prints for a match record."""
    try:
        game = _game(data)
        rules = _rules(game, data)
        deals = data.get("deals")
        if not isinstance(deals, list):
            raise RecordError("deals", None, "deals must be a list of deal records")
    except RecordError as e:
        return invalid(e)
    first = deals[0].get("dealer") if deals and isinstance(deals[0], Mapping) else None
    first_dealer = first if isinstance(first, int) and not isinstance(first, bool) and 0 <= first < rules.players else 0
    match = game.new_match(rules, first_dealer=first_dealer)
    results: list[dict[str, object]] = []
    for i, record in enumerate(deals):
        if match.over:
            return _match_error(i, Meaning("the match is over: {reason} in deal {n}",
                                           {"reason": _param_text(match.end_reason), "n": i - 1}), None, None)
        if i > 0 and not results[-1].get("complete"):
            # the unfinished deal is the bad entry, not the one after it
            return _match_error(i - 1, Meaning("this deal is unfinished but another deal follows"), None, None)
        try:
            deal = read_deal(record, match)
        except RecordError as e:
            return _match_error(i, e.message, e.field, e.index)
        if deal.is_over:
            results.append({"valid": True, **match.finish(deal)})
        else:
            results.append({"valid": True, **deal.result()})
    return {"valid": True, "deals": results, "standings": list(match.standings), "winner": match.winner}


def _match_error(i: int, message: str, field: str | None, index: int | None) -> dict[str, object]:
    return {"valid": False, "index": i, "field": "deals", "error": Meaning("deal {i}: {why}",
                                                                          {"i": i, "why": _param_text(message)}),
            "deal_field": field, "deal_index": index}


def check(data: object) -> dict[str, object]:
    """Check a deal or match record given as parsed JSON."""
    if isinstance(data, Mapping) and "deals" in data:
        return check_match(data)
    return check_deal(data)


def check_text(text: str) -> dict[str, object]:
    """Check a record given as JSON text (malformed JSON is an invalid record, not an exception)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        return {"valid": False, "index": None, "field": None, "error": f"malformed JSON: {e}"}
    return check(data)


def deal_record(deal: Deal) -> dict[str, object]:
    """The record of a deal as it stands (complete or in progress)."""
    game = GAMES[deal.game]
    calls = [str(m) for _, m in deal.history if isinstance(m, Call)]
    record: dict[str, object] = {
        "game": deal.game,
        "rules": game.rules_to_json(deal.rules),
        "dealer": deal.dealer,
        "hands": [cards_text(h) for h in deal.dealt],
    }
    extra = game.record_extra(deal)
    record["auction"] = calls
    record.update(extra)
    record["play"] = deal.play_texts()
    return record


def match_record(game: str, rules: Rules, deals: Sequence[Mapping[str, object]]) -> dict[str, object]:
    """A match record (records.md): the match's rules and its deal records in the order played."""
    return {"game": game, "rules": GAMES[game].rules_to_json(rules), "deals": [dict(d) for d in deals]}
