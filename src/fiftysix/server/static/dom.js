// Small DOM helpers. User data (names) only ever goes in as text: never innerHTML.

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

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_WORDS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs", NT: "no trumps" };

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
  const label = p ? `${p.rank} of ${SUIT_WORDS[p.suit]}` : text;
  const inner = p ? [h("span", { class: "r" }, p.rank), h("span", { class: "s" }, SUITS[p.suit])] : [text];
  if (opts.onclick || opts.button) {
    return h("button", { class: cls, "aria-label": label, "data-card": text, disabled: opts.disabled,
                         onclick: opts.onclick }, inner);
  }
  return h("span", { class: cls, "aria-label": label, title: label, "data-card": text }, inner);
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
  if (trump === "NT") return "no trumps";
  return `${SUITS[trump] || ""} ${SUIT_WORDS[trump] || trump}`;
}
