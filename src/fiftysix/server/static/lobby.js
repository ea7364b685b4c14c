// Finding a game: the server's public tables with a free seat (/api/lobby), on the start page. Private and club
// tables never appear there. Asked again every 20 s while the page is in view.
import { botWord, clear, h, ratingFigure, ratingNote } from "./dom.js";
import { t } from "./i18n.js";

const list = document.getElementById("lobby-list");

// The host's rating in the table's game as every page shows one: the server's figure, "1500?" while provisional.
function hostRating(r) {
  if (!r) return t("not rated yet");
  return [`${t("rating")} `, ratingFigure(r.display, r.provisional)];
}

function row(table) {
  const computers = table.bot ? t("computers: {level}", { level: botWord(table.bot, table.level) }) : t("no computers");
  return h("li", {},
    h("a", { href: table.url }, table.name), " ",
    h("span", { class: "muted" }, t("{game} · {preset} · seats free: {free} · {computers} · host {host}",
      { game: table.game, preset: table.preset || "", free: table.free, computers, host: table.host }),
      " ", h("span", { class: "host-rating" }, "(", hostRating(table.host_rating), ")")));
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
    const note = document.getElementById("lobby-rating-note");
    if (note) note.remove();
    if (tables.some((table) => table.host_rating)) list.after(Object.assign(ratingNote(), { id: "lobby-rating-note" }));
  } catch (_) { /* offline: the list stays as it was */ }
}

refresh();
setInterval(refresh, 20000);
