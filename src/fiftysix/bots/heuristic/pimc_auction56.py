"""The 56 auction and trump choice of ``pimc``: contracts simulated over sampled deals.

For a call the bot samples deals consistent with its view (the bid forms' facts included; optionally
weighted by how well the other seats' hands fit the values they bid and the passes they made,
:func:`~fiftysix.bots.simulate56.bid_weights`, off by default) and estimates for every sampled deal what
each team would take as declarer in each strain (:func:`~fiftysix.bots.simulate56.team_estimate`, with
its error as a normal spread).  That gives the chance that a contract is made, and with the scoring table
its expected score for the bot's team.  The calls compared:

* pass: the contract standing now (the opponents', the partner's, or nothing yet);
* double / redouble: the standing contract at twice (four times) the stake, only when it looks clearly
  lost (made) for the declarers;
* a bid in each strain at the cheapest value, in the written form that tells the truth about the hand
  (the ``rules`` bot's forms: ``28H`` with the J, ``H28`` without, ``+kH``, ``NOES``, ``28NT``).

With two teams the bot looks ahead to the opponents bidding on (:func:`settle`: where the auction settles
when each side bids on while that pays); otherwise the auction is taken to end after the call.  A bid must
beat the pass by ``BID_MARGIN`` to be made.  With ``trump: chosen`` or ``hidden`` the declarer picks the
trump later, so a bid counts the best strain.

Measured in arena runs (rules play for both, 100 deals): the value weights made the bids worse
(-0.37 tables a deal against ``rules`` with them, -0.05 without), so they are off by default.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core.deal import Deal
from ...games.fifty_six import Contract, Rules56, deal_score
from ..base import clock
from ..kits import Decision, SearchContext
from .knowledge import STRAINS, AuctionState, Table, read_bid
from .rules56 import Rules56Bot
from .simulate56 import STRAIN_INDEX, bid_weights, residual, team_estimate

BID_MARGIN = 0.05
"""Expected tables a bid must gain over passing."""
DOUBLE_BELOW = 0.25
"""Double only when the declarers make their contract less often than this."""
REDOUBLE_ABOVE = 0.75



class Simulation:
    """Sampled deals with their weights, and the contract chances they give."""

    def __init__(self, rules: Rules56, deals: Sequence[Deal], weights: Sequence[float], first_hand: int,
                 model: str = "rules") -> None:
        self.rules = rules
        self.model = model
        self.deals = list(deals)
        self.weights = np.array(weights, dtype=float)
        self.weights /= self.weights.sum() or 1.0
        self.first_hand = first_hand
        self.choose_later = rules.trump != "bid"
        self._est: dict[tuple[int, str], np.ndarray] = {}
        self._curves: dict[tuple[int, str], np.ndarray] = {}
        self.asked: dict[str, float] = {}
        """The chance of making each bid considered (for reports)."""

    def estimates(self, team: int, strain: str) -> np.ndarray:
        """The team's expected card points as declarer in ``strain``, per sampled deal."""
        key = (team, strain)
        found = self._est.get(key)
        if found is None:
            s = STRAIN_INDEX[strain]
            found = self._est[key] = np.array([team_estimate(self.rules, d.dealt, team, s, self.first_hand,
                                                             self.model)
                                               for d in self.deals])
        return found

    def mean(self, team: int, strain: str) -> float:
        return float(self.weights @ self.estimates(team, strain))

    def curve(self, team: int, strain: str) -> np.ndarray:
        """``curve[v - 28]``: the chance that ``team`` makes ``v`` in ``strain``, for v = 28 … 56."""
        key = (team, strain)
        found = self._curves.get(key)
        if found is None:
            sigma = residual(self.rules, STRAIN_INDEX[strain], self.model)
            z = (self.estimates(team, strain)[:, None] - VALUES[None, :] + 0.5) / sigma
            found = self._curves[key] = self.weights @ normal_cdf_array(z)
        return found

    def p_make(self, team: int, strain: str | None, value: int) -> float:
        """The chance that ``team`` makes ``value`` in ``strain`` (``None``: its best strain, when the
        trump is chosen after the auction)."""
        value = min(max(value, 28), 56)
        if strain is None or strain not in STRAINS or self.choose_later:
            return max(float(self.curve(team, s)[value - 28]) for s in STRAINS)
        return float(self.curve(team, strain)[value - 28])


VALUES = np.arange(28, 57, dtype=float)


def normal_cdf_array(z: np.ndarray) -> np.ndarray:
    """The standard normal distribution function, elementwise (a tanh approximation, error < 0.002)."""
    return 0.5 * (1.0 + np.tanh(0.7978845608 * (z + 0.044715 * z ** 3)))


def expected_score(rules: Rules56, team: int, declarer: int, value: int, multiplier: int, p_make: float,
                   mine: int) -> float:
    """Expected tables (or points) for team ``mine`` of a contract made with chance ``p_make``."""
    contract = Contract(declarer, team, value, None, multiplier)
    made = deal_score(rules, contract, True)[mine]
    failed = deal_score(rules, contract, False)[mine]
    return p_make * made + (1.0 - p_make) * failed


def calls_of(t: Table) -> list[tuple[int, int, int | None, str | None]]:
    """The auction as (seat, value before, value bid or ``None``, strain or ``None``) per call."""
    out: list[tuple[int, int, int | None, str | None]] = []
    first = t.first_hand
    value = 27
    announcements = t.bidding == "announcements"
    for i, call in enumerate(t.obs.auction):
        seat = (first + i) % t.n
        c = str(call).upper()
        if c in ("P", "X", "XX"):
            out.append((seat, value, None, None))
            continue
        v, strain, _ = read_bid(c, value, announcements)
        out.append((seat, value, v, strain))
        value = v
    return out


def simulate(ctx: SearchContext, t: Table) -> Simulation:
    """Sample deals for the bot's knowledge and weight them by the auction."""
    sampler = ctx.sampler()
    settings = ctx.settings
    n = max(8, int(settings.bid_samples))
    start = clock()
    limit = None if settings.time_limit is None else 0.5 * settings.time_limit
    deals = []
    for _ in range(n):
        deals.append(sampler.sample(ctx.rng))
        if limit is not None and len(deals) >= 8 and clock() - start > limit:
            break
    infer = t.bidding == "standard" and settings.weights
    weights = bid_weights(t.rules, deals, t.seat, calls_of(t)) if infer else [1.0] * len(deals)
    return Simulation(t.rules, deals, weights, t.first_hand,
                      settings.contract_model)


def choose_call(ctx: SearchContext, legal: list[str]) -> Decision:
    """The call with the best expected score (see the module documentation)."""
    t = Table(ctx.obs)
    a = AuctionState(t)
    sim = simulate(ctx, t)
    rules = t.rules
    mine = t.team
    mult = (1, 2, 4)[min(a.doubled, 2)]
    two = t.n_teams == 2 and ctx.settings.compete
    them = 1 - mine
    settle_us, settle_them = settle(sim, rules, mine, them) if two else (None, None)

    def after(value: int, standing: float) -> float:
        """What a contract of ours at ``value`` is worth once the opponents may still outbid it."""
        if settle_them is None or value >= 56:
            return standing
        return min(standing, float(settle_them[value + 1 - 28]))

    options: list[tuple[float, int, str]] = []   # (expected score, preference, call)
    p_standing = 0.0
    if a.bidder is None:
        ev_pass = 0.0 if settle_them is None else min(0.0, float(settle_them[0]))
    else:
        holder = t.team_of[a.bidder]
        p_standing = sim.p_make(holder, a.strain, a.value)
        ev_pass = expected_score(rules, holder, a.bidder, a.value, mult, p_standing, mine)
        if "X" in legal and p_standing < DOUBLE_BELOW:
            doubled = expected_score(rules, holder, a.bidder, a.value, 2, p_standing, mine)
            if settle_them is not None and a.value < 56:
                doubled = min(doubled, float(settle_them[a.value + 1 - 28]))
            options.append((doubled, 1, "X"))
        if "XX" in legal and p_standing > REDOUBLE_ABOVE:
            options.append((expected_score(rules, holder, a.bidder, a.value, 4, p_standing, mine), 1, "XX"))
    if "P" in legal:
        options.append((ev_pass, 2, "P"))
    if not a.closed:
        ours = a.bidder is not None and t.team_of[a.bidder] == mine
        # Over a partner's bid the opponents may bid on whatever we do: compare the contracts alone.
        options += [(ev if ours else after(v, ev), pref, text) for ev, pref, text, v in _bids(ctx, t, a, sim, legal)]
    if not options:
        return Decision(str(ctx.fallback.choose(t.obs)))
    ev, _, call = max(options)
    return Decision(call, {"how": "simulation", "samples": len(sim.deals),
                           "scores": {c: round(e, 3) for e, _, c in options}, "standing": round(p_standing, 3),
                           "chances": {text: round(p, 3) for text, p in sim.asked.items()}})


def settle(sim: Simulation, rules: Rules56, us: int, them: int) -> tuple[np.ndarray, np.ndarray]:
    """Where a two-team auction settles, by backward induction over the values 28 … 56.

    ``a[v]``: what we expect declaring at ``v`` in our best strain, ``b[v]``: what we expect when they
    declare at ``v`` in theirs (our terms).  ``f_us[v]``: the outcome after we bid ``v`` and they may
    pass or bid on; ``f_them[v]`` likewise after their bid.  Each side bids on when that is better for it.
    """
    values = range(28, 57)
    a = np.array([max(expected_score(rules, us, 0, v, 1, float(sim.curve(us, s)[v - 28]), us) for s in STRAINS)
                  for v in values])
    b = np.array([min(expected_score(rules, them, 0, v, 1, float(sim.curve(them, s)[v - 28]), us) for s in STRAINS)
                  for v in values])
    f_us, f_them = a.copy(), b.copy()
    for i in range(len(a) - 2, -1, -1):
        f_us[i] = min(a[i], f_them[i + 1])
        f_them[i] = max(b[i], f_us[i + 1])
    return f_us, f_them


def _bids(ctx: SearchContext, t: Table, a: AuctionState, sim: Simulation,
          legal: list[str]) -> list[tuple[float, int, str, int]]:
    """A bid per strain at the cheapest value, in its informative form, with its expected score less the
    margin and its value (and the ``+kH`` form too when it shows the hand exactly)."""
    value = max(a.value + 1, 28)
    if value > 56:
        return []
    rb = ctx.fallback
    assert isinstance(rb, Rules56Bot)   # the 56 rules bot writes each strain's bid in its informative form
    announcements = t.bidding == "announcements"
    seen: set[str] = set()
    out: list[tuple[float, int, str, int]] = []
    for strain in STRAINS:
        for limit in (float(value), 56.0):
            text = rb.bid_text(t, a, strain, value, limit, legal)
            if text is None or text in seen or text not in legal:
                continue
            seen.add(text)
            v, _, _ = read_bid(text.upper(), a.value, announcements)
            p = sim.asked[text] = sim.p_make(t.team, strain, v)
            margin = BID_MARGIN if ctx.settings.bid_margin is None else ctx.settings.bid_margin
            ev = expected_score(t.rules, t.team, t.seat, v, 1, p, t.team) - margin
            out.append((ev, 0, text, min(max(v, 28), 56)))
    return out


def choose_trump(ctx: SearchContext, legal: list[str]) -> Decision:
    """The strain the team is likeliest to make its contract in (then the most points)."""
    t = Table(ctx.obs)
    value = t.obs.contract_value or 28
    sim = simulate(ctx, t)
    sim.choose_later = False
    choices = [s for s in STRAINS if s in legal]
    if not choices:
        return Decision(str(ctx.fallback.choose(t.obs)))
    scored = {s: (sim.p_make(t.team, s, value), sim.mean(t.team, s)) for s in choices}
    best = max(choices, key=lambda s: (round(scored[s][0], 3), scored[s][1]))
    return Decision(best, {"how": "simulation", "samples": len(sim.deals),
                           "scores": {s: round(p, 3) for s, (p, _) in scored.items()}})
