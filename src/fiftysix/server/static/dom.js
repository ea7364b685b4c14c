// Small DOM helpers. User data (names) only ever goes in as text: never innerHTML.
import { t } from "./i18n.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "style") el.style.cssText = value;   // CSSOM: allowed by the CSP, a style="" attribute is not
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Show or hide a panel that is drawn afresh each time; a hidden one is emptied, so nothing stale (the last
 * deal's "Next deal" button or hand) stays in the page behind it.  Returns ``on``. */
export function showPanel(panel, on) {
  panel.classList.toggle("hidden", !on);
  if (!on) clear(panel);
  return on;
}

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
/** "hearts": a suit (or NT) in words, in the language in use. */
export function suitWord(suit) {
  return ({ S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs"), NT: t("no trumps") })[suit];
}

/** "jack of spades": a card named for a screen reader. */
export function cardName(text) {
  const p = cardParts(text);
  if (!p) return text;
  const ranks = { A: t("ace"), K: t("king"), Q: t("queen"), J: t("jack"), 10: t("ten"), 9: t("nine"), 8: t("eight"),
    7: t("seven"), 6: t("six"), 5: t("five"), 4: t("four"), 3: t("three"), 2: t("two") };
  const suits = { S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs") };
  return t("{rank} of {suit}", { rank: ranks[p.rank] || p.rank, suit: suits[p.suit] });
}

const CARD_RE = /^(10|[2-9TJQKA])([SHDC])$/;

export function isCard(text) {
  return CARD_RE.test(text);
}

export function cardParts(text) {
  const m = CARD_RE.exec(text);
  if (!m) return null;
  return { rank: m[1] === "T" ? "10" : m[1], suit: m[2] };
}

/** A card face: a button when onclick is given, else a span. */
export function card(text, opts = {}) {
  const p = cardParts(text);
  const red = p && (p.suit === "H" || p.suit === "D");
  const cls = ["card", red ? "red" : "black", opts.small ? "small" : "", opts.cls || ""].join(" ");
  const label = opts.label || cardName(text);
  // the name is read from a visually hidden span (not aria-label), so it holds the visible text too (axe)
  const inner = p ? [h("span", { class: "r", "aria-hidden": "true" }, p.rank),
                     h("span", { class: "s", "aria-hidden": "true" }, SUITS[p.suit]),
                     h("span", { class: "sr-only" }, label)] : [text];
  if (opts.onclick || opts.button) {
    return h("button", { type: "button", class: cls, "data-card": text, disabled: opts.disabled,
                         "aria-disabled": opts.ariaDisabled ? "true" : null, "aria-pressed": opts.pressed,
                         onclick: opts.onclick }, inner);
  }
  return h("span", { class: cls, title: label, "data-card": text }, inner);
}

/** Notation made friendlier: suit letters as symbols (28H -> 28♥). */
export function pretty(text) {
  if (text === null || text === undefined) return "";
  if (isCard(text)) {
    const p = cardParts(text);
    return p.rank + SUITS[p.suit];
  }
  return String(text).replace(/NT/g, "NT").replace(/([0-9+\-]|^)([SHDC])(?![A-Z])/g, (_, a, s) => a + SUITS[s])
    .replace(/^([SHDC])(\d)/, (_, s, d) => SUITS[s] + d);
}

export function trumpText(trump) {
  if (!trump) return "";
  if (trump === "NT") return t("no trumps");
  return `${SUITS[trump] || ""} ${suitWord(trump) || trump}`;
}

/** A computer player in words: its level ("a computer player (expert)"), else the program's name. */
export function botWord(bot, level) {
  const levels = { beginner: t("beginner"), club: t("club player"), expert: t("expert") };
  return level && levels[level] ? levels[level] : program(bot);
}

/** A computer of no level by its one name on every page (the table numbers it by seat): "Random computer" in the
 * page's language ("random" is an English word), else the program's own name, else "Computer" (issue 57). */
function program(bot) {
  if (bot === "random") return t("Random computer");
  return bot ? `“${bot}”` : t("Computer");
}

const COLOR_WORDS = () => [t("Blue"), t("Red"), t("Green"), t("Orange"), t("Purple"), t("Teal"), t("Pink"),
  t("Grey"), t("Cyan")];
/** A team's colour in words, as the table colours it (its seats' team: 0 Blue, 1 Red, ...). */
export const colorWord = (team) => COLOR_WORDS()[team % 9];

/** A computer player's one name outside a table's seats: its level as the table names it ("Club player"). */
export function levelName(level, bot) {
  const levels = { beginner: t("Beginner"), club: t("Club player"), expert: t("Expert") };
  return level && levels[level] ? levels[level] : program(bot);
}

/** The one rating figure every page shows (the server's ``display``): "1540", or "1500?" while provisional. */
export function ratingFigure(display, provisional) {
  return h("span", { class: "rating-figure", title: provisional ? t("provisional: fewer than 10 rated matches") : null },
    provisional ? `${display}?` : String(display));
}

/** The sentence every page that shows a rating carries, with its link to the explanation. */
export function ratingNote() {
  return h("p", { class: "muted rating-note" },
    t("Ratings start at 1500, rise with wins and fall with losses; a ? marks one still provisional."), " ",
    h("a", { href: "/history#rating-help" }, t("What the rating means")));
}

/** The one date format of the history, club and lobby pages: the reader's locale's short date. */
export function dateText(unix) {
  return new Date(unix * 1000).toLocaleDateString();
}

/** A table's message with its computer players named in the page's language ("Bot 2" is the server's English):
 * the name they have on every other page, numbered by seat ("Club player 2", "Random computer 3"). */
export function localNames(table) {
  if (!table || !table.seats) return table;
  const named = { beginner: (n) => t("Beginner {n}", { n }), club: (n) => t("Club player {n}", { n }),
                  expert: (n) => t("Expert {n}", { n }) };
  for (const seat of table.seats) {
    if (seat.kind !== "bot") continue;
    seat.name = named[seat.level] ? named[seat.level](seat.seat)
      : t("{computer} {n}", { computer: program(seat.bot), n: seat.seat });
  }
  return table;
}

/** The name this device's player goes by, as the server knows it (the cookie's player), remembered for the name
 * fields; "" and forgotten when the device has no player (signed out, or never named). One name on every page. */
export async function knownName() {
  try {
    const res = await fetch("/api/player", { cache: "no-store" });
    const me = res.ok ? await res.json() : null;
    if (me && me.name) localStorage.setItem("fiftysix-name", me.name);
    else if (me) localStorage.removeItem("fiftysix-name");
  } catch (_) { /* offline: what the device remembers */ }
  return localStorage.getItem("fiftysix-name") || "";
}

// A "Copy link" button for a read-only box holding `url`: the clipboard where the page may use it, else the link
// selected for the person to copy; `status` says which.
export function copyButton(link, url, status, id) {
  return h("button", { type: "button", class: "primary", id, onclick: () => {
    link.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(() => { status.textContent = t("Link copied."); },
                                              () => { status.textContent = t("Select the link and copy it."); });
    } else {
      status.textContent = t("Select the link and copy it.");
    }
  } }, t("Copy link"));
}
