// The table's extras drawn on top of the page after every render: the turn clock on a seat, reactions, host
// controls. render.js calls renderExtras(S, c, actions) last; seats are found by their data-seat attribute
// (a deal seat), their badges in `.seat-badges` (else `.meta`).
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { renderClock } from "./clock.js";
import { renderReactions } from "./reactions.js";

function panel() {
  let el = document.getElementById("controls-panel");
  if (!el) {
    el = h("section", { class: "panel", id: "controls-panel" });
    document.getElementById("action-panel").after(el);
  }
  return el;
}

export function renderExtras(S, c, actions) {
  const box = panel();
  let mine = box.querySelector("#extras");
  if (!mine) { mine = h("div", { id: "extras" }); box.append(mine); }
  clear(mine);
  if (S.table.paused) mine.append(h("p", { class: "paused-note", id: "paused-note" }, t("The host has paused the table.")));
  renderClock(S, c);
  renderReactions(S, c, actions, mine);
  renderHostControls(S, c, actions, mine);
  renderReviewLink(S, mine);
  box.classList.toggle("hidden", !mine.childNodes.length && box.childNodes.length === 1);
}

function renderHostControls(S, c, actions, box) {
  const table = S.table;
  if (!S.you || !S.you.host || table.status === "lobby") return;
  const rows = [];
  rows.push(h("button", { id: "pause-btn", type: "button",
                          onclick: () => actions.send({ type: table.paused ? "resume" : "pause" }) },
              table.paused ? t("Resume the table") : t("Pause the table")));
  for (const seat of table.seats) {
    if (seat.kind !== "player" || seat.seat === S.you.seat) continue;
    rows.push(h("div", { class: "row host-seat", "data-host-seat": seat.seat },
      h("span", { class: "grow" }, seat.name),
      h("button", { type: "button", "data-replace": seat.seat,
                    onclick: () => actions.send({ type: "replace", seat: seat.seat }) }, t("Replace by a bot")),
      h("button", { type: "button", "data-make-host": seat.seat,
                    onclick: () => actions.send({ type: "host", seat: seat.seat }) }, t("Make host"))));
  }
  // drawn afresh at every message: it stays open (or closed) as the host left it
  const details = h("details", { class: "host-controls", id: "host-controls", open: !!S.hostControlsOpen },
    h("summary", {}, t("Host controls")), ...rows);
  details.addEventListener("toggle", () => { S.hostControlsOpen = details.open; });
  box.append(details);
}

function renderReviewLink(S, box) {
  const last = S.table.last_deal;
  if (!last) return;
  const key = S.key && !(S.you && S.you.joined) ? `#k=${encodeURIComponent(S.key)}` : "";
  box.append(h("p", { class: "review-link" },
    h("a", { id: "review-link", href: `/review?table=${encodeURIComponent(S.table.code)}&deal=${last.number}${key}`,
             target: "_blank", rel: "noopener" }, t("Review deal {n}: every hand, every trick, every card's cost",
                                                     { n: last.number }))));
}
