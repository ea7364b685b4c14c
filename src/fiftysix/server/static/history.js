// A person's history: ratings (with their uncertainty), stats by game, results by partner, and every finished
// match with links to each deal's record and review. /history is your own; /history?p=ID someone you played with.
import { clear, dateText, h, levelName, ratingFigure, ratingNote } from "./dom.js";
import { formatNumber, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const who = new URLSearchParams(location.search).get("p") || "me";
const H = { matches: [], more: false };

function showError(text) {
  const el = $("hs-error");
  el.textContent = text;
  el.classList.toggle("hidden", !text);
}

const percent = (a, b) => (b ? `${Math.round((100 * a) / b)}%` : "–");

function renderRatings(ratings) {
  const box = clear($("hs-ratings"));
  box.append(h("h2", {}, t("Ratings")));
  const games = Object.keys(ratings);
  if (!games.length) {
    box.append(h("p", {}, t("No rated match yet: a finished match counts when the other side is all computer " +
      "players or has a person with an established rating.")));
    return;
  }
  for (const game of games) {
    const r = ratings[game];
    // "daily-56": the day's own rating (today's deals, each day's set ranked against everyone who played it)
    const daily = game.startsWith("daily-");
    const label = daily ? `${t("Today's deals")} ${game.slice("daily-".length)}` : game;
    box.append(h("p", { class: "rating", "data-family": game }, `${label}: `, ratingFigure(r.display, r.provisional),
      " · ", daily ? t("rated days: {n}", { n: r.matches }) : t("rated matches: {n}", { n: r.matches })));
  }
  box.append(ratingNote());
}

function renderStats(stats) {
  const box = clear($("hs-stats"));
  box.append(h("h2", {}, t("Stats")));
  for (const [game, s] of Object.entries(stats)) {
    box.append(h("h3", {}, game));
    box.append(h("p", {}, t("Matches {matches}, won {won}; deals played {deals}", s)));
    box.append(h("p", {}, t("Contracts declared {declared}, made {made} ({share})",
      { declared: s.declared, made: s.made, share: percent(s.made, s.declared) })));
    box.append(h("p", {}, game === "56" ? t("Tables a deal on average: {n}", { n: formatNumber(s.per_deal) })
      : t("Points a deal on average: {n}", { n: formatNumber(s.per_deal) })));
    const forms = Object.entries(s.forms);
    if (forms.length) {
      box.append(h("p", {}, t("By bid form:"), " ", forms.map(([f, v]) => `${f} ${v.made}/${v.declared}`).join(" · ")));
    }
    if (s.partners.length) {
      box.append(h("p", {}, t("Results by partner:")));
      box.append(h("ul", {}, ...s.partners.map((p) => h("li", {},
        t("{name}: {won} won of {matches}", { name: p.name || t("a former player"), won: p.won, matches: p.matches })))));
    }
  }
}

function renderMatch(m) {
  const result = m.won ? t("match won") : t("match lost");
  const r = m.rating;
  const change = r && r.display_change !== undefined ? (r.display_change > 0 ? `+${r.display_change}` : String(r.display_change)) : "";
  const rating = r && r.display_before !== undefined ? ` · ${t("rating {before} → {after} ({change})", {
    before: r.display_before, after: r.display_after, change })}` : "";
  const levels = m.computer_levels || { partners: [], opponents: [] };
  const computers = (bots, found) => bots.map((bot, i) => levelName(found[i], bot));
  const partners = [...m.partners.map((p) => p.name || t("a former player")),
    ...computers(m.computers.partners, levels.partners)];
  const opponents = [...m.opponents.map((p) => p.name || t("a former player")),
    ...computers(m.computers.opponents, levels.opponents)];
  return h("li", { class: "match" },
    h("p", { class: "match-line" }, `${dateText(m.finished)} · ${m.game} · ${m.preset} · ${result}${rating}`),
    h("p", {}, t("Partners: {names}", { names: partners.join(", ") || "–" })),
    h("p", {}, t("Opponents: {names}", { names: opponents.join(", ") || "–" })),
    h("p", { class: "deals" }, t("Deals:"), " ", ...m.deals.flatMap((d) => [
      h("a", { href: d.review }, t("review {n}", { n: d.number })), " ",
      h("a", { href: d.record, download: "" }, t("record")), " "])));
}

function renderMatches() {
  const box = clear($("hs-matches"));
  box.append(h("h2", {}, t("Finished matches")));
  if (!H.matches.length) box.append(h("p", {}, t("No finished match yet.")));
  box.append(h("ul", { class: "matches" }, ...H.matches.map(renderMatch)));
  if (H.more) box.append(h("button", { type: "button", onclick: () => load(H.matches.at(-1).finished) }, t("More")));
}

async function load(before) {
  showError("");
  const query = before ? `?before=${before}` : "";
  try {
    const res = await fetch(`/api/players/${encodeURIComponent(who)}/history${query}`);
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
    if (!before) {
      $("hs-title").textContent = data.you ? t("Your history") : t("History");
      renderRatings(data.ratings);
      renderStats(data.stats);
      H.matches = [];
    }
    H.matches.push(...data.matches);
    H.more = data.more;
    renderMatches();
  } catch (e) { showError(String(e.message || e)); }
}

document.title = `${t("History")} · fiftysix`;
load(null);
