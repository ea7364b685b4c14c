"""The game 56 (Fifty-six): rules options, auction, play, scoring and match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...core.cards import Card, Suit
from ...core.deal import AUCTION, TRUMP, Deal
from ...core.errors import IllegalMoveError, NotationError, RecordError
from ...core.meaning import Meaning
from ...core.moves import Call, Claim, Discard, Move, Reveal, TrumpChoice
from ...core.options import Rules
from ..forward import SpecBase, Vocabulary
from ..spec import GameSpec, JSONObject, LegalMove, MatchLike, Observation, PlayRule, PlayState
from . import calls, forms, play, vocabulary
from .auction import Auction56, Contract
from .deal import TRUMP_CHOICES, Deal56, deck, deck_bits
from .match import Match56
from .observation import Observation56, observation, observe, rules_of
from .rules import CHOICES, DEFAULT_PRESET, OPTION_DESCRIPTIONS, PRESET_DESCRIPTIONS, PRESETS, RANKS, Rules56
from .sampler import Sampler56, bid_claims, length_claims
from .scoring import deal_score, is_made


class FiftySix(SpecBase[Rules56, Deal56, Observation56]):
    """The :class:`~fiftysix.games.spec.GameSpec` of 56."""

    name = "56"
    ranks = RANKS
    copies = play.COPIES
    side_word = "team"
    default_preset = DEFAULT_PRESET
    play: PlayRule = play
    choices: Mapping[str, tuple[object, ...]] = CHOICES
    preset_descriptions: Mapping[str, str] = PRESET_DESCRIPTIONS
    option_descriptions: Mapping[str, Mapping[str, str]] = OPTION_DESCRIPTIONS
    rules_type = Rules56
    deal_type = Deal56
    observation_type = Observation56
    vocabulary: Vocabulary[Rules56] = vocabulary
    preset_table: Mapping[str, Mapping[str, object]] = PRESETS

    def rules_from_json(self, data: object) -> Rules56:
        return Rules56.from_json(data)

    def deck(self, rules: Rules) -> list[Card]:
        return deck(self._rules(rules))

    def new_deal(self, rules: Rules, seed: int | None = None, dealer: int | None = None) -> Deal56:
        return Deal56.from_seed(self._rules(rules), seed, dealer)

    def new_match(self, rules: Rules, first_dealer: int | None = None, seed: int | None = None) -> Match56:
        return Match56(self._rules(rules), first_dealer, seed)

    def read_setup(self, record: JSONObject, rules: Rules, dealer: int,
                   hands: list[list[Card]], match: MatchLike | None) -> Deal56:
        return Deal56(self._rules(rules), dealer, hands)

    def replay_extra(self, record: JSONObject, deal: Deal) -> None:
        deal = self._deal(deal)
        trump = record.get("trump")
        if trump is None:
            return
        if deal.phase == AUCTION:
            raise RecordError("trump", None, Meaning("no trump choice before the auction has ended"))
        assert deal.phase == TRUMP
        deal.push_unchecked(parse_trump(trump))

    def check_trump_field(self, record: JSONObject, rules: Rules) -> None:
        trump = record.get("trump")
        if trump is None:
            return
        if self._rules(rules).trump == "bid":
            raise RecordError("trump", None, Meaning(
                "trump must be null with trump: bid (the contract's strain is trumps), not {value}",
                {"value": repr(trump)}))
        parse_trump(trump)

    def record_extra(self, deal: Deal) -> dict[str, object]:
        deal = self._deal(deal)
        return {"trump": deal.trump_text() if deal.rules.trump != "bid" else None}

    def legal_move(self, move: Move) -> LegalMove:
        return legal_move(move)

    def observation(self, deal: Deal, seat: int | None, match: MatchLike | None = None) -> Observation56:
        return observation(self._deal(deal), seat, match)

    def describe_call(self, deal: Deal, index: int) -> str:
        return self._deal(deal).auction.meanings[index]

    def observe(self, view: JSONObject) -> Observation56:
        return observe(view)

    def sampler(self, observation: Observation, *, use_bids: bool = True, infer: bool = True,
                tries: int = 300) -> Sampler56:
        return Sampler56(self._observation(observation), use_bids=use_bids, infer=infer, tries=tries)

    def play_state(self, deal: Deal) -> PlayState:
        deal = self._deal(deal)
        return PlayState(tuple(tuple(h) for h in deal.hands), tuple(deal.trick_cards), deal.trick_leader,
                         deal.active_trump, tuple(deal.rules.team_of), tuple(deal.points),
                         must_trump=bool(deal.must_trump and deal.active_trump is not None),
                         approximate=not deal.revealed)

    def winning_form(self, auction: Sequence[str], rules: Rules) -> str | None:
        bidding = self._rules(rules).bidding
        for text in reversed(auction):
            try:
                call, _ = calls.parse_call(text, bidding)
            except NotationError:
                continue
            if call.is_bid:
                return call.form
        return None

    def kitty_size(self, rules: Rules) -> int:
        return 0


def legal_move(m: Move) -> LegalMove:
    """One legal move of 56 for the browser."""
    if isinstance(m, Card):
        return LegalMove(str(m), "card", m.suit.letter, m.pretty)
    if isinstance(m, Call):
        return LegalMove(m.text, m.kind, m.suit.letter if m.suit is not None else None, m.text)
    if isinstance(m, TrumpChoice):
        if m.strain is None:
            return LegalMove(str(m), "trump", None, "no trumps")
        return LegalMove(str(m), "trump", m.strain.letter, f"{m.strain.symbol} {m.strain.word}")
    if isinstance(m, Reveal):
        return LegalMove(str(m), "reveal", None, "ask for trumps")
    if isinstance(m, Claim):
        return LegalMove(str(m), "claim", None, "claim the rest")
    if isinstance(m, Discard):   # pragma: no cover - 56 has no discard
        return LegalMove(str(m), "discard", None, " ".join(c.pretty for c in m.cards))
    raise TypeError(f"not a move of 56: {m!r}")


def parse_trump(value: object) -> TrumpChoice:
    """Read a record's ``trump`` field: ``S H D C`` or ``NT``.

    :raises RecordError: for anything else.
    """
    if isinstance(value, str):
        t = value.strip().upper()
        if t == "NT":
            return TRUMP_CHOICES[4]
        try:
            return TRUMP_CHOICES[Suit.parse(t)]
        except NotationError:
            pass
    raise RecordError("trump", None, Meaning("trump must be one of S, H, D, C, NT, not {value}",
                                             {"value": repr(value)}))


GAME = FiftySix()
_SPEC: GameSpec = GAME  # mypy checks that 56 fits the protocol every generic module relies on

__all__ = ["GAME", "PRESETS", "RANKS", "TRUMP_CHOICES", "Auction56", "Contract", "Deal56", "IllegalMoveError",
           "Match56", "Observation56", "Rules56", "Sampler56", "bid_claims", "calls", "deal_score", "deck_bits",
           "forms", "is_made", "length_claims", "play", "rules_of"]
