// Your hand and your move: legal moves highlighted, others disabled; tap to select, then confirm.
import { card, clear, h, pretty, trumpText, SUITS } from "./dom.js";

const show = (el, on) => el.classList.toggle("hidden", !on);
const SPECIAL_WORDS = { P: "Pass", X: "Double", XX: "Redouble", HOLD: "Hold", PP: "Plus pass" };
const OTHER_WORDS = { "?": "Ask for trumps to be turned up", CLAIM: "Claim the rest" };

function suitOf(call) {
  if (/NT|NOES|NOS/.test(call)) return "NT";
  const m = /([SHDC])(\d*)$/.exec(call) || /^([SHDC])\d/.exec(call);
  return m ? m[1] : "other";
}

export function renderHand(S, c, actions, panel) {
  const v = c.v;
  const on = !!(v && v.hand && v.hand.length && c.t.status !== "lobby");
  show(panel, on);
  if (!on) return;
  clear(panel);
  const legal = (S.sentAt === null && v.legal) || [];
  const myTurn = legal.length > 0;
  const discard = myTurn && v.phase === "discard";
  const playing = myTurn && v.phase === "play";
  const row = h("div", { class: "hand", id: "hand" });
  let lastSuit = null;
  v.hand.forEach((cd, i) => {
    const suit = cd.slice(-1);
    if (lastSuit !== null && suit !== lastSuit) row.append(h("span", { class: "gap" }));
    lastSuit = suit;
    if (discard) {
      const key = `${i}:${cd}`;
      const selected = S.selectedCards.includes(key);
      row.append(card(cd, { cls: `legal${selected ? " selected" : ""}`, onclick: () => actions.toggleCard(cd, i) }));
    } else if (playing) {
      const ok = legal.includes(cd);
      const selected = S.selected === cd;
      row.append(card(cd, {
        button: true, disabled: !ok, cls: `${ok ? "legal" : ""}${selected ? " selected" : ""}`,
        onclick: ok ? () => (selected ? actions.confirm(cd) : actions.select(cd)) : null,
      }));
    } else {
      row.append(card(cd));
    }
  });
  panel.append(h("h2", {}, "Your hand"), row);
}

export function renderAction(S, c, actions, panel) {
  const v = c.v;
  const st = c.t.status;
  const legal = (v && S.sentAt === null && v.legal) || [];
  const on = !!v && st === "playing";
  show(panel, on);
  if (!on) return;
  clear(panel);
  panel.classList.toggle("you-move", legal.length > 0);
  if (S.sentAt !== null) {
    panel.append(h("div", { id: "sending" }, "Sent; waiting for the table…"));
    return;
  }
  if (!legal.length) {
    const who = v.to_move === null ? "" : c.nameOf(v.to_move);
    const what = { auction: "call", play: "play", trump: "choose trumps", discard: "discard" }[v.phase] || "move";
    panel.append(h("div", { id: "waiting" }, c.me === null ? `Watching: ${who} to ${what}.` : `Waiting for ${who} to ${what}…`));
    return;
  }
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

function auctionPicker(S, c, actions, panel, legal) {
  panel.append(h("h2", {}, "Your call"));
  const special = (m) => m.kind !== "bid" || m.move in SPECIAL_WORDS;   // PP is a bid shown with the specials
  const specials = movesOf(S, legal).filter(special).map((m) => m.move);
  const bids = movesOf(S, legal).filter((m) => !special(m)).map((m) => m.move);
  const row = h("div", { class: "row", id: "specials" });
  for (const m of specials) {
    row.append(h("button", { class: `choice${S.selected === m ? " selected" : ""}`, "data-move": m,
                            onclick: () => actions.select(m) }, SPECIAL_WORDS[m]));
  }
  panel.append(row);
  if (bids.length) {
    let shown = bids;
    if (bids.length > 16) {
      const groups = [...new Set(bids.map(suitOf))];
      if (!groups.includes(S.tab)) S.tab = S.selected && groups.includes(suitOf(S.selected)) ? suitOf(S.selected) : groups[0];
      const tabs = h("div", { class: "tabs", role: "tablist" });
      for (const g of groups) {
        const label = g === "NT" ? "No trumps" : g === "other" ? "Other" : `${SUITS[g]} ${trumpText(g).split(" ")[1]}`;
        tabs.append(h("button", { class: S.tab === g ? "on" : "", "data-tab": g,
                                 onclick: () => { S.tab = g; actions.rerender(); } }, label));
      }
      panel.append(tabs);
      shown = bids.filter((m) => suitOf(m) === S.tab);
    }
    const grid = h("div", { class: "bids", id: "bids" });
    for (const m of shown) {
      grid.append(h("button", { class: S.selected === m ? "selected" : "", "data-move": m, title: m,
                               onclick: () => actions.select(m) }, pretty(m)));
    }
    panel.append(grid);
  }
  if (S.selected !== null && legal.includes(S.selected)) {
    const m = S.selected;
    const meaning = m in S.meanings ? S.meanings[m] : "…";
    const label = m === "P" ? "Pass" : m in SPECIAL_WORDS ? SPECIAL_WORDS[m] : `Bid ${pretty(m)}`;
    panel.append(confirmBox(label, meaning, () => actions.confirm(m)));
  } else {
    panel.append(h("div", { class: "muted" }, "Select a call to see what it tells the table, then confirm."));
  }
}

function trumpPicker(S, actions, panel, legal) {
  panel.append(h("h2", {}, "Choose trumps"));
  const row = h("div", { class: "row" });
  for (const m of legal) {
    row.append(h("button", { class: `choice${S.selected === m ? " selected" : ""}`, "data-move": m,
                            onclick: () => actions.select(m) }, trumpText(m) || m));
  }
  panel.append(row);
  if (S.selected !== null) panel.append(confirmBox(`Trumps: ${trumpText(S.selected)}`, null, () => actions.confirm(S.selected)));
}

function discardPicker(S, actions, panel, legal) {
  const need = legal[0].split(/\s+/).length;
  const chosen = S.selectedCards.map((k) => k.split(":")[1]);
  panel.append(h("h2", {}, `Put away ${need} cards`),
    h("div", { class: "muted" }, `Tap ${need} cards of your hand below (${chosen.length} chosen).`));
  const key = (cards) => [...cards].sort().join(" ");
  const ok = chosen.length === need && legal.some((m) => key(m.split(/\s+/)) === key(chosen));
  panel.append(h("div", { class: "confirm" }, h("button", { class: "primary", id: "confirm-btn", disabled: !ok,
    onclick: () => actions.confirm(chosen.join(" ")) }, `Discard ${chosen.map(pretty).join(" ")}`)));
}

function playPicker(S, actions, panel, legal) {
  const cards = movesOf(S, legal).filter((m) => m.kind === "card").map((m) => m.move);
  const others = movesOf(S, legal).filter((m) => m.kind !== "card");
  panel.append(h("h2", {}, S.online ? "Your turn: play a card" : "Reconnecting: your card is sent when the table is back"));
  if (S.selected !== null && cards.includes(S.selected)) {
    panel.append(confirmBox(`Play ${pretty(S.selected)}`, null, () => actions.confirm(S.selected)));
  } else {
    panel.append(h("div", { class: "muted" }, "Tap one of the highlighted cards, then confirm (or tap it again)."));
  }
  for (const m of others) {
    panel.append(h("div", { class: "row", style: "margin-top:6px" },
      h("button", { "data-move": m.move, onclick: () => actions.confirm(m.move) }, OTHER_WORDS[m.move] || m.label)));
  }
}
