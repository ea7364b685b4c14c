// Finding a game: the server's public tables with a free seat (/api/lobby), on the start page. Private and club
// tables never appear there. Asked again every 20 s while the page is in view.
import { botWord, clear, h } from "./dom.js";
import { t } from "./i18n.js";

const list = document.getElementById("lobby-list");

// The host's rating in the table's game as the club leaderboard shows one: mu - 3 sigma ± 3 sigma, and the mark
// while it is provisional.
function hostRating(r) {
  if (!r) return t("not rated yet");
  const shown = t("rating {rating} ± {sigma}", { rating: r.shown.toFixed(1), sigma: (3 * r.sigma).toFixed(1) });
  return r.provisional ? `${shown} · ${t("provisional")}` : shown;
}

function row(table) {
  const computers = table.bot ? t("computers: {level}", { level: botWord(table.bot, table.level) }) : t("no computers");
  return h("li", {},
    h("a", { href: table.url }, table.name), " ",
    h("span", { class: "muted" }, t("{game} · {preset} · seats free: {free} · {computers} · host {host}",
      { game: table.game, preset: table.preset || "", free: table.free, computers, host: table.host }),
      " ", h("span", { class: "host-rating" }, `(${hostRating(table.host_rating)})`)));
}

async function refresh() {
  if (document.hidden) return;
  try {
    const res = await fetch("/api/lobby");
    if (!res.ok) return;
    const tables = (await res.json()).tables;
    clear(list);
    if (!tables.length) list.append(h("li", { class: "muted" }, t("No public table has a free seat now.")));
    for (const table of tables) list.append(row(table));
  } catch (_) { /* offline: the list stays as it was */ }
}

refresh();
setInterval(refresh, 20000);
