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

/** The panel: a watcher's asks and the hands shown to them; a seated person's answers to asks (in the bar). */
export function renderPeek(S, showError) {
  const panel = document.getElementById("peek-panel");
  if (!panel) return;
  clear(panel);
  const bar = askBar();
  const table = S.table;
  const you = S.you;
  if (!table || !you || !you.player || table.status !== "playing") {
    peeks.hands = {};
    peeks.asked = {};
    peeks.asks = [];
    panel.classList.add("hidden");
    clear(bar).classList.add("hidden");
    bar.dataset.asks = "";
    return;
  }
  const parts = [];
  if (you.seat === null || you.seat === undefined) {
    clear(bar).classList.add("hidden");
    bar.dataset.asks = "";
    for (const seat of table.seats.filter((s) => s.kind === "player")) {
      const hand = peeks.hands[seat.seat];
      if (hand) {
        parts.push(h("div", { class: "peek-hand", "data-peek-seat": seat.seat },
          h("p", {}, t("{name}'s hand:", { name: seat.name })),
          h("div", { class: "hand peek-cards" }, ...hand.map((c) => card(c)))));
        continue;
      }
      if (peeks.asked[seat.seat]) {
        parts.push(h("p", { class: "muted", "data-peek-asked": seat.seat },
          t("asked; waiting for {name}", { name: seat.name })));
        continue;
      }
      const ask = h("button", { type: "button", "data-peek-ask": seat.seat },
        t("Ask to see {name}'s hand", { name: seat.name }));
      ask.addEventListener("click", async () => {
        const answer = await post(S, "peek", { seat: seat.seat });
        if (answer.error) { showError(answer.error); return; }
        peeks.asked[seat.seat] = true;
        delete peeks.refused[seat.seat];
        renderPeek(S, showError);
      });
      parts.push(h("div", { class: "row" }, ask,
        peeks.refused[seat.seat] ? h("span", { class: "muted" }, t("{name} said no", { name: seat.name })) : null));
    }
  } else if (bar.dataset.asks !== JSON.stringify(peeks.asks)) {
    // redrawn only when the asks change: a table update must not swap the buttons under a finger
    bar.dataset.asks = JSON.stringify(peeks.asks);
    clear(bar);
    const asks = [];
    for (const a of peeks.asks) {
      const answer = (word) => async () => {
        const done = await post(S, "peek/answer", { watcher: a.watcher, answer: word });
        if (done.error) showError(done.error);
        peeks.asks = peeks.asks.filter((x) => x !== a);
        renderPeek(S, showError);
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
  panel.append(...parts);
  panel.classList.toggle("hidden", !parts.length);
}
