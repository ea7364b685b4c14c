// The table page: one websocket, the latest message rendered whole. Every message from the server holds
// the table's public facts and this viewer's own view, so the page never has to remember more, except
// the finished deals: a `state` brings the recent ones, each message the latest, older pages come from
// GET /api/tables/CODE/deals?before=N.
import { h, clear, knownName, localNames, pretty } from "./dom.js";
import { note } from "./notes.js";
import { renderAll } from "./render.js";
import { t } from "./i18n.js";
import { beepOnTurn, initSound } from "./sound.js";
import { openShare } from "./share.js";
import { initRules } from "./rules.js";
import { noteReaction } from "./reactions.js";
import { onPeekMessage, renderPeek } from "./peek.js";
import { AWAY } from "./picker.js";

const code = decodeURIComponent(location.pathname.split("/").pop()).toUpperCase();

// A private table's secret rides in the link's fragment (#k=...): never sent to the server in a request
// line or a Referer; the page passes it in hello, and keeps it for this table.
const KEY_STORE = `fiftysix-key-${code}`;
const fromLink = new URLSearchParams(location.hash.slice(1)).get("k");
if (fromLink) localStorage.setItem(KEY_STORE, fromLink);

export const S = {
  code, key: fromLink || localStorage.getItem(KEY_STORE),
  table: null, you: null, view: null, movers: null, version: null, deals: [], olderDeals: false,
  selected: null, selectedCards: [], tab: null, meanings: {}, showLast: false,
  pendingJoin: null, ws: null, online: false, sentAt: null,
  outbox: [],          // moves sent or to send, with their ids, until the table says they were applied or refused
  knocks: [],          // (host) people asking to join
  closed: null,        // a private table we are not let into yet: {message, asked, refused}
  pendingAsk: null,
  services: {},        // a service of the server that is not answering now ("database", "redis") -> true
};

let retry = 0;
let moveCounter = 0;

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(code)}`);
  S.ws = ws;
  ws.addEventListener("open", () => {
    retry = 0;
    S.online = true;
    S.services = {};     // the server says again, at once, what is down now
    ws.send(JSON.stringify(hello()));
    renderAll(S, actions);
  });
  // a socket this page has replaced (a join opens a new one) speaks no more: its late messages would be the
  // old identity's, and its close (which may come after the new socket opened) would put the page offline
  ws.addEventListener("message", (e) => { if (S.ws === ws) onMessage(JSON.parse(e.data)); });
  ws.addEventListener("close", (e) => {
    if (S.ws !== ws) return;
    if (e.reason && e.code !== 1013) showError(e.reason);   // refused (cross-site, signed out): say why
    S.online = false;
    S.tried = true;
    if (e.code === 1008) S.version = null;   // dropped for falling behind: come back with a full state
    if (e.code === 1013) retry = Math.max(retry, 3);   // a service is down: ask again every few seconds
    renderAll(S, actions);
    if (e.code === 4404) return;     // no such table: asking again would not find it either
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);
  });
}

function hello() {
  const msg = { type: "hello", version: S.version };
  if (S.key) msg.key = S.key;
  return msg;
}

function onMessage(msg) {
  switch (msg.type) {
    case "state":
    case "event": {
      S.closed = null;
      const newDeal = !S.view || !msg.view || msg.view.dealer !== S.view.dealer ||
        (msg.view.hand || []).length > (S.view.hand || []).length;
      if (msg.event) noteEvent(msg, S.you, S.view);
      S.table = localNames(msg.table); S.you = msg.you; S.view = msg.view; S.movers = msg.movers; S.version = msg.version;
      S.why = "";
      if (msg.type === "state") {
        S.deals = msg.deals || [];
        S.olderDeals = S.deals.length > 0 && S.deals[0].number > 1;
      }
      noteDeal(msg.table);
      S.legalMoves = msg.legal_moves || [];   // {move, kind, suit, label}, built by the game
      S.suggested = msg.suggested || [];      // the calls the hand supports (server/messages.py)
      const legal = (msg.view && msg.view.legal) || [];
      if (S.selected !== null && !legal.includes(S.selected)) S.selected = null;
      if (!legal.length || newDeal) { S.selectedCards = []; S.selected = null; }
      if (newDeal) S.showLast = false;
      if (msg.you && msg.you.key) S.key = msg.you.key;
      if (msg.type === "state" && msg.applied) resendUnapplied(msg.applied);
      afterJoin();
      break;
    }
    case "synced":
      resendUnapplied(msg.applied || []);
      break;
    case "moved":
      S.outbox = S.outbox.filter((m) => m.id !== msg.id);
      // a resend the table had applied earlier ("again") brings no new event: nothing is on its way any more
      if (!S.outbox.length) S.sentAt = null;
      break;
    case "private":
      S.closed = { message: msg.message, canAsk: msg.can_ask, asked: false, refused: null };
      if (msg.can_ask && S.pendingAsk) { send({ type: "ask", name: S.pendingAsk }); S.pendingAsk = null; }
      break;
    case "asked":
      if (S.closed) S.closed.asked = true;
      break;
    case "admitted":
      S.closed = null;
      S.ws.send(JSON.stringify(hello()));
      break;
    case "refused":
      if (S.closed) { S.closed.asked = false; S.closed.refused = msg.message; }
      break;
    case "knocks":
      S.knocks = msg.knocks;
      break;
    case "presence":
      S.table = localNames(msg.table);
      noteDeal(msg.table);
      break;
    case "reaction":
      noteReaction(msg);
      break;
    case "service":     // the server's database or Redis went away, or came back: the banner says so
      if (msg.ok) delete S.services[msg.service]; else S.services[msg.service] = true;
      break;
    case "explained":
      S.meanings[msg.move] = msg.meaning || "";
      break;
    case "error":
      if (msg.id) S.outbox = S.outbox.filter((m) => m.id !== msg.id);
      S.sentAt = null;
      // a move the server could not store while its database is away: the banner already says the table waits,
      // and the line under the hand says why the card came back (no second red message)
      if (!Object.keys(S.services).length) showError(msg.message);
      else if (msg.id) S.why = AWAY();
      break;
    default:
      onPeekMessage(msg);
      break;
  }
  renderPrivate();
  renderAll(S, actions);
  renderPeek(S, showError);
  revealConfirm();
  keepInView();
  beepOnTurn(S);
}

/** A phone shows a third of the page: when the deal moves on (the auction is over, a new deal, the deal's end),
 *  bring what now matters into view, as the long list of bids or the score sheet may have scrolled it away. */
let lastStage = null;
function keepInView() {
  if (!S.table || !S.view || !S.table.match) {
    // a match that starts on this page is followed (the host scrolled down to "Start"): the first call in view
    if (S.table && S.table.status === "lobby") lastStage = "lobby";
    return;
  }
  const over = S.table.status === "deal_over" || S.table.status === "match_over";
  const stage = `${S.table.match.number}.${S.table.match.deal_number}:${over ? "over" : S.view.phase}`;
  if (stage === lastStage) return;
  const first = lastStage === null;
  const newDeal = !first && lastStage.split(":")[0] !== stage.split(":")[0];
  lastStage = stage;
  if (newDeal) note("acted", null);  // what the computer did for you last deal is old news
  if (first) return;                 // a page just opened keeps the browser's own scroll
  const fits = (el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; };
  const summary = document.getElementById("summary-panel");
  if (over && !summary.classList.contains("hidden")) {
    // the result line, clear of the notes fixed at the foot of the window
    const line = document.getElementById("summary-line") || summary;
    const notes = document.getElementById("notes");
    const foot = notes.classList.contains("hidden") ? innerHeight : notes.getBoundingClientRect().top;
    const r = line.getBoundingClientRect();
    if (r.top < 0 || r.bottom > foot) line.scrollIntoView({ block: "center" });
    return;
  }
  const felt = document.getElementById("felt");
  const turn = document.getElementById("action-panel");
  const shown = (el) => el && !el.classList.contains("hidden");
  if (!shown(felt)) return;
  // from the score to the turn line when the window is tall enough (a desktop), else the felt and the turn line
  const score = document.getElementById("score-panel");
  const bottom = (shown(turn) ? turn : felt).getBoundingClientRect().bottom;
  const top = score.getBoundingClientRect().top;
  const head = document.querySelector("main").getBoundingClientRect().top;    // the header too, when it fits
  if (bottom - head <= innerHeight) {
    if (head < 0 || bottom > innerHeight) scrollBy(0, head);
  } else if (bottom - top <= innerHeight) {
    if (top < 0 || bottom > innerHeight) score.scrollIntoView({ block: "start" });
  } else if (!(fits(felt) && (!shown(turn) || fits(turn)))) {
    felt.scrollIntoView({ block: "start" });
  }
}

/** Tell this player what happened to them: the computer moved for them (their clock ran out), or the host gave
 *  their seat to a computer player. */
function noteEvent(msg, before, beforeView) {
  const ev = msg.event;
  const you = msg.you || {};
  if (ev.kind === "move" && ev.timeout && you.seat !== null && ev.seat === you.seat && msg.view) {
    note("acted", whatWasPlayed(msg, beforeView));
  } else if (ev.kind === "replace" && before && before.seat !== null && ev.seat === before.seat) {
    note("seat", t("The host gave your seat to a computer player: you are watching now. Ask the host to offer " +
                   "it back to you."));
  }
}

/** "Your time ran out: the computer passed for you." (or the call or card it made). */
function whatWasPlayed(msg, beforeView) {
  const v = msg.view;
  const me = msg.you.deal_seat;
  const mine = (list, moves) => { for (let i = list.length - 1; i >= 0; i--) if (list[i] === me) return moves[i]; return null; };
  if (beforeView && beforeView.phase === "auction") {
    const call = mine(msg.movers.auction, v.auction);
    if (call === "P") return t("Your time ran out: the computer passed for you.");
    if (call) return t("Your time ran out: the computer called {call} for you.", { call: pretty(call) });
  }
  if (beforeView && beforeView.phase === "play") {
    const cards = [...v.tricks.flatMap((tr) => tr.cards), ...(v.trick ? v.trick.cards : [])];
    const played = mine(msg.movers.play, cards);
    if (played) return t("Your time ran out: the computer played {card} for you.", { card: pretty(played) });
  }
  return t("Your time ran out: the computer moved for you.");
}

/** After a reconnect: moves the table applied leave the queue; the others are sent again if still legal,
 *  else dropped, so the page never stays "sent; waiting" for a move the table never got. */
function resendUnapplied(applied) {
  S.outbox = S.outbox.filter((m) => !applied.includes(m.id));
  const legal = (S.view && S.view.legal) || [];
  S.outbox = S.outbox.filter((m) => legal.includes(m.move));
  for (const m of S.outbox) S.ws.send(JSON.stringify({ type: "move", move: m.move, id: m.id }));
  S.sentAt = S.outbox.length ? S.version : null;
}

function renderPrivate() {
  const panel = document.getElementById("private-panel");
  const closed = S.closed;
  panel.classList.toggle("hidden", !closed);
  document.getElementById("score-panel").classList.toggle("hidden", !!closed);
  document.getElementById("share").classList.toggle("hidden", !!closed && !S.key);
  if (!closed) return;
  document.getElementById("code").textContent = S.code;
  clear(panel);
  const text = closed.message.charAt(0).toUpperCase() + closed.message.slice(1);
  panel.append(h("h2", {}, t("Table {code}", { code: S.code })), h("p", {}, `${text}.`));
  if (closed.asked) {
    panel.append(h("p", { id: "ask-waiting" }, t("Asked: waiting for the host to let you in…")));
    return;
  }
  if (closed.refused) panel.append(h("p", { class: "error" }, closed.refused));
  const input = h("input", { id: "ask-name", maxlength: 24, placeholder: t("your name"), autocomplete: "nickname",
                             "aria-label": t("your name"),
                             value: localStorage.getItem("fiftysix-name") || "" });
  const ask = () => {
    const name = input.value.trim();
    if (name) actions.join(name, true);
  };
  panel.append(h("div", { class: "row" }, input, h("button", { class: "primary", id: "ask-btn", onclick: ask }, t("Ask to join"))));
}

/** Keep the page's list of finished deals up to date from a message's latest deal. */
function noteDeal(table) {
  const last = table.last_deal;
  const known = S.deals.length ? S.deals[S.deals.length - 1].number : 0;
  if (!last || last.number <= known) return;
  if (last.number === known + 1) S.deals.push(last);
  else loadDeals(null);   // missed some (a reconnect by events): the latest page again
}

/** Fetch a page of finished deals: the latest (before = null) or those before the oldest shown. */
async function loadDeals(before) {
  const query = (before === null ? "" : `&before=${before}`) +
    (S.key && !(S.you && S.you.joined) ? `&k=${encodeURIComponent(S.key)}` : "");   // a private table's secret
  const res = await fetch(`/api/tables/${encodeURIComponent(code)}/deals?limit=20${query}`);
  if (!res.ok) return;
  const page = await res.json();
  const older = page.deals.slice().reverse();
  if (before === null) S.deals = older;
  else S.deals = older.concat(S.deals);
  S.olderDeals = page.more;
  renderAll(S, actions);
}

function afterJoin() {
  if (!S.pendingJoin || !S.you) return;
  if (S.you.player && !S.you.joined) {
    send({ type: "join", name: S.pendingJoin });
  } else if (S.you.joined) {
    S.pendingJoin = null;
    const free = S.table.seats.find((s) => s.kind === "empty");
    if (S.table.status === "lobby" && S.you.seat === null && free) send({ type: "sit", seat: free.seat });
  }
}

/** The server's refusals are clauses ("the table is paused by the host; ..."): shown as a sentence. */
export function sentence(text) {
  const s = String(text || "").trim();
  if (!s) return s;
  const first = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?…)]$/.test(first) ? first : `${first}.`;
}

let errorTimer = null;
function showError(text) {
  const el = document.getElementById("error");
  el.textContent = sentence(text);
  el.classList.remove("hidden");
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => el.classList.add("hidden"), 6000);
}

/** A long list of bids on a phone pushes the meaning and "confirm" below the fold: bring them into view when a
 *  move is selected, and again when its meaning arrives (the box grows). */
let revealing = false;
function revealConfirm(start = false) {
  if (start) revealing = true;
  const box = revealing && S.selected !== null && document.querySelector(".confirm");
  if (!box) { revealing = false; return; }
  box.scrollIntoView({ block: "nearest" });
  if (!S.view || S.view.phase !== "auction" || S.selected in S.meanings) revealing = false;
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
  else showError(t("Not connected; reconnecting…"));
}

export const actions = {
  send,
  rerender: () => renderAll(S, actions),
  select(move) {
    S.selected = S.selected === move ? null : move;
    if (S.selected !== null && S.view && S.view.phase === "auction" && !(move in S.meanings)) {
      send({ type: "explain", move });
    }
    renderAll(S, actions);
    revealConfirm(S.selected !== null);
  },
  confirm(move) {
    note("acted", null);      // your own move: what the computer did for you before is old news
    moveCounter += 1;
    const id = `m${Date.now().toString(36)}-${moveCounter}`;
    S.outbox.push({ id, move });
    if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify({ type: "move", move, id }));
    S.sentAt = S.version;       // until the table answers, no second move from this page (sent after a reconnect)
    S.selected = null;
    S.selectedCards = [];
    renderAll(S, actions);
  },
  toggleCard(cardText, index) {
    const key = `${index}:${cardText}`;
    const at = S.selectedCards.indexOf(key);
    if (at >= 0) S.selectedCards.splice(at, 1); else S.selectedCards.push(key);
    renderAll(S, actions);
  },
  async join(name, ask = false) {
    const res = await fetch("/api/player", { method: "POST", headers: { "Content-Type": "application/json" },
                                            body: JSON.stringify({ name }) });
    const data = await res.json();
    if (!res.ok) { showError(data.error); return; }
    localStorage.setItem("fiftysix-name", data.name);
    if (ask) S.pendingAsk = data.name; else S.pendingJoin = data.name;
    S.version = null;          // a new identity: ask for a full state, not the missed events
    const old = S.ws;
    S.ws = null;
    if (old) old.close();
    connect();
  },
  share() {
    openShare(`/t/${code}${S.key ? `#k=${S.key}` : ""}`);
  },
  showError,
  olderDeals() {
    if (S.deals.length) loadDeals(S.deals[0].number);
  },
};

/** The page's fixed words, through t() like every other. */
function staticWords() {
  document.getElementById("share").textContent = t("Share");
  document.getElementById("dot").title = t("connection");
  const home = document.querySelector(".top .home");
  home.title = t("start page");
  home.setAttribute("aria-label", t("start page"));
  document.getElementById("felt").setAttribute("aria-label", t("the table"));
  document.getElementById("trick").setAttribute("aria-label", t("the trick (tap to go on)"));
  document.getElementById("help-panel").textContent = t("Tap a raised card to play it (or tick \"Confirm each card\"); " +
    "tap a call to see what it says, then confirm. A greyed card says why when tapped. Every bid's meaning is " +
    "shown in words: the way a bid is written is a public convention. \"Share\" gives the link (and a QR code) that lets friends in; with the code alone they ask the " +
    "host first (unless the table is public).");
}

staticWords();
initSound(document.getElementById("sound"));
initRules(document.getElementById("rules"), document.getElementById("rules-panel"), S);
document.getElementById("share").addEventListener("click", actions.share);
knownName();      // the name this device goes by, for the join panel (told on any page)
connect();
