"""What an arena run shows: per bot the mean score per deal, card points, bidding success, time per
decision, faults, and the paired difference with its 95% interval; as text, JSON and a PNG plot."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NotRequired, TypedDict

from .duplicate import ArenaConfig, ChunkResult, deal_seed, resolve_rules, seatings
from .stats import MeanCIJSON, mean, mean_ci, percentile, running


def labels(specs: tuple[str, ...], names: dict[int, str] | None = None) -> list[str]:
    """Names to show: the spec (an outside program: the name it gave in ``ready``), with ``#2``, ``#3`` for a
    name given more than once."""
    out: list[str] = []
    seen: dict[str, int] = {}
    for b, spec in enumerate(specs):
        name = (names or {}).get(b) or spec
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


class TimeMs(TypedDict):
    """A bot's time per decision, in milliseconds (``choice``: the decisions with more than one legal move)."""

    decisions: int
    mean: float
    choices: int
    choice_mean: float
    choice_median: float
    choice_p90: float
    choice_p99: float
    max: float


class Faults(TypedDict):
    count: int
    messages: list[str]


class PairedDifference(MeanCIJSON):
    versus: str


class BotSummary(TypedDict):
    """One bot of an arena summary."""

    bot: str
    label: str
    mean_score: float
    mean_points: float
    declared: int
    made: int
    bid_success: float | None
    paired_difference: PairedDifference
    time_ms: TimeMs
    faults: Faults


class DealScores(TypedDict):
    """One duplicate deal: its index, its seed and each bot's mean score over the seatings."""

    deal: int
    seed: int
    scores: list[float]


class ArenaSummary(TypedDict):
    """The JSON document of one arena run (``--json``)."""

    game: str
    rules: object
    deals: int
    deals_planned: int
    interrupted: bool
    seed: int
    first: int
    seatings: int
    workers: int
    unit: str
    elapsed_seconds: float
    bots: list[BotSummary]
    per_deal: list[DealScores]
    ray: NotRequired[str]       # the Ray cluster's address, when the run used one


def summarize(config: ArenaConfig, result: ChunkResult, elapsed: float) -> ArenaSummary:
    """The JSON document of a run (``--json``)."""
    game, rules = resolve_rules(config.rules)
    n_teams, n_bots = rules.n_teams, len(config.bots)
    table = seatings(n_teams, n_bots)
    deals = sorted({p.deal for p in result.plays})
    col = {d: i for i, d in enumerate(deals)}
    scores = [[0.0] * len(deals) for _ in range(n_bots)]
    points = [[0.0] * len(deals) for _ in range(n_bots)]
    declared, made = [0] * n_bots, [0] * n_bots
    plays_per_deal = len(table)
    for play in result.plays:
        owner = table[play.seating]
        for b in range(n_bots):
            teams = [t for t in range(n_teams) if owner[t] == b]
            scores[b][col[play.deal]] += mean([play.score[t] for t in teams]) / plays_per_deal
            points[b][col[play.deal]] += mean([play.points[t] for t in teams]) / plays_per_deal
            if play.declarer_team in teams:
                declared[b] += 1
                made[b] += bool(play.made)
    names = labels(config.bots, result.names)
    unit = "tables" if getattr(rules, "scoring", None) == "tables" else "points"
    bots: list[BotSummary] = []
    for b in range(n_bots):
        others = [c for c in range(n_bots) if c != b]
        diffs = [scores[b][i] - mean([scores[c][i] for c in others]) for i in range(len(deals))]
        tally = result.tallies[b]
        times = tally.choice_times
        bots.append({
            "bot": config.bots[b],
            "label": names[b],
            "mean_score": mean(scores[b]),
            "mean_points": mean(points[b]),
            "declared": declared[b],
            "made": made[b],
            "bid_success": made[b] / declared[b] if declared[b] else None,
            "paired_difference": {**mean_ci(diffs).to_json(),
                                  "versus": names[others[0]] if len(others) == 1 else "the mean of the others"},
            "time_ms": {
                "decisions": tally.decisions,
                "mean": 1000 * tally.seconds / tally.decisions if tally.decisions else 0.0,
                "choices": len(times),
                "choice_mean": 1000 * mean(times),
                "choice_median": 1000 * percentile(times, 0.5),
                "choice_p90": 1000 * percentile(times, 0.9),
                "choice_p99": 1000 * percentile(times, 0.99),
                "max": 1000 * tally.max_seconds,
            },
            "faults": {"count": tally.faults, "messages": list(tally.fault_messages)},
        })
    return {
        "game": game.name,
        "rules": game.rules_to_json(rules),
        "deals": len(deals),
        "deals_planned": config.deals,
        "interrupted": result.interrupted,
        "seed": config.seed,
        "first": config.first,
        "seatings": len(table),
        "workers": config.workers,
        "unit": unit,
        "elapsed_seconds": elapsed,
        "bots": bots,
        "per_deal": [{"deal": d, "seed": deal_seed(config.seed, d), "scores": [scores[b][i] for b in range(n_bots)]}
                     for i, d in enumerate(deals)],
    }


def format_text(summary: ArenaSummary) -> str:
    """The table the command prints."""
    rules = summary["rules"]
    preset = rules if isinstance(rules, str) else json.dumps(rules)
    unit = summary["unit"]
    where = f"on the Ray cluster {summary['ray']}" if summary.get("ray") else f"{summary['workers']} worker(s)"
    first = summary.get("first", 0)
    which = f" (from deal {first})" if first else ""
    lines = [f"arena {preset}: {summary['deals']} deals{which} x {summary['seatings']} seatings, "
             f"seed {summary['seed']}, {where}, {summary['elapsed_seconds']:.1f} s"]
    if summary.get("interrupted"):
        lines.append(f"interrupted: {summary['deals']} of {summary['deals_planned']} deals played to the end")
    width = max([len("bot")] + [len(b["label"]) for b in summary["bots"]])
    # the column is each bot's own mean; the line under the table is the paired difference between bots
    lines.append(f"{'bot':<{width}}  {'mean ' + unit:>11}  {'card pts':>8}  {'contracts made':>16}  "
                 f"{'ms/decision':>11}  {'ms/choice (p90)':>17}  {'faults':>6}")
    for b in summary["bots"]:
        success = b["bid_success"]      # None when the bot declared nothing
        rate = f"{b['made']}/{b['declared']}" + (f" ({100 * success:.0f}%)" if success is not None else "")
        t = b["time_ms"]
        choice = f"{t['choice_mean']:.1f} ({t['choice_p90']:.1f})"
        lines.append(f"{b['label']:<{width}}  {b['mean_score']:>+11.3f}  {b['mean_points']:>8.2f}  {rate:>16}  "
                     f"{t['mean']:>11.1f}  {choice:>17}  {b['faults']['count']:>6}")
    bots = summary["bots"]
    shown = bots[:1] if len(bots) == 2 else bots
    for b in shown:
        d = b["paired_difference"]
        against = b["paired_difference"]["versus"]
        interval = (f"95% CI [{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}]" if d["ci95"] is not None
                    else "no interval from one deal")
        lines.append(f"paired difference {b['label']} - {against}: {d['mean']:+.3f} {unit} a deal, {interval}, "
                     f"n = {d['n']} deals")
    for b in bots:
        for message in b["faults"]["messages"][:3]:
            lines.append(f"fault of {b['label']}: {message}")
        more = b["faults"]["count"] - min(3, len(b["faults"]["messages"]))
        if more > 0:
            lines.append(f"... and {more} more faults of {b['label']} (see --json)")
    return "\n".join(lines) + "\n"


def write_plot(summary: ArenaSummary, path: str) -> None:
    """A PNG of the running mean paired difference with its 95% band.

    :raises RuntimeError: if matplotlib is not installed (``pip install fiftysix[arena]``).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("--plot needs matplotlib: pip install 'fiftysix[arena]'") from None
    bots = summary["bots"]
    shown = list(range(1 if len(bots) == 2 else len(bots)))
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    settled: list[float] = [0.0]    # what the y-axis must show: the lines and bands once past the first tenth
    for b in shown:
        diffs = [row["scores"][b] - mean([row["scores"][c] for c in range(len(bots)) if c != b])
                 for row in summary["per_deal"]]
        run = running(diffs)
        xs = list(range(1, len(run) + 1))
        label = f"{bots[b]['label']} - {bots[b]['paired_difference']['versus']}"
        line = ax.plot(xs, [r.mean for r in run], label=label)[0]
        band = [(x, r.low, r.high) for x, r in zip(xs, run, strict=True) if r.low is not None and r.high is not None]
        if band:
            ax.fill_between([x for x, _, _ in band], [lo for _, lo, _ in band], [hi for _, _, hi in band],
                            color=line.get_color(), alpha=0.2, label="95% interval")
        skip = max(10, len(run) // 10)
        settled += [r.mean for r in run[skip:]] + [v for x, lo, hi in band if x > skip for v in (lo, hi)]
    ax.axhline(0, color="black", linewidth=0.8)
    if len(settled) > 1:   # the first few deals' wide intervals would squash the rest of the picture
        low, high = min(settled), max(settled)
        pad = 0.1 * (high - low) or 0.5
        ax.set_ylim(low - pad, high + pad)
    rules = summary["rules"] if isinstance(summary["rules"], str) else json.dumps(summary["rules"])
    ax.set_title(f"{rules}: running paired difference over {summary['deals']} duplicate deals")
    ax.set_xlabel("deals")
    ax.set_ylabel(f"{summary['unit']} per deal")
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)


def poolable(docs: Sequence[dict[str, Any]], what: str, keys: tuple[str, ...],
             differ: str = "runs with different {key} cannot be pooled: {a!r} and {b!r}") -> dict[str, Any]:
    """The first of ``docs`` (documents of runs, each a ``what``), checked to agree with the others on ``keys``.

    :raises ValueError: for no documents, or ``differ`` filled with the first key that differs and its values.
    """
    if not docs:
        raise ValueError(f"nothing to pool: give at least one {what}")
    head = docs[0]
    for other in docs[1:]:
        for key in keys:
            if other[key] != head[key]:
                raise ValueError(differ.format(key=key, a=head[key], b=other[key]))
    return head


def pool(summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """One summary of runs that played different deals of the same seed (``--first``): the paired difference
    over all their deals, contracts summed, means weighted by deals; times stay per run, in ``parts``.
    A pooled summary may be pooled again with further runs: its parts are carried over.

    :raises ValueError: naming what differs (game, rules, seed, bots, unit) or a deal played twice.
    """
    head = poolable(summaries, "arena summary", ("game", "rules", "seed", "unit"))
    for other in summaries[1:]:
        if [b["bot"] for b in other["bots"]] != [b["bot"] for b in head["bots"]]:
            raise ValueError("runs of different bots cannot be pooled")
    rows = sorted((row for s in summaries for row in s["per_deal"]), key=lambda row: row["deal"])
    twice = sorted({a["deal"] for a, b in zip(rows, rows[1:], strict=False) if a["deal"] == b["deal"]})
    if twice:
        raise ValueError(f"deals played in more than one run: {twice[:5]}; pool runs of different --first")
    n_bots, n = len(head["bots"]), len(rows)
    bots = []
    for b, named in enumerate(head["bots"]):
        others = [c for c in range(n_bots) if c != b]
        diffs = [row["scores"][b] - mean([row["scores"][c] for c in others]) for row in rows]
        declared = sum(s["bots"][b]["declared"] for s in summaries)
        made = sum(s["bots"][b]["made"] for s in summaries)
        bots.append({
            "bot": named["bot"], "label": named["label"],
            "mean_score": mean([row["scores"][b] for row in rows]),
            "mean_points": sum(s["bots"][b]["mean_points"] * s["deals"] for s in summaries) / n,
            "declared": declared, "made": made, "bid_success": made / declared if declared else None,
            "paired_difference": {**mean_ci(diffs).to_json(), "versus": named["paired_difference"]["versus"]},
        })
    parts = [part for s in summaries for part in _parts(s)]
    return {"game": head["game"], "rules": head["rules"], "seed": head["seed"], "unit": head["unit"],
            "deals": n, "seatings": head["seatings"], "bots": bots, "parts": parts, "per_deal": rows}


def _parts(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The runs a summary stands for: its own ``parts`` when it was pooled, else the run itself."""
    if "parts" in summary:
        return list(summary["parts"])
    return [{"first": summary.get("first", 0), "deals": summary["deals"], "interrupted": summary["interrupted"],
             "workers": summary["workers"], "elapsed_seconds": summary["elapsed_seconds"],
             "time_ms": [b["time_ms"] for b in summary["bots"]]}]
