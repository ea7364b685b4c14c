// Asking to see a hand (issue 43): a watcher asks a seated person; the person allows, refuses or allows always;
// the hand then reaches that watcher alone (server/peek.py).  A watcher who has seen a hand may not sit at the
// table until the match ends.
import { card, clear, h } from "./dom.js";
import { t } from "./i18n.js";

// to me (seated); shown to me; refused to me; asked by me and not yet answered (kept across table updates)
export const peeks = { asks: [], hands: {}, refused: {}, asked: {} };

/** A socket message about asking to see a hand: true when it was one. */
export function onPeekMessage(msg) {
  if (msg.type === "peek_ask") {
    peeks.asks = peeks.asks.filter((a) => !(a.watcher === msg.watcher && a.seat === msg.seat)).concat([msg]);
  } else if (msg.type === "peek_hand") {
    peeks.hands[msg.seat] = msg.hand;
    delete peeks.refused[msg.seat];
    delete peeks.asked[msg.seat];
  } else if (msg.type === "peek_refused") {
    peeks.refused[msg.seat] = true;
    delete peeks.asked[msg.seat];
  } else {
    return false;
  }
  return true;
}

async function post(S, path, body) {
  const query = S.key ? `?k=${encodeURIComponent(S.key)}` : "";
  const res = await fetch(`/api/tables/${encodeURIComponent(S.code)}/${path}${query}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  return res.ok ? data : { error: data.error || data.message || res.statusText };
}

/** Puts the bar at the window's top, or its foot when the top would cover the hand or the call panel (the
 * player scrolled down to them). */
function placeBar(bar) {
  if (bar.classList.contains("hidden")) return;
  const height = bar.getBoundingClientRect().height;
  const covers = (top, bottom) => ["hand-panel", "action-panel"].some((id) => {
    const el = document.getElementById(id);
    if (!el || el.classList.contains("hidden")) return false;
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top < bottom && r.bottom > top;
  });
  bar.classList.toggle("at-foot", covers(0, height) && !covers(innerHeight - height, innerHeight));
}

/** The bar a seated person is asked in: fixed at an edge of the window, over neither their hand nor the call
 * panel, and moving nothing they might be about to tap. */
function askBar() {
  let bar = document.getElementById("peek-bar");
  if (!bar) {
    bar = h("section", { id: "peek-bar", class: "peek-bar hidden", "aria-live": "polite",
                         "aria-label": t("Asks to see your hand") });
    document.body.append(bar);
    // the page scrolls and its panels grow under the bar while it shows: it follows them frame by frame
    const follow = () => { placeBar(bar); requestAnimationFrame(follow); };
    requestAnimationFrame(follow);
  }
  return bar;
}

// The watcher's rows, one a seated person, kept across table updates: an update changes a row's text or shows
// and hides its parts only when what they say changes, so a focused button keeps its focus, a tap during an update
// lands, and "asked; waiting" stays until the answer or the deal's end.
const rows = new Map();     // seat -> { row, ask, said, waiting, hand, drawn }
let latest = { S: null, showError: () => {} };

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function show(el, on) {
  if (el.classList.contains("hidden") === on) el.classList.toggle("hidden", !on);
}

async function askFor(seat) {
  if (peeks.asked[seat] || peeks.hands[seat]) return;
  peeks.asked[seat] = true;       // at once: a second tap does not ask twice
  delete peeks.refused[seat];
  renderPeek(latest.S, latest.showError);
  const answer = await post(latest.S, "peek", { seat });
  if (answer.error) {
    delete peeks.asked[seat];
    latest.showError(answer.error);
  }
  renderPeek(latest.S, latest.showError);
}

function watcherRow(seat) {
  let r = rows.get(seat);
  if (r) return r;
  const ask = h("button", { type: "button", "data-peek-ask": seat });
  ask.addEventListener("click", () => askFor(seat));
  r = { ask, said: h("span", { class: "muted hidden" }), drawn: null,
        waiting: h("p", { class: "muted hidden", "data-peek-asked": seat }),
        hand: h("div", { class: "peek-hand hidden", "data-peek-seat": seat }) };
  r.row = h("div", { class: "peek-row" }, h("div", { class: "row" }, ask, r.said), r.waiting, r.hand);
  rows.set(seat, r);
  return r;
}

/** A seated person's row as the watcher sees it now: their hand, "asked; waiting", or the button to ask. */
function updateRow(seat) {
  const r = watcherRow(seat.seat);
  const hand = peeks.hands[seat.seat];
  const asked = !hand && Boolean(peeks.asked[seat.seat]);
  setText(r.ask, t("Ask to see {name}'s hand", { name: seat.name }));
  show(r.ask, !hand && !asked);
  setText(r.said, t("{name} said no", { name: seat.name }));
  show(r.said, !hand && !asked && Boolean(peeks.refused[seat.seat]));
  setText(r.waiting, t("asked; waiting for {name}", { name: seat.name }));
  show(r.waiting, asked);
  const drawn = hand ? `${seat.name}:${hand.join(" ")}` : "";
  if (drawn !== r.drawn) {
    r.drawn = drawn;
    clear(r.hand);
    if (hand) {
      r.hand.append(h("p", {}, t("{name}'s hand:", { name: seat.name })),
        h("div", { class: "hand peek-cards" }, ...hand.map((c) => card(c))));
    }
  }
  show(r.hand, Boolean(hand));
  return r.row;
}

/** The watcher's rows in seat order; the panel's children are replaced only when the seated people change. */
function renderWatcher(panel, table) {
  const seats = table.seats.filter((s) => s.kind === "player");
  for (const seat of [...rows.keys()]) {
    if (!seats.some((s) => s.seat === seat)) rows.delete(seat);
  }
  const wanted = seats.map(updateRow);
  const now = [...panel.children];
  if (wanted.length !== now.length || wanted.some((row, i) => row !== now[i])) panel.replaceChildren(...wanted);
  show(panel, wanted.length > 0);
}

/** The panel: a watcher's asks and the hands shown to them; a seated person's answers to asks (in the bar). */
export function renderPeek(S, showError) {
  latest = { S, showError };
  const panel = document.getElementById("peek-panel");
  if (!panel) return;
  const bar = askBar();
  const table = S.table;
  const you = S.you;
  if (!table || !you || !you.player || table.status !== "playing") {
    peeks.hands = {};
    peeks.asked = {};
    peeks.asks = [];
    rows.clear();
    clear(panel).classList.add("hidden");
    clear(bar).classList.add("hidden");
    bar.dataset.asks = "";
    return;
  }
  if (you.seat === null || you.seat === undefined) {
    clear(bar).classList.add("hidden");
    bar.dataset.asks = "";
    renderWatcher(panel, table);
    return;
  }
  rows.clear();
  clear(panel).classList.add("hidden");
  if (bar.dataset.asks !== JSON.stringify(peeks.asks)) {
    // redrawn only when the asks change: a table update must not swap the buttons under a finger
    bar.dataset.asks = JSON.stringify(peeks.asks);
    clear(bar);
    const asks = [];
    for (const a of peeks.asks) {
      const answer = (word) => async () => {
        const done = await post(S, "peek/answer", { watcher: a.watcher, answer: word });
        if (done.error) showError(done.error);
        peeks.asks = peeks.asks.filter((x) => x !== a);
        renderPeek(latest.S, latest.showError);
      };
      const button = (word, label) => {
        const b = h("button", { type: "button", "data-peek-answer": word }, label);
        b.addEventListener("click", answer(word));
        return b;
      };
      const says = t("{name} (watching) asks to see your hand", { name: a.name || "?" });
      asks.push(h("div", { class: "peek-ask" }, h("span", { title: says }, says),
        button("allow", t("Allow")), button("refuse", t("Refuse")), button("always", t("Always allow"))));
    }
    bar.append(...asks);
    bar.classList.toggle("hidden", !asks.length);
  }
  placeBar(bar);
}
