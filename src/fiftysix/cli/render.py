"""Text rendering shared by ``replay`` and ``play``: cards with suit symbols, hands by suit, the auction
with each call's public meaning, tricks, contracts and results.

Everything here works from JSON-ready data (views, check results, record fields), never from a rules
object, so it draws 56 and 55 alike.  Cards are shown with suit symbols for people (``J♠``, ``10♥``);
``symbols=False`` falls back to the canonical notation for terminals that cannot show them.

Every word is a message of the catalogue: ``lang`` (default English) puts it into the player's language
(``fiftysix play --lang ml``); card notation, calls, names and numbers stay as players write them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TextIO

from ..core.cards import SUITS, Card, Suit
from ..core.errors import NotationError
from ..core.meaning import N_, Meaning
from ..i18n import DEFAULT, indian, ntr, tr, translate
from ..views import SeatView

SUIT_LETTERS = "SHDC"


def can_show_symbols(stream: TextIO | None) -> bool:
    """Whether ``stream`` can print the suit symbols (a UTF-8 terminal or a test buffer)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        "♠♥♦♣→·".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def card_text(text: str, symbols: bool = True) -> str:
    """A card for people: ``JS`` → ``J♠``, ``TH`` → ``10♥``; anything that is not a card is unchanged."""
    if not symbols:
        return text
    try:
        return Card.parse(text).pretty
    except NotationError:
        return text


def cards_line(cards: Sequence[str], symbols: bool = True) -> str:
    return " ".join(card_text(c, symbols) for c in cards)


def _rank_text(card: Card, symbols: bool) -> str:
    r = card.rank_char
    return "10" if (r == "T" and symbols) else r


def hand_by_suit(cards: Sequence[str], symbols: bool = True, lang: str = "en") -> str:
    """A hand grouped by suit, in the order the hand is given: ``♠ J 9 A  ♥ 10 K  ♦ —  ♣ Q``.

    Suits the hand does not hold are left out; an empty hand is ``(no cards)``.
    """
    groups: dict[Suit, list[str]] = {}
    others: list[str] = []
    for text in cards:
        try:
            c = Card.parse(text)
        except NotationError:
            others.append(text)
            continue
        groups.setdefault(c.suit, []).append(_rank_text(c, symbols))
    parts = []
    for suit in SUITS:
        if suit in groups:
            mark = suit.symbol if symbols else suit.letter
            parts.append(f"{mark} {' '.join(groups[suit])}")
    parts.extend(others)
    return "   ".join(parts) if parts else tr(lang, "(no cards)")


def strain_words(strain: object, lang: str = "en") -> str:
    """``"H"`` → ``hearts``, ``"NT"`` → ``no-trumps``; ``None`` → ``none``."""
    if strain is None:
        return tr(lang, "none")
    if isinstance(strain, str):
        t = strain.upper()
        if t == "NT":
            return tr(lang, "no-trumps")
        if len(t) == 1 and t in SUIT_LETTERS:
            return translate(Meaning(Suit(SUIT_LETTERS.index(t)).word), lang)
    return str(strain)


def side_name(side_word: str, number: object, lang: str = "en") -> str:
    """``team 1`` (56) or ``side 1`` (55)."""
    return (tr(lang, "side {side}", side=number) if side_word == "side" else
            tr(lang, "team {team}", team=number))


def seat_name(seat: int, you: int | None = None, team_of: Sequence[int] | None = None,
              side_word: str = "team", lang: str = "en") -> str:
    """``seat 3`` or ``seat 3 (you)``; with teams ``seat 3 (team 1)``."""
    mine = you is not None and seat == you
    if team_of is not None and seat < len(team_of) and len(set(team_of)) < len(team_of):
        side = side_name(side_word, team_of[seat], lang)
        return (tr(lang, "seat {seat} (you, {side})", seat=seat, side=side) if mine else
                tr(lang, "seat {seat} ({side})", seat=seat, side=side))
    return tr(lang, "seat {seat} (you)", seat=seat) if mine else tr(lang, "seat {seat}", seat=seat)


def move_text(text: str, *, card_move: bool, symbols: bool = True, lang: str = "en") -> str:
    """A move for people: cards with symbols (in the play), ``?`` spelt out."""
    if text == "?":
        return tr(lang, "reveal (ask for the trump to be turned up)")
    if card_move:
        return card_text(text, symbols)
    return text


def auction_lines(calls: Sequence[str], meanings: Sequence[str], seats: Sequence[int] | None,
                  you: int | None = None, indent: str = "  ", lang: str = "en") -> list[str]:
    """One line per call: who, the call as written, and its public meaning."""
    if not calls:
        return [indent + tr(lang, "(no calls yet)")]
    width = max(len(c) for c in calls)
    out = []
    for i, call in enumerate(calls):
        who = (seat_name(seats[i], you, lang=lang) if seats is not None and i < len(seats) else
               tr(lang, "call {n}", n=i + 1))
        meaning = meanings[i] if i < len(meanings) else ""
        out.append(f"{indent}{who + ':':<16} {call:<{width}}  {meaning}".rstrip())
    return out


def as_int(value: object) -> int:
    """A number field of a checked record, result or view (0 where it is absent)."""
    return value if isinstance(value, int) else 0


def as_list(value: object) -> list[object]:
    """A list field of a checked record, result or view (``[]`` where it is absent)."""
    return list(value) if isinstance(value, list) else []


def as_mapping(value: object) -> Mapping[str, object] | None:
    """An object field of a checked record, result or view (``None`` where it is absent)."""
    return value if isinstance(value, Mapping) else None


def contract_text(contract: Mapping[str, object] | None, side_word: str = "team", lang: str = "en") -> str:
    """``31 no-trumps by seat 4 (team 0), doubled`` for either game's contract object."""
    if contract is None:
        return tr(lang, "none")
    who = contract.get("declarer", contract.get("bidder"))
    strain = contract.get("strain", contract.get("trump"))
    text = str(contract.get("value"))
    if strain is not None or "strain" in contract:
        text = tr(lang, "{value} {strain}", value=text, strain=strain_words(strain, lang))
    if who is not None:
        if contract.get("team") is not None:
            text = tr(lang, "{contract} by seat {seat} ({side})", contract=text, seat=who,
                      side=side_name(side_word, contract["team"], lang))
        else:
            text = tr(lang, "{contract} by seat {seat}", contract=text, seat=who)
    mult = contract.get("multiplier")
    if mult == 2:
        text = tr(lang, "{contract}, doubled", contract=text)
    elif mult == 4:
        text = tr(lang, "{contract}, redoubled", contract=text)
    elif isinstance(mult, int) and mult != 1:
        text = f"{text}, ×{mult}"
    return text


def trick_text(trick: Mapping[str, object], players: int, symbols: bool = True, you: int | None = None,
               notes: Mapping[int, str] | None = None, lang: str = "en") -> str:
    """``seat 4 led: 4 J♣  5 10♣  0 9♠ …`` plus ``→ seat 4 wins 6 points`` for a completed trick.

    :param notes: remarks to put before the card at that position (a hidden trump asked for).
    """
    leader = as_int(trick["leader"])
    cards = [str(c) for c in as_list(trick.get("cards"))]
    shown = []
    for i, c in enumerate(cards):
        seat = (leader + i) % players
        mark = "*" if you is not None and seat == you else ""
        note = f"[{notes[i]}] " if notes and i in notes else ""
        shown.append(f"{note}{seat}{mark}:{card_text(c, symbols)}")
    text = (tr(lang, "seat {seat} led  {cards}", seat=leader, cards="  ".join(shown)) if shown else
            tr(lang, "seat {seat} to lead", seat=leader))
    if "winner" in trick and trick.get("winner") is not None:
        arrow = "→" if symbols else "->"
        points = as_int(trick.get("points"))
        text += f"  {arrow} " + ntr(lang, "seat {seat} wins {n} point", "seat {seat} wins {n} points", points,
                                    seat=trick["winner"])
    return text


def per_side(values: Sequence[object], side_word: str = "team", signed: bool = False, lang: str = "en") -> str:
    """``team 0: 20, team 1: 36``."""
    out = []
    for i, v in enumerate(values):
        shown = str(v)
        if isinstance(v, int) and not isinstance(v, bool):
            shown = str(v) if lang == DEFAULT else indian(v)     # Indian digit grouping: 1,23,456
            shown = "+" + shown if signed and v >= 0 else shown
        out.append(f"{side_name(side_word, i, lang)}: {shown}")
    return ", ".join(out)


def result_lines(result: Mapping[str, object], side_word: str = "team", lang: str = "en") -> list[str]:
    """The end of a deal: card points, made or failed, and the score change."""
    out = []
    contract = as_mapping(result.get("contract"))
    out.append(tr(lang, "Points: {points}", points=per_side(as_list(result.get("points")), side_word, lang=lang)))
    ht = result.get("highest_trump")
    if isinstance(ht, Mapping):
        out.append(tr(lang, "Highest trump: {card} by seat {seat}", card=card_text(str(ht.get("card"))),
                      seat=ht.get("seat")))
    made = result.get("made")
    if contract is not None and made is not None:
        facts = {"contract": contract_text(contract, side_word, lang),
                 "side": side_name(side_word, contract.get("team"), lang), "value": contract.get("value")}
        out.append(tr(lang, "Contract {contract}: made ({side} needed {value})", **facts) if made else
                   tr(lang, "Contract {contract}: failed ({side} needed {value})", **facts))
    elif contract is None and result.get("complete"):
        out.append(tr(lang, "No contract: the deal was thrown in."))
    score = result.get("score")
    if isinstance(score, list):
        out.append(tr(lang, "Score: {score}", score=per_side(score, side_word, signed=True, lang=lang)))
    if not result.get("complete", True):
        out.append(tr(lang, "(the record stops here: the deal is not finished)"))
    return out


# ---- a seat's view, for the terminal player ---------------------------------------------------------

PHASE_PROMPTS = {"auction": N_("your call"), "trump": N_("choose trumps"), "play": N_("play a card"),
                 "discard": N_("discard")}


def phase_prompt(phase: object, lang: str = "en") -> str:
    """What the seat to move is asked for: ``your call``, ``play a card``..."""
    return translate(PHASE_PROMPTS.get(str(phase), N_("your move")), lang)


def scores_word(rules: Mapping[str, object]) -> str:
    return "tables" if rules.get("scoring") == "tables" else "points"


def match_line(rules: Mapping[str, object], scores: Sequence[object], side_word: str = "team", lang: str = "en") -> str:
    """``Match tables: team 0: 12, team 1: 12`` (or ``Match points:`` for a points match)."""
    shown = per_side(scores, side_word, lang=lang)
    return (tr(lang, "Match tables: {scores}", scores=shown) if scores_word(rules) == "tables" else
            tr(lang, "Match points: {scores}", scores=shown))


def legal_lines(legal: Sequence[str], phase: str | None, symbols: bool = True, width: int = 96,
                indent: str = "  ", lang: str = "en") -> list[str]:
    """All legal moves, wrapped to ``width``; cards with symbols in the play."""
    shown = [move_text(m, card_move=phase == "play", symbols=symbols, lang=lang) for m in legal]
    lines: list[str] = []
    line = ""
    for item in shown:
        if line and len(line) + 1 + len(item) > width:
            lines.append(indent + line)
            line = item
        else:
            line = f"{line} {item}" if line else item
    if line:
        lines.append(indent + line)
    return lines or [indent + tr(lang, "(none)")]


def legal_summary(legal: Sequence[str], phase: str | None, symbols: bool = True, limit: int = 16,
                  lang: str = "en") -> str:
    """A short list of legal moves: all of them, or the first few and how many more."""
    shown = [move_text(m, card_move=phase == "play", symbols=symbols, lang=lang) for m in legal]
    if len(shown) <= limit:
        return ", ".join(shown)
    return ", ".join(shown[:limit]) + ", ... " + ntr(lang, "({n} more; type 'legal' to see all)",
                                                     "({n} more; type 'legal' to see all)", len(shown) - limit)


def view_lines(v: SeatView, call_seats: Sequence[int] | None = None, symbols: bool = True,
               side_word: str = "team", full_auction: bool | None = None, lang: str = "en") -> list[str]:
    """What a seat sees, drawn from its view alone: the table state, the hand sorted by suit, the auction
    with meanings, the contract and trumps, the current and last trick, card points and the match score.

    :param call_seats: who made each call (public; the host knows it).  Without it calls are assumed to
        go round in seat order from first hand.
    :param full_auction: list every call with its meaning (default: while the auction is on).
    """
    rules = as_mapping(v.get("rules")) or {}
    n = len(v.get("hand_sizes") or []) or as_int(rules.get("players"))
    seat = v.get("seat")
    phase = v.get("phase")
    out = _head_lines(v, rules, side_word, lang)
    if full_auction is None:
        full_auction = phase == "auction"
    out += _auction_view_lines(v, n, call_seats, full_auction, lang)
    out += _contract_view_lines(v, side_word, lang)
    tricks = list(v.get("tricks") or [])
    if tricks:
        out.append(tr(lang, "Last trick ({n}): {trick}", n=len(tricks),
                      trick=trick_text(tricks[-1], n, symbols, you=seat, lang=lang)))
    trick = v.get("trick")
    if isinstance(trick, Mapping) and phase == "play":
        out.append(tr(lang, "This trick: {trick}", trick=trick_text(trick, n, symbols, you=seat, lang=lang)))
    if v.get("contract") is not None or tricks:
        out.append(tr(lang, "Points so far: {points}", points=per_side(v.get("points") or [], side_word, lang=lang)))
    hand = v.get("hand")
    if hand is not None:
        out.append(tr(lang, "Your hand: {hand}", hand=hand_by_suit(hand, symbols, lang)))
    out += _turn_lines(v, symbols, lang)
    return out


def _head_lines(v: SeatView, rules: Mapping[str, object], side_word: str, lang: str) -> list[str]:
    """The deal's number, the preset, who you are and the dealer on one line; the match score below."""
    seat = v.get("seat")
    head = []
    match = v.get("match")
    if isinstance(match, Mapping):
        head.append(tr(lang, "Deal {n}", n=match.get("deal_number")))
    preset = rules.get("preset")
    if preset:
        head.append(str(preset))
    if seat is not None:
        team_of = rules.get("team_of")
        team_of = [as_int(t) for t in team_of] if isinstance(team_of, list) else None
        head.append(tr(lang, "you are {seat}", seat=seat_name(seat, None, team_of, side_word, lang)))
    head.append(tr(lang, "dealer seat {seat}", seat=v.get("dealer")))
    out = [" | ".join(head)]
    if isinstance(match, Mapping) and match.get("scores") is not None:
        out.append(match_line(rules, as_list(match["scores"]), side_word, lang))
    return out


def _auction_view_lines(v: SeatView, n: int, call_seats: Sequence[int] | None, full_auction: bool,
                        lang: str) -> list[str]:
    """Every call with its meaning and seat, or the calls on one line."""
    calls = list(v.get("auction") or [])
    if not full_auction:
        return [tr(lang, "Auction: {calls}   (type 'auction' for meanings)",
                   calls=" ".join(calls) if calls else tr(lang, "(none)"))]
    if call_seats is None and n:
        first = (int(v.get("dealer") or 0) + 1) % n
        call_seats = [(first + i) % n for i in range(len(calls))]
    meanings = list(v.get("auction_meanings") or [])
    return [tr(lang, "Auction:"),
            *auction_lines(calls, meanings, call_seats, you=v.get("seat"), indent="  ", lang=lang)]


def _contract_view_lines(v: SeatView, side_word: str, lang: str) -> list[str]:
    """The contract and the trumps as this seat knows them."""
    contract = v.get("contract")
    if contract is None:
        return []
    out = [tr(lang, "Contract: {contract}", contract=contract_text(contract, side_word, lang))]
    if v.get("trump_hidden"):
        known = v.get("trump")
        out.append(tr(lang, "Trumps: hidden (you chose {strain})", strain=strain_words(known, lang)) if known else
                   tr(lang, "Trumps: hidden; a player who cannot follow may ask for them (type reveal)"))
    elif "trump" in v and v.get("phase") != "trump":
        out.append(tr(lang, "Trumps: {strain}", strain=strain_words(v.get("trump"), lang)))
    return out


def _turn_lines(v: SeatView, symbols: bool, lang: str) -> list[str]:
    """Whose move it is: yours with the legal moves, or another seat's."""
    to_move = v.get("to_move")
    if to_move is None:
        return []
    if to_move == v.get("seat"):
        phase = v.get("phase")
        return [tr(lang, "Your turn ({what}); legal: {legal}", what=phase_prompt(phase, lang),
                   legal=legal_summary(v.get("legal") or [], phase, symbols, lang=lang))]
    return [tr(lang, "Seat {seat} to move.", seat=to_move)]
