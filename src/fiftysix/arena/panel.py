"""The panel (``fiftysix arena --panel``): a bot against a fixed set of opponents on 56-4, 56-6 and 56-8.

One duel says how a bot does against one sparring partner, and a bot tuned against that partner can win by its
partner's faults (issue 28: ``sage`` beat ``pimc`` by its passes, and ``rules`` by no more than ``pimc`` did).
The panel plays the bot against every member with the arena's duplicate deals (:mod:`.duplicate`), one pairing
per member and table, and reports per pairing the paired difference with its 95% interval, how often each side
declared a contract, and a Bradley-Terry rating over all pairings (:mod:`.rating`), anchored at ``rules``.

The members and their settings are :data:`PANEL`; the two seed sets :data:`TUNING` and :data:`REPORTING`.
Tuning (choosing a bot's settings by panel runs) uses the tuning seeds; the figures reported come from the
reporting seeds, which no setting was chosen on.  :func:`run_panel` refuses the tuning seeds unless told
(``for_tuning``), and a run on them is marked as not for reporting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from .duplicate import ArenaConfig, ChunkResult, check_bots
from .rating import Result, rate, result_of, win_chance
from .report import ArenaSummary, poolable, summarize
from .run import run_arena
from .stats import MeanCIJSON, mean, mean_ci


@dataclass(frozen=True)
class Member:
    """A panel member: its name in the tables, its setting (a bot spec) and the cheaper one of ``--fast``."""

    name: str
    spec: str
    fast: str
    about: str

    def setting(self, fast: bool) -> str:
        return self.fast if fast else self.spec


PANEL: tuple[Member, ...] = (
    Member("rules", "rules", "rules", "the heuristic player; the rating's anchor (0)"),
    Member("pimc", "pimc", "pimc,fast=true", "Perfect Information Monte Carlo, default setting"),
    Member("ismcts", "ismcts,iterations=60,call_samples=100", "ismcts,iterations=30,call_samples=50",
           "information-set MCTS at the setting of the 2,000-pair measurements (pimc's calls)"),
    Member("bold", "rules,margin=-1", "rules,margin=-1",
           "an aggressive bidder: rules bidding up to its estimate plus 1 card point (rules: less 2)"),
    Member("timid", "pimc,bid_margin=0.6", "pimc,fast=true,bid_margin=0.6",
           "a timid bidder: pimc that bids only when the bid looks 0.6 tables better than passing"),
    Member("sage", "sage", "sage,fast=true",
           "pimc with calibrated calls, the expert level: so no bot looks strong by beating overbidders alone"),
)
"""The panel, named here only.  ``bold`` is the ``rules`` bot's ``margin`` option (2 card points by default),
``timid`` ``pimc``'s ``bid_margin`` option (0.05 tables by default; ``sage`` is 0.4).  A ``pimc`` with a
negative ``bid_margin`` is not a bold bidder but a reckless one: it raised its own side to doubled 56 contracts
(docs/bots.md, "Panel")."""

ANCHOR = "rules"
PRESETS: tuple[str, ...] = ("56-4", "56-6", "56-8")


@dataclass(frozen=True)
class SeedSet:
    """A named seed of the arena's deals (each deal's cards come from the seed and the deal's index)."""

    name: str
    seed: int
    about: str


TUNING = SeedSet("tuning", 1, "for choosing settings: seed 1, on which sage's margin and most earlier duels ran")
REPORTING = SeedSet("reporting", 5628, "for the figures reported: seed 5628, on which no setting was chosen")
SEED_SETS: dict[str, SeedSet] = {s.name: s for s in (TUNING, REPORTING)}

TUNED_ON = frozenset({1, 2, 3, 4, 11})
"""Seeds earlier work chose settings on or compared variants on (docs/bots.md): never the reporting seed."""


class PanelError(ValueError):
    """A panel that cannot be run as asked (unknown seed set, tuning seeds not allowed, no bot)."""


def seed_set(name: str, for_tuning: bool = False) -> SeedSet:
    """The seed set ``name``; the tuning set only when ``for_tuning`` says its figures are not to be reported.

    :raises PanelError: for an unknown name or the tuning set without ``for_tuning``.
    """
    if name not in SEED_SETS:
        raise PanelError(f"unknown seed set {name!r}; the sets are {', '.join(SEED_SETS)}")
    chosen = SEED_SETS[name]
    if chosen.seed in TUNED_ON and not for_tuning:
        raise PanelError(f"the {name} seeds (seed {chosen.seed}) are for tuning: their figures are not to be "
                         "reported; say it is for tuning (--for-tuning) to run on them")
    return chosen


@dataclass(frozen=True)
class PanelConfig:
    """What a panel run plays: each bot against each member on each preset, ``deals`` duplicate pairs each."""

    bots: tuple[str, ...]
    deals: int
    seeds: SeedSet = REPORTING
    presets: tuple[str, ...] = PRESETS
    members: tuple[Member, ...] = PANEL
    fast: bool = False
    workers: int = 1
    first: int = 0
    for_tuning: bool = False
    anchor: str = ANCHOR
    only: tuple[str, ...] = ()
    """The members to play (``--members``), by name; empty: every one.  A part that plays a member who joined
    the panel later (``sage``) pools with the runs before (:func:`pool_panels`)."""

    def pairings(self) -> list[tuple[str, Member, str]]:
        """(bot, member, preset) of every duel; a bot whose setting is a member's does not play that member."""
        return [(bot, m, preset) for preset in self.presets for bot in self.bots for m in self.members
                if bot != m.setting(self.fast) and (not self.only or m.name in self.only)]

    def arena(self, bot: str, member: Member, preset: str) -> ArenaConfig:
        return ArenaConfig(rules=preset, bots=(bot, member.setting(self.fast)), deals=self.deals,
                           seed=self.seeds.seed, workers=self.workers, first=self.first)


def check_panel(config: PanelConfig) -> None:
    """Refuse a panel that cannot run before anything is played.

    :raises PanelError: no bot, no deals, tuning seeds not allowed, or an anchor that is not a member.
    :raises ValueError: a bad bot spec (from :func:`~.duplicate.check_bots`).
    """
    if not config.bots:
        raise PanelError("give a bot to measure against the panel")
    if config.deals < 1:
        raise PanelError("a panel needs at least one deal pair a pairing")
    if config.seeds.seed in TUNED_ON and not config.for_tuning:
        raise PanelError(f"seed {config.seeds.seed} is a tuning seed: its figures are not to be reported; "
                         "say it is for tuning (--for-tuning) to run on it")
    names = [m.name for m in config.members]
    if config.anchor not in names:
        raise PanelError(f"the anchor {config.anchor!r} is not a panel member")
    unknown = [n for n in config.only if n not in names]
    if unknown:
        raise PanelError(f"not a panel member: {', '.join(unknown)}; the members are {', '.join(names)}")
    for bot, member, preset in config.pairings():
        check_bots(config.arena(bot, member, preset))


Runner = Callable[[ArenaConfig], tuple[ChunkResult, float]]


def _default_runner(progress: Callable[[int], None] | None) -> Runner:
    return lambda config: run_arena(config, progress)


class PairingRow(TypedDict):
    """One pairing of a panel document: the figures of ``bot`` against a panel member on one preset."""

    bot: str
    member: str
    member_spec: str
    preset: str
    seed: int
    first: int
    pairs: int
    difference: MeanCIJSON
    unit: str
    seatings: int
    declared: list[int]
    made: list[int]
    declare_rate: list[float]
    time_ms: dict[str, float]
    faults: list[int]
    interrupted: bool
    deal_indices: list[int]
    per_pair: list[float]


def pairing_row(bot: str, member: Member, preset: str, summary: ArenaSummary) -> PairingRow:
    """One pairing's figures from its arena summary: the difference ``bot - member`` per deal pair, with its
    interval, the pairs, and each side's contracts declared and made out of its seatings."""
    diffs = [row["scores"][0] - row["scores"][1] for row in summary["per_deal"]]
    seatings = summary["deals"] * summary["seatings"]
    sides = summary["bots"]
    return {
        "bot": bot, "member": member.name, "member_spec": sides[1]["bot"], "preset": preset,
        "seed": summary["seed"], "first": summary["first"], "pairs": summary["deals"],
        "difference": mean_ci(diffs).to_json(), "unit": summary["unit"],
        "seatings": seatings,
        "declared": [sides[0]["declared"], sides[1]["declared"]],
        "made": [sides[0]["made"], sides[1]["made"]],
        "declare_rate": [s["declared"] / seatings if seatings else 0.0 for s in sides],
        "time_ms": {"choice_median": sides[0]["time_ms"]["choice_median"],
                    "choice_p99": sides[0]["time_ms"]["choice_p99"]},
        "faults": [sides[0]["faults"]["count"], sides[1]["faults"]["count"]],
        "interrupted": summary["interrupted"],
        "deal_indices": [row["deal"] for row in summary["per_deal"]],
        "per_pair": diffs,
    }


@dataclass
class PanelRun:
    """The pairings played so far (a run stopped by Ctrl-C keeps them) and whether it was interrupted."""

    rows: list[PairingRow] = field(default_factory=list)
    interrupted: bool = False
    elapsed: float = 0.0


def play_panel(config: PanelConfig, progress: Callable[[int], None] | None = None,
               runner: Runner | None = None) -> PanelRun:
    """Play every pairing of ``config`` (:func:`check_panel` first); a pairing interrupted is kept with the
    deals it played to the end and the run stops there."""
    check_panel(config)
    run = runner or _default_runner(progress)
    out = PanelRun()
    for bot, member, preset in config.pairings():
        arena = config.arena(bot, member, preset)
        result, elapsed = run(arena)
        out.elapsed += elapsed
        if result.plays:
            out.rows.append(pairing_row(bot, member, preset, summarize(arena, result, elapsed)))
        if result.interrupted:
            out.interrupted = True
            break
    return out


def label(spec: str, config: PanelConfig) -> str:
    """A member's name for its setting, else the spec (marked ``(bot)`` when it is a member's name: ``--bot pimc``
    with ``--fast`` is not the member ``pimc``, which plays ``pimc,fast=true``)."""
    for m in config.members:
        if spec == m.setting(config.fast):
            return m.name
    return f"{spec} (bot)" if spec in {m.name for m in config.members} else spec


def results_of(rows: Sequence[PairingRow], config: PanelConfig) -> list[Result]:
    """The rating's games: each pairing's deal pairs won, lost and tied."""
    return [result_of(label(r["bot"], config), r["member"], r["per_pair"]) for r in rows]


def panel_average(rows: Sequence[PairingRow], bot: str, presets: Sequence[str]) -> dict[str, MeanCIJSON]:
    """The bot's difference against the panel average: per deal pair the mean of its differences against the
    members that played that deal (the same deals for every member), with a 95% interval; per preset and over
    all of them."""
    out: dict[str, MeanCIJSON] = {}
    pooled: list[float] = []
    for preset in presets:
        by_deal: dict[int, list[float]] = {}
        for r in rows:
            if r["bot"] == bot and r["preset"] == preset:
                indices = r.get("deal_indices") or range(r["first"], r["first"] + len(r["per_pair"]))
                for i, d in zip(indices, r["per_pair"], strict=True):
                    by_deal.setdefault(i, []).append(d)
        values = [mean(ds) for _, ds in sorted(by_deal.items())]
        if values:
            out[preset] = mean_ci(values).to_json()
            pooled += values
    if pooled:
        out["all"] = mean_ci(pooled).to_json()
    return out


def panel_document(config: PanelConfig, run: PanelRun, bootstrap: int = 200) -> dict[str, object]:
    """The JSON of a panel run: its settings, every pairing, the panel averages and the rating."""
    results = results_of(run.rows, config)
    try:
        ratings = [r.to_json() | {"win_chance": win_chance(r.rating)}
                   for r in rate(results, config.anchor, bootstrap=bootstrap)] if results else []
        rating_note = ""
    except ValueError as e:     # e.g. no pairing against the anchor was played before an interruption
        ratings, rating_note = [], str(e)
    return {
        "panel": [{"name": m.name, "spec": m.setting(config.fast), "about": m.about} for m in config.members],
        "presets": list(config.presets),
        "seed_set": {"name": config.seeds.name, "seed": config.seeds.seed, "about": config.seeds.about},
        "reportable": config.seeds.seed not in TUNED_ON,
        "fast": config.fast, "deals": config.deals, "first": config.first, "workers": config.workers,
        "bots": list(config.bots), "anchor": config.anchor,
        "interrupted": run.interrupted, "elapsed_seconds": run.elapsed,
        "pairings": run.rows,
        "panel_average": {bot: panel_average(run.rows, bot, config.presets) for bot in config.bots},
        "rating": {"model": "Bradley-Terry over deal pairs won (ties half), log-odds, anchor 0, "
                            f"95% bootstrap over deal pairs ({bootstrap} refits)",
                   "anchor": config.anchor, "ratings": ratings, "note": rating_note},
    }


def run_panel(config: PanelConfig, progress: Callable[[int], None] | None = None,
              runner: Runner | None = None, bootstrap: int = 200) -> dict[str, object]:
    """Play the panel and return its document (:func:`panel_document`).

    :raises PanelError: as :func:`check_panel`.
    """
    return panel_document(config, play_panel(config, progress, runner), bootstrap)


def _pool_rows(parts: Sequence[PairingRow]) -> PairingRow:
    """One pairing's rows of several runs (different deals of the same seed) as one row.

    :raises ValueError: when a deal was played in two of them.
    """
    pairs = sorted((i, d) for r in parts for i, d in zip(r["deal_indices"], r["per_pair"], strict=True))
    indices = [i for i, _ in pairs]
    if len(set(indices)) != len(indices):
        head = parts[0]
        raise ValueError(f"{head['bot']} against {head['member']} on {head['preset']}: a deal is in two runs; "
                         "pool runs of different --first")
    seatings = sum(r["seatings"] for r in parts)
    declared = [sum(r["declared"][k] for r in parts) for k in (0, 1)]
    biggest = max(parts, key=lambda r: r["pairs"])
    return {**biggest, "first": min(r["first"] for r in parts), "pairs": len(pairs),
            "difference": mean_ci([d for _, d in pairs]).to_json(), "seatings": seatings, "declared": declared,
            "made": [sum(r["made"][k] for r in parts) for k in (0, 1)],
            "declare_rate": [x / seatings if seatings else 0.0 for x in declared],
            "faults": [sum(r["faults"][k] for r in parts) for k in (0, 1)],
            "interrupted": any(r["interrupted"] for r in parts),
            "deal_indices": indices, "per_pair": [d for _, d in pairs]}


def pool_panels(docs: Sequence[dict[str, Any]], bootstrap: int = 200) -> dict[str, object]:
    """One panel document of several (parts of a long run with ``--first``, or runs of other bots on the same
    seed set): each pairing's deal pairs together, the rating refitted over all of them.

    :raises ValueError: for no documents, different seed sets or settings, or a deal played twice.
    """
    head = poolable(docs, "panel document", ("seed_set", "fast", "anchor"),
                    "panel runs with different {key} cannot be pooled")
    members = _joined_panel(docs)
    groups: dict[tuple[str, str, str], list[PairingRow]] = {}
    for doc in docs:
        for r in doc["pairings"]:
            groups.setdefault((r["bot"], r["member"], r["preset"]), []).append(r)
    rows = [_pool_rows(parts) for parts in groups.values()]
    bots = tuple(dict.fromkeys(b for doc in docs for b in doc["bots"]))
    presets = tuple(dict.fromkeys(p for doc in docs for p in doc["presets"]))
    seeds = SeedSet(head["seed_set"]["name"], head["seed_set"]["seed"], head["seed_set"]["about"])
    config = PanelConfig(bots=bots, deals=max(r["pairs"] for r in rows) if rows else 0, seeds=seeds,
                         presets=presets, members=members, fast=head["fast"], for_tuning=not head["reportable"],
                         anchor=head["anchor"], first=min((r["first"] for r in rows), default=0))
    run = PanelRun(rows, any(d["interrupted"] for d in docs), sum(d["elapsed_seconds"] for d in docs))
    out = panel_document(config, run, bootstrap)
    # a pooled document pools again with later parts: its workers are a list and it counts its own parts
    out["workers"] = sorted({w for d in docs for w in (d["workers"] if isinstance(d["workers"], list)
                                                      else [d["workers"]])})
    out["pooled"] = sum(d.get("pooled", 1) for d in docs)
    return out


def _joined_panel(docs: Sequence[dict[str, Any]]) -> tuple[Member, ...]:
    """The members of every document, in their order of first appearance: runs made before a member joined
    pool with runs that play it, as long as no member's setting changed.

    :raises ValueError: for a member with two settings.
    """
    members: dict[str, Member] = {}
    for doc in docs:
        for m in doc["panel"]:
            member = Member(m["name"], m["spec"], m["spec"], m["about"])
            if members.setdefault(m["name"], member).spec != member.spec:
                raise ValueError(f"panel runs with different settings of {m['name']} cannot be pooled: "
                                 f"{members[m['name']].spec!r} and {member.spec!r}")
    return tuple(members.values())


def _ci(d: MeanCIJSON) -> str:
    if d["ci95"] is None:
        return f"{d['mean']:+.3f} (no interval)"
    return f"{d['mean']:+.3f} [{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}]"


def format_panel(doc: dict[str, Any]) -> str:
    """The tables ``fiftysix arena --panel`` prints."""
    s = doc["seed_set"]
    lines = [f"panel on the {s['name']} seeds (seed {s['seed']}), {doc['deals']} deal pairs a pairing"
             + (f" from deal {doc['first']}" if doc["first"] else "")
             + (", fast settings" if doc["fast"] else "") + f", {doc['elapsed_seconds']:.0f} s"]
    if not doc["reportable"]:
        lines.append("TUNING SEEDS: these figures are for tuning, not for reporting")
    if doc["interrupted"]:
        lines.append("interrupted: the last pairing is partial and the ones after it were not played")
    lines.append(f"{'bot':<16} {'preset':<6} {'member':<8} {'pairs':>5}  {'bot - member, tables a deal':<30}"
                 f"{'declared bot':>13} {'declared member':>16}")
    for r in doc["pairings"]:
        rate_ = r["declare_rate"]
        lines.append(f"{r['bot']:<16} {r['preset']:<6} {r['member']:<8} {r['pairs']:>5}  "
                     f"{_ci(r['difference']):<30}{100 * rate_[0]:>12.0f}% {100 * rate_[1]:>15.0f}%")
    for bot, averages in doc["panel_average"].items():
        for preset, d in averages.items():
            lines.append(f"panel average {bot} {preset}: {_ci(d)} tables a deal")
    rating = doc["rating"]
    if rating["ratings"]:
        lines.append(f"rating: {rating['model']}; {rating['anchor']} = 0")
        for r in rating["ratings"]:
            lines.append(f"  {r['name']:<24} {r['rating']:+.3f} [{r['ci95'][0]:+.3f}, {r['ci95'][1]:+.3f}]"
                         f"  share of pairs against {rating['anchor']} {100 * r['win_chance']:.0f}%"
                         f"  ({r['games']} pairs)")
    elif rating["note"]:
        lines.append(f"no rating: {rating['note']}")
    return "\n".join(lines) + "\n"


__all__ = ["ANCHOR", "PANEL", "PRESETS", "REPORTING", "SEED_SETS", "TUNED_ON", "TUNING", "Member", "PanelConfig",
           "PanelError", "PanelRun", "SeedSet", "check_panel", "format_panel", "panel_average", "panel_document",
           "pairing_row", "play_panel", "pool_panels", "results_of", "run_panel", "seed_set"]
