"""Text rendering shared by ``replay`` and ``play``: cards with suit symbols, hands by suit, the auction
with each call's public meaning, tricks, contracts and results.

Everything here works from JSON-ready data (views, check results, record fields), never from a rules
object, so it draws 56 and 55 alike.  Cards are shown with suit symbols for people (``J♠``, ``10♥``);
``symbols=False`` falls back to the canonical notation for terminals that cannot show them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from ..core.cards import SUITS, Card, Suit
from ..core.errors import NotationError

SUIT_LETTERS = "SHDC"
MULTIPLIER_WORDS = {1: "", 2: ", doubled", 4: ", redoubled"}


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


def hand_by_suit(cards: Sequence[str], symbols: bool = True) -> str:
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
    return "   ".join(parts) if parts else "(no cards)"


def strain_words(strain: object) -> str:
    """``"H"`` → ``hearts``, ``"NT"`` → ``no-trumps``; ``None`` → ``none``."""
    if strain is None:
        return "none"
    if isinstance(strain, str):
        t = strain.upper()
        if t == "NT":
            return "no-trumps"
        if len(t) == 1 and t in SUIT_LETTERS:
            return Suit(SUIT_LETTERS.index(t)).word
    return str(strain)


def seat_name(seat: int, you: int | None = None, team_of: Sequence[int] | None = None,
              side_word: str = "team") -> str:
    """``seat 3`` or ``seat 3 (you)``; with teams ``seat 3 (team 1)``."""
    text = f"seat {seat}"
    extras = []
    if you is not None and seat == you:
        extras.append("you")
    if team_of is not None and seat < len(team_of) and len(set(team_of)) < len(team_of):
        extras.append(f"{side_word} {team_of[seat]}")
    return text + (f" ({', '.join(extras)})" if extras else "")


def move_text(text: str, *, card_move: bool, symbols: bool = True) -> str:
    """A move for people: cards with symbols (in the play), ``?`` spelt out."""
    if text == "?":
        return "reveal (ask for the trump to be turned up)"
    if card_move:
        return card_text(text, symbols)
    return text


def auction_lines(calls: Sequence[str], meanings: Sequence[str], seats: Sequence[int] | None,
                  you: int | None = None, indent: str = "  ") -> list[str]:
    """One line per call: who, the call as written, and its public meaning."""
    if not calls:
        return [f"{indent}(no calls yet)"]
    width = max(len(c) for c in calls)
    out = []
    for i, call in enumerate(calls):
        who = seat_name(seats[i], you) if seats is not None and i < len(seats) else f"call {i + 1}"
        meaning = meanings[i] if i < len(meanings) else ""
        out.append(f"{indent}{who + ':':<16} {call:<{width}}  {meaning}".rstrip())
    return out


def contract_text(contract: Mapping[str, Any] | None, side_word: str = "team") -> str:
    """``31 no-trumps by seat 4 (team 0), doubled`` for either game's contract object."""
    if contract is None:
        return "none"
    who = contract.get("declarer", contract.get("bidder"))
    strain = contract.get("strain", contract.get("trump"))
    parts = [str(contract.get("value"))]
    if strain is not None or "strain" in contract:
        parts.append(strain_words(strain))
    text = " ".join(parts)
    if who is not None:
        text += f" by seat {who}"
        if contract.get("team") is not None:
            text += f" ({side_word} {contract['team']})"
    mult = contract.get("multiplier")
    if isinstance(mult, int):
        text += MULTIPLIER_WORDS.get(mult, f", ×{mult}")
    return text


def trick_text(trick: Mapping[str, Any], players: int, symbols: bool = True, you: int | None = None,
               notes: Mapping[int, str] | None = None) -> str:
    """``seat 4 led: 4 J♣  5 10♣  0 9♠ …`` plus ``→ seat 4 wins 6 points`` for a completed trick.

    :param notes: remarks to put before the card at that position (a hidden trump asked for).
    """
    leader = int(trick["leader"])
    cards = list(trick.get("cards") or [])
    shown = []
    for i, c in enumerate(cards):
        seat = (leader + i) % players
        mark = "*" if you is not None and seat == you else ""
        note = f"[{notes[i]}] " if notes and i in notes else ""
        shown.append(f"{note}{seat}{mark}:{card_text(c, symbols)}")
    text = f"seat {leader} led  " + "  ".join(shown) if shown else f"seat {leader} to lead"
    if "winner" in trick and trick.get("winner") is not None:
        arrow = "→" if symbols else "->"
        text += f"  {arrow} seat {trick['winner']} wins {trick.get('points', 0)} points"
    return text


def per_side(values: Sequence[Any], side_word: str = "team", signed: bool = False) -> str:
    """``team 0: 20, team 1: 36``."""
    out = []
    for i, v in enumerate(values):
        shown = f"{v:+d}" if signed and isinstance(v, int) else str(v)
        out.append(f"{side_word} {i}: {shown}")
    return ", ".join(out)


def result_lines(result: Mapping[str, Any], side_word: str = "team") -> list[str]:
    """The end of a deal: card points, made or failed, and the score change."""
    out = []
    contract = result.get("contract")
    out.append(f"Points: {per_side(result.get('points') or [], side_word)}")
    ht = result.get("highest_trump")
    if isinstance(ht, Mapping):
        out.append(f"Highest trump: {card_text(str(ht.get('card')))} by seat {ht.get('seat')}")
    made = result.get("made")
    if contract is not None and made is not None:
        team = contract.get("team")
        verdict = "made" if made else "failed"
        out.append(f"Contract {contract_text(contract, side_word)}: {verdict} "
                   f"({side_word} {team} needed {contract.get('value')})")
    elif contract is None and result.get("complete"):
        out.append("No contract: the deal was thrown in.")
    score = result.get("score")
    if score is not None:
        out.append(f"Score: {per_side(score, side_word, signed=True)}")
    if not result.get("complete", True):
        out.append("(the record stops here: the deal is not finished)")
    return out


# ---- a seat's view, for the terminal player ---------------------------------------------------------

PHASE_PROMPTS = {"auction": "your call", "trump": "choose trumps", "play": "play a card",
                 "discard": "discard"}


def scores_word(rules: Mapping[str, Any]) -> str:
    return "tables" if rules.get("scoring") == "tables" else "points"


def legal_lines(legal: Sequence[str], phase: str | None, symbols: bool = True, width: int = 96,
                indent: str = "  ") -> list[str]:
    """All legal moves, wrapped to ``width``; cards with symbols in the play."""
    shown = [move_text(m, card_move=phase == "play", symbols=symbols) for m in legal]
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
    return lines or [indent + "(none)"]


def legal_summary(legal: Sequence[str], phase: str | None, symbols: bool = True, limit: int = 16) -> str:
    """A short list of legal moves: all of them, or the first few and how many more."""
    shown = [move_text(m, card_move=phase == "play", symbols=symbols) for m in legal]
    if len(shown) <= limit:
        return ", ".join(shown)
    return ", ".join(shown[:limit]) + f", ... ({len(shown) - limit} more; type 'legal' to see all)"


def view_lines(v: Mapping[str, Any], call_seats: Sequence[int] | None = None, symbols: bool = True,
               side_word: str = "team", full_auction: bool | None = None) -> list[str]:
    """What a seat sees, drawn from its view alone: the table state, the hand sorted by suit, the auction
    with meanings, the contract and trumps, the current and last trick, card points and the match score.

    :param call_seats: who made each call (public; the host knows it).  Without it calls are assumed to
        go round in seat order from first hand.
    :param full_auction: list every call with its meaning (default: while the auction is on).
    """
    rules: Mapping[str, Any] = v.get("rules") or {}
    n = len(v.get("hand_sizes") or []) or int(rules.get("players", 0) or 0)
    seat = v.get("seat")
    team_of = rules.get("team_of")
    phase = v.get("phase")
    out: list[str] = []
    head = []
    match = v.get("match")
    if isinstance(match, Mapping):
        head.append(f"Deal {match.get('deal_number')}")
    preset = rules.get("preset")
    if preset:
        head.append(str(preset))
    if seat is not None:
        head.append(f"you are {seat_name(seat, None, team_of, side_word)}")
    head.append(f"dealer seat {v.get('dealer')}")
    out.append(" | ".join(head))
    if isinstance(match, Mapping) and match.get("scores") is not None:
        out.append(f"Match {scores_word(rules)}: {per_side(match['scores'], side_word)}")

    calls = list(v.get("auction") or [])
    meanings = list(v.get("auction_meanings") or [])
    if call_seats is None and n:
        first = (int(v.get("dealer") or 0) + 1) % n
        call_seats = [(first + i) % n for i in range(len(calls))]
    if full_auction is None:
        full_auction = phase == "auction"
    if full_auction:
        out.append("Auction:")
        out += auction_lines(calls, meanings, call_seats, you=seat, indent="  ")
    else:
        out.append("Auction: " + (" ".join(calls) if calls else "(none)") + "   (type 'auction' for meanings)")

    contract = v.get("contract")
    if contract is not None:
        out.append(f"Contract: {contract_text(contract, side_word)}")
        if v.get("trump_hidden"):
            known = v.get("trump")
            out.append("Trumps: hidden" + (f" (you chose {strain_words(known)})" if known else
                                          "; a player who cannot follow may ask for them (type reveal)"))
        elif "trump" in v and phase != "trump":
            out.append(f"Trumps: {strain_words(v.get('trump'))}")
    tricks = list(v.get("tricks") or [])
    if tricks:
        out.append(f"Last trick ({len(tricks)}): {trick_text(tricks[-1], n, symbols, you=seat)}")
    trick = v.get("trick")
    if isinstance(trick, Mapping) and phase == "play":
        out.append(f"This trick: {trick_text(trick, n, symbols, you=seat)}")
    if contract is not None or tricks:
        out.append(f"Points so far: {per_side(v.get('points') or [], side_word)}")
    hand = v.get("hand")
    if hand is not None:
        out.append(f"Your hand: {hand_by_suit(hand, symbols)}")
    to_move = v.get("to_move")
    if to_move is not None and to_move == seat:
        what = PHASE_PROMPTS.get(str(phase), "your move")
        out.append(f"Your turn ({what}); legal: {legal_summary(v.get('legal') or [], phase, symbols)}")
    elif to_move is not None:
        out.append(f"Seat {to_move} to move.")
    return out
