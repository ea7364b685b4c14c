// Reactions: a few preset signs and short phrases (no free text, so nothing about the cards can be said).
// Each is shown on its sender's seat for a few seconds, and in a short list for everyone.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatBadges } from "./seat-badges.js";

const SHOW_MS = 4000;
// the server's list (server/reactions.py): signs as they are, phrases through t() (English ids)
const PHRASES = {
  "Well played": () => t("Well played"), "Good luck": () => t("Good luck"), Thanks: () => t("Thanks"),
  Sorry: () => t("Sorry"), Oops: () => t("Oops"), "Nice trick": () => t("Nice trick"),
};
const SIGNS = ["😄", "😮", "😅", "😎", "😢", "❤"];
const label = (r) => (PHRASES[r] ? PHRASES[r]() : r);

const recent = [];     // {seat, name, reaction, until}
let rerender = null;

/** A reaction message from the server (table.js passes it on). */
export function noteReaction(msg) {
  recent.push({ seat: msg.seat, name: msg.name, reaction: msg.reaction, until: Date.now() + SHOW_MS });
  while (recent.length > 6) recent.shift();
  setTimeout(() => rerender && rerender(), SHOW_MS + 50);
}

export function renderReactions(S, c, actions, box) {
  rerender = actions.rerender;
  const now = Date.now();
  const live = recent.filter((r) => r.until > now);
  for (const r of live) {
    const ds = r.seat === null ? -1 : S.table.deal_seats.indexOf(r.seat);
    const badges = ds >= 0 ? seatBadges(ds) : null;
    if (badges) badges.append(h("span", { class: "badge reaction", "data-reaction-seat": r.seat }, label(r.reaction)));
  }
  if (live.length) {
    box.append(h("div", { class: "reaction-log", id: "reaction-log", "aria-live": "polite" },
      live.map((r) => h("span", { class: "reaction-item" }, `${r.name}: ${label(r.reaction)}`))));
  }
  if (!S.you || !S.you.joined) return;
  const send = (reaction) => actions.send({ type: "react", reaction });
  box.append(h("div", { class: "reaction-bar row", id: "reaction-bar", role: "group", "aria-label": t("Reactions") },
    SIGNS.map((s) => h("button", { type: "button", class: "react", "data-react": s, onclick: () => send(s) }, s)),
    Object.keys(PHRASES).map((p) => h("button", { type: "button", class: "react phrase", "data-react": p,
                                                  onclick: () => send(p) }, label(p)))));
}
