// The table page: one websocket, the latest message rendered whole. Every message from the server holds
// the table's public facts and this viewer's own view, so the page never has to remember more.
import { renderAll } from "./render.js";

const code = decodeURIComponent(location.pathname.split("/").pop()).toUpperCase();

export const S = {
  code,
  table: null, you: null, view: null, movers: null, version: null,
  selected: null, selectedCards: [], tab: null, meanings: {}, showLast: false,
  pendingJoin: null, ws: null, online: false, sentAt: null,
};

let retry = 0;

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(code)}`);
  S.ws = ws;
  ws.addEventListener("open", () => {
    retry = 0;
    S.online = true;
    ws.send(JSON.stringify({ type: "hello", version: S.version }));
    renderAll(S, actions);
  });
  ws.addEventListener("message", (e) => onMessage(JSON.parse(e.data)));
  ws.addEventListener("close", () => {
    S.online = false;
    renderAll(S, actions);
    if (S.ws !== ws) return;
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);
  });
}

function onMessage(msg) {
  switch (msg.type) {
    case "state":
    case "event": {
      const newDeal = !S.view || !msg.view || msg.view.dealer !== S.view.dealer ||
        (msg.view.hand || []).length > (S.view.hand || []).length;
      S.table = msg.table; S.you = msg.you; S.view = msg.view; S.movers = msg.movers; S.version = msg.version;
      S.legalMoves = msg.legal_moves || [];   // {move, kind, suit, label}, built by the game
      const legal = (msg.view && msg.view.legal) || [];
      if (S.selected !== null && !legal.includes(S.selected)) S.selected = null;
      if (!legal.length || newDeal) { S.selectedCards = []; S.selected = null; }
      if (newDeal) S.showLast = false;
      afterJoin();
      break;
    }
    case "presence":
      S.table = msg.table;
      break;
    case "explained":
      S.meanings[msg.move] = msg.meaning || "";
      break;
    case "error":
      S.sentAt = null;
      showError(msg.message);
      break;
    default:
      break;
  }
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

let errorTimer = null;
function showError(text) {
  const el = document.getElementById("error");
  el.textContent = text;
  el.classList.remove("hidden");
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => el.classList.add("hidden"), 6000);
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
  else showError("Not connected; reconnecting…");
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
  },
  confirm(move) {
    send({ type: "move", move });
    S.sentAt = S.version;       // until the table answers, no second move from this page
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
  async join(name) {
    const res = await fetch("/api/player", { method: "POST", headers: { "Content-Type": "application/json" },
                                            body: JSON.stringify({ name }) });
    const data = await res.json();
    if (!res.ok) { showError(data.error); return; }
    localStorage.setItem("fiftysix-name", data.name);
    S.pendingJoin = data.name;
    S.version = null;          // a new identity: ask for a full state, not the missed events
    const old = S.ws;
    S.ws = null;
    if (old) old.close();
    connect();
  },
  share() {
    const url = `${location.origin}/t/${code}`;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(() => showError(`Link copied: ${url}`), () => showError(url));
    } else {
      showError(`Send this link: ${url}`);
    }
  },
  showError,
};

document.getElementById("share").addEventListener("click", actions.share);
connect();
