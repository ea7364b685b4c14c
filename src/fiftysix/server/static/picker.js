// Your hand and your move: legal cards raised, the others greyed (a tap says why); tap to select, then confirm.
import { card, cardName, cardParts, clear, h, pretty, showPanel, suitWord, trumpText, SUITS } from "./dom.js";
import { t, tn } from "./i18n.js";
import { note } from "./notes.js";

const SPECIAL_WORDS = () => ({ P: t("Pass"), X: t("Double"), XX: t("Redouble"), HOLD: t("Hold"), PP: t("Plus pass") });
const OTHER_WORDS = () => ({ "?": t("Ask for trumps to be turned up"), CLAIM: t("Claim the rest") });
const DOING = () => ({ auction: t("call"), play: t("play"), trump: t("choose trumps"), discard: t("discard") });
const HINT_KEY = "fiftysix-hint-promise";
const CONFIRM_KEY = "fiftysix-confirm-cards";     // "1": a card is played only after "Play" (a tap selects it)
const LAST_CARD_MS = 700;                         // a forced last card is played for you after this pause

const confirmCards = () => localStorage.getItem(CONFIRM_KEY) === "1";

function suitOf(call) {
  if (/NT|NOES|NOS/.test(call)) return "NT";
  const m = /([SHDC])(\d*)$/.exec(call) || /^([SHDC])\d/.exec(call);
  return m ? m[1] : "other";
}

/** Why a greyed card may not be played now, in words (from the legal moves and the led suit). */
export function whyNot(S, c, cd) {
  const v = c.v;
  if (!S.online) return t("Reconnecting: wait until the table is back.");
  if (serviceDown(S)) return AWAY();
  if (c.t.paused) return t("The host has paused the table: play goes on when they resume it.");
  if (S.sentAt !== null) return t("Your move is on its way to the table.");
  if (v.to_move !== c.me) {
    const what = DOING()[v.phase] || t("move");
    return v.to_move === null ? t("Nobody is to move now.")
      : t("It is {name}'s turn to {what}.", { name: c.nameOf(v.to_move), what });
  }
  if (v.phase !== "play") return t("First {what}: your cards are played later.", { what: DOING()[v.phase] || t("move") });
  const legal = (v.legal || []).filter((m) => cardParts(m));
  const suits = [...new Set(legal.map((m) => cardParts(m).suit))];
  const led = v.trick && v.trick.cards.length ? cardParts(v.trick.cards[0]) : null;
  if (led && suits.length === 1 && suits[0] === led.suit) return t("You must follow {suit}.", { suit: suitWord(led.suit) });
  if (suits.length === 1) return t("You must play {suit} now.", { suit: suitWord(suits[0]) });
  return t("The rules do not allow {card} now.", { card: cardName(cd) });
}

export function renderHand(S, c, actions, panel) {
  const v = c.v;
  const on = !!(v && v.hand && v.hand.length && c.t.status !== "lobby");
  if (!showPanel(panel, on)) return;
  // a keyboard user keeps their place: the card in focus is focused again after the redraw
  const active = document.activeElement;
  const focusAt = active && panel.contains(active) && active.dataset.index !== undefined ? active.dataset.index : null;
  clear(panel);
  const legal = (S.sentAt === null && !c.t.paused && !serviceDown(S) && v.legal) || [];
  const myTurn = legal.length > 0;
  const discard = myTurn && v.phase === "discard";
  const playing = myTurn && v.phase === "play";
  const row = h("div", { class: "hand", id: "hand", style: `--n:${v.hand.length}` });
  const why = h("div", { class: "why", id: "card-why", role: "status" }, S.why || "");
  const explain = (cd) => { S.why = whyNot(S, c, cd); why.textContent = S.why; };
  let lastSuit = null;
  v.hand.forEach((cd, i) => {
    const suit = cd.slice(-1);
    const newSuit = lastSuit !== null && suit !== lastSuit;
    lastSuit = suit;
    let el;
    if (discard) {
      const key = `${i}:${cd}`;
      const selected = S.selectedCards.includes(key);
      el = card(cd, { cls: `legal${selected ? " selected" : ""}`, pressed: selected ? "true" : "false",
                      onclick: () => actions.toggleCard(cd, i) });
    } else if (playing && legal.includes(cd)) {
      const selected = S.selected === cd;
      // one tap plays the card; with "confirm each card" on, a tap selects it and a second tap (or Play) plays it
      el = card(cd, { cls: `legal${selected ? " selected" : ""}`, pressed: selected ? "true" : "false",
                      onclick: () => {
                        S.why = "";
                        if (selected || !confirmCards()) actions.confirm(cd); else actions.select(cd);
                      } });
    } else {
      // greyed, yet a button: a tap (or Enter) says why it cannot be played, or whose turn it is
      el = card(cd, { button: true, ariaDisabled: true, cls: playing ? "illegal" : "idle", onclick: () => explain(cd) });
    }
    if (newSuit) el.classList.add("suit-start");
    el.dataset.index = String(i);
    row.append(el);
  });
  panel.append(h("h2", { class: "sr-only" }, t("Your hand")), row, why);
  if (playing && v.hand.length === 1 && legal.includes(v.hand[0])) playLastCard(S, v, actions);
  if (focusAt !== null) {
    const again = row.querySelector(`[data-index="${focusAt}"]`) || row.querySelector("button");
    if (again) again.focus();
  }
}

/** Your last card is forced: it is played for you, once, after a short pause (the move is yours as ever). */
function playLastCard(S, v, actions) {
  const key = `${v.dealer}:${v.tricks.length}:${v.hand[0]}`;
  if (S.lastCardFor === key) return;
  S.lastCardFor = key;
  setTimeout(() => {
    const now = S.view;
    if (!now || S.sentAt !== null || now.hand.length !== 1 || now.hand[0] !== v.hand[0] ||
        !(now.legal || []).includes(v.hand[0])) return;
    actions.confirm(v.hand[0]);
    note("acted", t("Your last card, {card}, was played for you.", { card: pretty(v.hand[0]) }));
  }, LAST_CARD_MS);
}

/** The server's database or Redis is not answering (its `service` messages): no move can be stored now. */
/** Why a card stays in the hand while the server's database is away (a tap, or a card sent and refused). */
export const AWAY = () => t("Not played: the table is waiting for the server's database. Your card stays in your hand; play goes on when it is back.");

export const serviceDown = (S) => Object.keys(S.services || {}).length > 0;

export function renderAction(S, c, actions, panel) {
  const v = c.v;
  const st = c.t.status;
  const legal = (v && S.sentAt === null && !c.t.paused && !serviceDown(S) && v.legal) || [];
  // while the server's database or Redis is away the banner alone speaks: no "your turn" that cannot be taken
  const on = !!v && st === "playing" && !serviceDown(S);
  if (!on) panel.classList.remove("you-move");
  if (!showPanel(panel, on)) return;
  clear(panel);
  if (c.t.paused) {     // no move is taken while paused: say so, not "your turn"
    panel.classList.remove("you-move");
    panel.append(h("div", { id: "waiting", class: "paused" },
      t("The host has paused the table: play goes on when they resume it.")));
    if (S.you && S.you.host) {
      panel.append(h("button", { class: "primary", id: "resume-btn", onclick: () => actions.send({ type: "resume" }) },
        t("Resume the table")));
    }
    return;
  }
  panel.classList.toggle("you-move", legal.length > 0);
  panel.classList.toggle("offline", !S.online);
  if (S.sentAt !== null) {
    panel.append(h("div", { id: "sending" }, S.online ? t("Sent; waiting for the table…")
      : t("Reconnecting… your move is sent when the table is back.")));
    return;
  }
  if (!legal.length) {
    const who = v.to_move === null ? "" : c.nameOf(v.to_move);
    const what = DOING()[v.phase] || t("move");
    let text;
    if (!S.online) text = t("Reconnecting…");
    else if (c.me === null) text = t("Watching: {name} to {what}.", { name: who, what });
    else text = t("Waiting for {name} to {what}…", { name: who, what });
    panel.append(h("div", { id: "waiting" }, text));
    return;
  }
  if (!S.online) panel.append(h("div", { class: "offline-note" }, t("Reconnecting: you may choose now; it is sent when the table is back.")));
  if (v.phase === "auction") auctionPicker(S, c, actions, panel, legal);
  else if (v.phase === "trump") trumpPicker(S, actions, panel, legal);
  else if (v.phase === "discard") discardPicker(S, actions, panel, legal);
  else playPicker(S, actions, panel, legal);
}

function confirmBox(label, meaning, onclick, id = "confirm-btn") {
  return h("div", { class: "confirm" },
    meaning ? h("div", { class: "meaning", id: "meaning" }, meaning) : null,
    h("button", { class: "primary", id, onclick }, label));
}

// The structured legal moves of the message (the view's `legal`, with kind, suit and label from the game).
function movesOf(S, legal) { return (S.legalMoves || []).filter((m) => legal.includes(m.move)); }

/** Cards a call's meaning says the bidder holds ("holds the top one (J♥)"), that this hand does not hold. */
export function promisedMissing(meaning, hand) {
  if (!meaning || !/holds/.test(meaning)) return [];
  const symbols = Object.fromEntries(Object.entries(SUITS).map(([k, s]) => [s, k]));
  const held = new Set(hand.map((cd) => cd.replace(/^10/, "T")));
  const missing = [];
  for (const m of meaning.matchAll(/\b(10|[2-9TJQKA])([♠♥♦♣])/g)) {
    const cd = `${m[1] === "10" ? "T" : m[1]}${symbols[m[2]]}`;
    if (!held.has(cd)) missing.push(`${m[1]}${m[2]}`);
  }
  return missing;
}

function promiseHint(S, meaning, hand) {
  if (localStorage.getItem(HINT_KEY) || S.hintClosed) return null;
  const missing = promisedMissing(meaning, hand);
  if (!missing.length) return null;
  const box = h("div", { class: "hint", id: "promise-hint", role: "note" },
    h("p", {}, t("This bid tells the table you hold {cards}, which you do not. The rules allow it, but your partner will count on it.",
      { cards: missing.join(" ") })),
    h("button", { type: "button", id: "hint-close", onclick: () => {
      localStorage.setItem(HINT_KEY, "1"); S.hintClosed = true; box.remove();
    } }, t("Got it")));
  return box;
}

/** 28♥ and ♥28 are different calls (the form is a public convention): the suit-first form is drawn apart, and
 *  a screen reader hears the two in their written order with the suit in words. */
function bidForm(m) {
  const first = /^([SHDC])(\d+)$/.exec(m);
  if (first) return { cls: " suit-first", label: `${suitWord(first[1])} ${first[2]}` };
  const after = /^(\d+)([SHDC])$/.exec(m);
  return { cls: "", label: after ? `${after[1]} ${suitWord(after[2])}` : pretty(m) };
}

function auctionPicker(S, c, actions, panel, legal) {
  const words = SPECIAL_WORDS();
  panel.append(h("h2", {}, S.online ? t("Your call") : t("Your call (reconnecting)")));
  const special = (m) => m.kind !== "bid" || m.move in words;   // PP is a bid shown with the specials
  const specials = movesOf(S, legal).filter(special).map((m) => m.move);
  const bids = movesOf(S, legal).filter((m) => !special(m)).map((m) => m.move);
  const row = h("div", { class: "row", id: "specials" });
  const supported = (S.suggested || []).filter((m) => legal.includes(m));
  for (const m of specials) {
    // a suggested special call (most often Pass) is marked where it stands, not shown a second time below
    const mark = supported.includes(m) ? { "data-suggested": "1", title: t("Your hand supports:") } : {};
    row.append(h("button", { class: `choice${S.selected === m ? " selected" : ""}${mark.title ? " supported" : ""}`,
                            "data-move": m, ...mark,
                            "aria-pressed": S.selected === m ? "true" : "false", onclick: () => actions.select(m) }, words[m] || m));
  }
  panel.append(row);
  // the call the hand supports (the rule-of-thumb player's, from the server) first, one tap away; the full list
  // of bids folds away below it
  const suggested = supported.filter((m) => !specials.includes(m));
  if (suggested.length) {
    const line = h("div", { class: "row suggest", id: "suggest" }, h("span", { class: "muted" }, t("Your hand supports:")));
    for (const m of suggested) {
      line.append(h("button", { class: `choice${S.selected === m ? " selected" : ""}`, "data-move": m, "data-suggested": "1",
                                "aria-pressed": S.selected === m ? "true" : "false", onclick: () => actions.select(m) },
                    words[m] || t("Bid {bid}", { bid: pretty(m) })));
    }
    panel.append(line);
  }
  if (bids.length) {
    const fold = h("details", { class: "all-bids", id: "all-bids", open: S.allBidsOpen ?? !supported.length },
      h("summary", {}, t("All bids ({n})", { n: bids.length })));
    fold.addEventListener("toggle", () => { S.allBidsOpen = fold.open; });
    panel.append(fold);
    let shown = bids;
    if (bids.length > 16) {
      const groups = [...new Set(bids.map(suitOf))];
      if (!groups.includes(S.tab)) S.tab = S.selected && groups.includes(suitOf(S.selected)) ? suitOf(S.selected) : groups[0];
      const tabs = h("div", { class: "tabs", role: "tablist" });
      for (const g of groups) {
        const label = g === "NT" ? t("No trumps") : g === "other" ? t("Other") : `${SUITS[g]} ${suitWord(g)}`;
        tabs.append(h("button", { class: S.tab === g ? "on" : "", "data-tab": g, role: "tab",
                                 "aria-selected": S.tab === g ? "true" : "false",
                                 onclick: () => { S.tab = g; actions.rerender(); } }, label));
      }
      fold.append(tabs);
      shown = bids.filter((m) => suitOf(m) === S.tab);
    }
    const grid = h("div", { class: "bids", id: "bids" });
    for (const m of shown) {
      const form = bidForm(m);
      grid.append(h("button", { class: `${S.selected === m ? "selected" : ""}${form.cls}`, "data-move": m, title: m,
                               "aria-label": form.label, "aria-pressed": S.selected === m ? "true" : "false",
                               onclick: () => actions.select(m) }, pretty(m)));
    }
    fold.append(grid);
  }
  if (S.selected !== null && legal.includes(S.selected)) {
    const m = S.selected;
    const meaning = m in S.meanings ? S.meanings[m] : "…";
    const label = m === "P" ? t("Pass") : m in words ? words[m] : t("Bid {bid}", { bid: pretty(m) });
    panel.append(confirmBox(label, meaning, () => actions.confirm(m)));
    const hint = promiseHint(S, S.meanings[m], c.v.hand || []);
    if (hint) panel.append(hint);
  } else {
    panel.append(h("div", { class: "muted" }, t("Select a call to see what it tells the table, then confirm.")));
  }
}

function trumpPicker(S, actions, panel, legal) {
  panel.append(h("h2", {}, t("Choose trumps")));
  const row = h("div", { class: "row" });
  for (const m of legal) {
    row.append(h("button", { class: `choice${S.selected === m ? " selected" : ""}`, "data-move": m,
                            "aria-pressed": S.selected === m ? "true" : "false",
                            onclick: () => actions.select(m) }, trumpText(m) || m));
  }
  panel.append(row);
  if (S.selected !== null) panel.append(confirmBox(t("Trumps: {trump}", { trump: trumpText(S.selected) }), null, () => actions.confirm(S.selected)));
}

function discardPicker(S, actions, panel, legal) {
  const need = legal[0].split(/\s+/).length;
  const chosen = S.selectedCards.map((k) => k.split(":")[1]);
  panel.append(h("h2", {}, tn("Put away {n} card", "Put away {n} cards", need)),
    h("div", { class: "muted" }, t("Tap {need} of your cards below ({chosen} chosen).", { need, chosen: chosen.length })));
  const key = (cards) => [...cards].sort().join(" ");
  const ok = chosen.length === need && legal.some((m) => key(m.split(/\s+/)) === key(chosen));
  panel.append(h("div", { class: "confirm" }, h("button", { class: "primary", id: "confirm-btn", disabled: !ok,
    onclick: () => actions.confirm(chosen.join(" ")) }, t("Discard {cards}", { cards: chosen.map(pretty).join(" ") }))));
}

function playPicker(S, actions, panel, legal) {
  const cards = movesOf(S, legal).filter((m) => m.kind === "card").map((m) => m.move);
  const others = movesOf(S, legal).filter((m) => m.kind !== "card");
  const words = OTHER_WORDS();
  panel.append(h("h2", {}, S.online ? t("Your turn: play a card") : t("Reconnecting: your card is sent when the table is back")));
  if (S.selected !== null && cards.includes(S.selected)) {
    panel.append(confirmBox(t("Play {card}", { card: pretty(S.selected) }), null, () => actions.confirm(S.selected)));
  } else {
    panel.append(h("div", { class: "muted" }, confirmCards() ? t("Tap one of the raised cards, then confirm (or tap it again).")
      : t("Tap one of the raised cards to play it.")));
  }
  const box = h("input", { type: "checkbox", id: "confirm-cards", checked: confirmCards(),
    onchange: () => { localStorage.setItem(CONFIRM_KEY, box.checked ? "1" : "0"); S.selected = null; actions.rerender(); } });
  panel.append(h("label", { class: "row muted", for: "confirm-cards" }, box, t("Confirm each card before it is played")));
  for (const m of others) {
    panel.append(h("div", { class: "row", style: "margin-top:6px" },
      h("button", { "data-move": m.move, onclick: () => actions.confirm(m.move) }, words[m.move] || m.label)));
  }
}
