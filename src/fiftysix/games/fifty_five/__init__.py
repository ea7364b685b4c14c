"""The game 55 (Fifty-five): rules options, auction, kitty and discard, play, scoring and match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...core.cards import CARDS, Card, cards_text
from ...core.deal import AUCTION, DISCARD, Deal
from ...core.errors import IllegalMoveError, NotationError, RecordError
from ...core.meaning import N_, Meaning, Plural, words_of
from ...core.moves import Call, Discard, Move, TrumpChoice
from ...core.options import Rules
from ..forward import SpecBase, Vocabulary
from ..spec import GameSpec, JSONObject, LegalMove, MatchLike, Observation, PlayRule, PlayState
from . import play, vocabulary
from .auction import Auction55, Contract, parse_call
from .deal import TRUMP_CHOICES, Deal55, deck_bits, parse_cards, parse_discard, parse_trump, sort_cards
from .match import Match55
from .observation import Observation55, observation, observe, rules_of
from .play import IS_TRUMP, KEY
from .rules import (
    CHOICES,
    DEFAULT_PRESET,
    KITTY_SIZE,
    OPTION_DESCRIPTIONS,
    PRESET_DESCRIPTIONS,
    PRESETS,
    RANKS,
    Rules55,
)
from .sampler import Sampler55


class FiftyFive(SpecBase[Rules55, Deal55, Observation55]):
    """The :class:`~fiftysix.games.spec.GameSpec` of 55."""

    name = "55"
    ranks = RANKS
    copies = play.COPIES
    side_word = "side"
    default_preset = DEFAULT_PRESET
    play: PlayRule = play
    choices: Mapping[str, tuple[object, ...]] = CHOICES
    preset_descriptions: Mapping[str, str] = PRESET_DESCRIPTIONS
    option_descriptions: Mapping[str, Mapping[str, str]] = OPTION_DESCRIPTIONS
    rules_type = Rules55
    deal_type = Deal55
    observation_type = Observation55
    vocabulary: Vocabulary[Rules55] = vocabulary
    preset_table: Mapping[str, Mapping[str, object]] = PRESETS

    def rules_from_json(self, data: object) -> Rules55:
        return Rules55.from_json(data)

    def deck(self, rules: Rules) -> list[Card]:
        return list(CARDS)

    def new_deal(self, rules: Rules, seed: int | None = None, dealer: int | None = None) -> Deal55:
        return Deal55.from_seed(self._rules(rules), seed, dealer)

    def new_match(self, rules: Rules, first_dealer: int | None = None, seed: int | None = None) -> Match55:
        return Match55(self._rules(rules), first_dealer, seed)

    def read_setup(self, record: JSONObject, rules: Rules, dealer: int,
                   hands: list[list[Card]], match: MatchLike | None) -> Deal55:
        """Check the ``kitty`` field (5 real cards, none in a hand) and build the deal.

        :raises RecordError: for a missing, malformed or clashing kitty.
        """
        return Deal55(self._rules(rules), dealer, hands, read_kitty(record.get("kitty"), hands))

    def check_trump_field(self, record: JSONObject, rules: Rules) -> None:
        trump = record.get("trump")
        if trump is not None:
            _trump(trump)

    def replay_extra(self, record: JSONObject, deal: Deal) -> None:
        """Apply the record's ``discard`` and then its ``trump``.

        :raises RecordError: for a discard or trump the deal does not allow now.
        """
        deal = self._deal(deal)
        discard, trump = record.get("discard"), record.get("trump")
        if discard is not None:
            if deal.phase == AUCTION:
                raise RecordError("discard", None, Meaning("no discard before the auction has ended"))
            if deal.thrown_in:
                raise RecordError("discard", None, Meaning(
                    "the deal was thrown in (nobody bid): there is no kitty to take and nothing to discard"))
            try:
                cards = parse_discard(discard)
            except NotationError as e:
                raise RecordError("discard", None, words_of(e)) from None
            why = deal.discard_error(cards)
            if why is not None:
                raise RecordError("discard", None, why)
            deal.push_unchecked(Discard(tuple(deal.sort_hand(cards))))
        if trump is not None:
            if deal.phase == AUCTION:
                raise RecordError("trump", None, Meaning("no trump choice before the auction has ended"))
            if deal.thrown_in:
                raise RecordError("trump", None, Meaning("the deal was thrown in (nobody bid): nobody names trumps"))
            if deal.phase == DISCARD:
                raise RecordError("trump", None, Meaning(
                    "the bidder names trumps after discarding; there is no discard yet"))
            deal.push_unchecked(_trump(trump))

    def record_extra(self, deal: Deal) -> dict[str, object]:
        deal = self._deal(deal)
        return {
            "kitty": cards_text(deal.kitty),
            "discard": cards_text(deal.discard) if deal.discard is not None else None,
            "trump": deal.trump.letter if deal.trump is not None else None,
        }

    def legal_move(self, move: Move) -> LegalMove:
        return legal_move(move)

    def observation(self, deal: Deal, seat: int | None, match: MatchLike | None = None) -> Observation55:
        return observation(self._deal(deal), seat, match)

    def describe_call(self, deal: Deal, index: int) -> str:
        return self._deal(deal).auction.meanings[index]

    def observe(self, view: JSONObject) -> Observation55:
        return observe(view)

    def sampler(self, observation: Observation, *, use_bids: bool = True, infer: bool = True,
                tries: int = 300) -> Sampler55:
        return Sampler55(self._observation(observation), use_bids=use_bids, infer=infer, tries=tries)

    def play_state(self, deal: Deal) -> PlayState:
        deal = self._deal(deal)
        return PlayState(tuple(tuple(h) for h in deal.hands), tuple(deal.trick_cards), deal.trick_leader,
                         deal.trump, tuple(deal.rules.side_of), tuple(deal.points),
                         bonus_team=highest_trump_side(deal))

    def winning_form(self, auction: Sequence[str], rules: Rules) -> str | None:
        return None     # 55's bids are values alone: no written forms

    def kitty_size(self, rules: Rules) -> int:
        return KITTY_SIZE


def legal_move(m: Move) -> LegalMove:
    """One legal move of 55 for the browser."""
    if isinstance(m, Card):
        return LegalMove(str(m), "card", m.suit.letter, m.pretty)
    if isinstance(m, Call):
        return LegalMove(m.text, m.kind, None, m.text)
    if isinstance(m, TrumpChoice) and m.strain is not None:
        return LegalMove(str(m), "trump", m.strain.letter, f"{m.strain.symbol} {m.strain.word}")
    if isinstance(m, Discard):
        return LegalMove(str(m), "discard", None, " ".join(c.pretty for c in m.cards))
    raise TypeError(f"not a move of 55: {m!r}")


def highest_trump_side(deal: Deal55) -> int | None:
    """The side that will score the bonus for the deal's highest trump: of the trumps played in completed
    tricks, in the current trick and still in hands (all of which will be played), the highest one's
    player or holder.  ``None`` if no trump is played in the whole deal."""
    trump = deal.trump
    assert trump is not None
    key, is_trump = KEY[trump], IS_TRUMP[trump]
    best: tuple[int, int] | None = None
    if deal.highest is not None:
        seat, card, _ = deal.highest
        best = (key[card], seat)
    n = deal.n
    held = [((deal.trick_leader + i) % n, c) for i, c in enumerate(deal.trick_cards)]
    held += [(seat, c) for seat, hand in enumerate(deal.hands) for c in hand]
    for seat, c in held:
        if is_trump[c] and (best is None or key[c] > best[0]):
            best = (key[c], seat)
    return None if best is None else deal.rules.side_of[best[1]]


def read_kitty(value: object, hands: list[list[Card]]) -> list[Card]:
    """Check a record's ``kitty``: five cards of the pack, none of them in a hand.

    :raises RecordError: naming what is wrong.
    """
    try:
        kitty = parse_cards(value, (list,), Meaning("kitty must be a string of {n} cards", {"n": KITTY_SIZE}),
                            N_("malformed card {card} in the kitty"))
    except NotationError as e:
        raise RecordError("kitty", None, words_of(e)) from None
    if len(kitty) != KITTY_SIZE:
        raise RecordError("kitty", None, Plural("the kitty has {n} card; it must have {size}",
                                                "the kitty has {n} cards; it must have {size}",
                                                len(kitty), {"size": KITTY_SIZE}))
    holder = {c: seat for seat, hand in enumerate(hands) for c in hand}
    seen: set[Card] = set()
    for c in kitty:
        if c in seen:
            raise RecordError("kitty", None, Meaning("{card} is in the kitty twice; the pack holds each card once",
                                                     {"card": str(c)}))
        seen.add(c)
        if c in holder:
            raise RecordError("kitty", None, Meaning("{card} is in the kitty and in the hand of seat {seat}",
                                                     {"card": str(c), "seat": holder[c]}))
    return kitty


def _trump(value: object) -> TrumpChoice:
    try:
        return parse_trump(value)
    except NotationError as e:
        raise RecordError("trump", None, words_of(e)) from None


GAME = FiftyFive()
_SPEC: GameSpec = GAME  # mypy checks that 55 fits the protocol every generic module relies on

__all__ = ["GAME", "PRESETS", "TRUMP_CHOICES", "Auction55", "Contract", "Deal55", "IllegalMoveError", "Match55",
           "Observation55", "Rules55", "Sampler55", "deck_bits", "parse_call", "play", "rules_of", "sort_cards"]
