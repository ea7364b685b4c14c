// The round table: seats placed around the felt relative to you (you at the bottom, the others in playing
// order, so partners and opponents sit where they sit in the game), the trick in the middle with each card in
// front of who played it, and a finished trick held with its winner marked until the next lead.
import { card, clear, h, pretty } from "./dom.js";
import { t, tn } from "./i18n.js";

const HOLD_MS = 1600;          // a finished trick stays at least this long...
const HOLD_SEEN_MS = 2400;     // ...longer when the last card was not yours (you have not seen it land)
const COLLECT_MS = 260;

const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Where seat k places (k = 0 you, then in playing order): percentages of the felt, on an ellipse. */
export function seatPlace(k, n) {
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;    // k = 0 at the bottom, then round the table
  const x = 50 + 38 * Math.cos(angle);
  const y = 50 + 41 * Math.sin(angle);
  return { x: Math.min(87, Math.max(13, x)), y: Math.min(91, Math.max(9, y)) };
}

/** Deal seat -> card for the trick in progress, from the public list of who played each card. */
export function currentTrick(S, v) {
  const out = [];
  if (!v || !v.trick || !S.movers) return out;
  const cards = v.trick.cards;
  const seats = S.movers.play.slice(S.movers.play.length - cards.length);
  cards.forEach((cd, i) => out.push([seats[i], cd]));
  return out;
}

/** The deal seats that played each card of finished trick ``index``. */
export function finishedTrick(S, v, index) {
  const before = v.tricks.slice(0, index).reduce((a, tr) => a + tr.cards.length, 0);
  const seats = S.movers.play.slice(before, before + v.tricks[index].cards.length);
  return v.tricks[index].cards.map((cd, i) => [seats[i], cd]);
}

/** The finished trick the page is holding on screen (module state: it outlives a message). */
const hold = { deal: null, seen: null, index: null, until: 0, collecting: false, timer: null };

function dealKey(S) {
  const m = S.table.match;
  return `${S.table.deals_count}:${m ? m.number : 0}:${S.view.dealer}`;
}

function noteTricks(S, c, rerender) {
  const v = c.v;
  const key = dealKey(S);
  const done = v.tricks.length;
  if (hold.deal !== key) {           // a new deal or the first message: nothing to hold yet
    hold.deal = key; hold.seen = done; hold.index = null; hold.until = 0;
    return;
  }
  if (done > hold.seen) {
    hold.seen = done;
    hold.index = done - 1;
    const last = finishedTrick(S, v, done - 1);
    const mine = last.length && last[last.length - 1][0] === c.me;
    const ms = mine ? HOLD_MS : HOLD_SEEN_MS;
    // held from the frame that first shows it, not from the message: a busy phone may draw it late, and the
    // hold is for the eyes (until then it counts as held)
    hold.until = Infinity;
    hold.collecting = false;
    clearTimeout(hold.timer);
    const index = hold.index;
    const start = () => {
      if (hold.index !== index || hold.until !== Infinity) return;    // a newer trick, or skipped meanwhile
      hold.until = Date.now() + ms;
      hold.timer = setTimeout(() => endHold(rerender), ms);
    };
    if (document.hidden) start(); else requestAnimationFrame(start);
  }
}

function endHold(rerender) {
  clearTimeout(hold.timer);
  hold.until = 0;
  if (reducedMotion()) { rerender(); return; }
  hold.collecting = true;
  rerender();
  hold.timer = setTimeout(() => { hold.collecting = false; rerender(); }, COLLECT_MS);
}

/** Skip the hold (a tap on the trick). */
export function skipHold(rerender) {
  if (hold.until > Date.now()) endHold(rerender);
}

export function renderFelt(S, c, actions) {
  const felt = document.getElementById("felt");
  const v = c.v;
  const on = !!v && c.t.status !== "lobby";
  felt.classList.toggle("hidden", !on);
  if (!on) return;
  noteTricks(S, c, actions.rerender);
  if (!felt.dataset.watched && window.ResizeObserver) {   // trick cards are placed by measure: redo on a resize
    felt.dataset.watched = "1";
    let width = 0, height = 0;
    new ResizeObserver(([e]) => {
      const { width: w, height: ht } = e.contentRect;
      if (Math.abs(w - width) > 1 || Math.abs(ht - height) > 1) { width = w; height = ht; actions.rerender(); }
    }).observe(felt);
  }
  felt.dataset.players = String(c.n);
  felt.classList.toggle("many", c.n > 6);
  felt.classList.toggle("bidding", v.phase !== "play");    // no trick yet: a lower felt leaves room for the calls
  const ring = clear(document.getElementById("seats"));
  const start = c.me === null ? 0 : c.me;
  const places = new Map();
  for (let k = 0; k < c.n; k++) {
    const ds = (start + k) % c.n;
    const place = seatPlace(k, c.n);
    places.set(ds, place);
    ring.append(seatBox(S, c, ds, place));
  }
  renderCentre(S, c, actions, places);
}

function seatBox(S, c, ds, place) {
  const v = c.v;
  const seat = c.t.seats[c.tableSeat(ds)] || {};
  const declarer = v.contract ? (v.contract.declarer ?? v.contract.bidder) : null;
  const marks = [];
  if (v.dealer === ds) marks.push(h("span", { class: "mark dealer", title: t("dealer") }, t("Dealer")));
  if (declarer === ds) marks.push(h("span", { class: "mark declarer", title: t("declarer") }, t("Declarer")));
  if (seat.kind === "player" && !seat.online) marks.push(h("span", { class: "mark off" }, t("offline")));
  if (seat.covered) marks.push(h("span", { class: "mark" }, t("bot plays")));
  // a computer named by its level ("Club player 3") says what it is already: the mark would only take a line
  if (seat.kind === "bot" && !seat.level) marks.push(h("span", { class: "mark" }, t("bot")));
  let call = null;
  if (v.phase === "auction" && S.movers) {
    const calls = S.movers.auction.map((s, i) => [s, v.auction[i]]).filter(([s]) => s === ds);
    if (calls.length) call = h("span", { class: "lastcall", title: t("last call") }, pretty(calls[calls.length - 1][1]));
  }
  const team = c.teamName(c.teamOf(ds));
  const name = seat.name || t("seat {n}", { n: ds });
  const toMove = v.to_move === ds && c.t.status === "playing";
  const label = [ds === c.me ? t("{name} (you)", { name }) : name, t("team {team}", { team }),
    tn("{n} card left", "{n} cards left", v.hand_sizes[ds]), toMove ? t("to move") : ""].filter(Boolean).join(", ");
  return h("div", {
    class: `seat${toMove ? " tomove" : ""}${ds === c.me ? " me" : ""}`,
    style: `--c:var(--team${c.matchTeam(c.teamOf(ds)) % 9});left:${place.x}%;top:${place.y}%`,
    "data-seat": ds, role: "group", "aria-label": label,
  },
  h("div", { class: "name" }, name, ds === c.me ? h("span", { class: "you" }, t("you")) : null),
  h("div", { class: "meta" }, h("span", { class: "left" }, tn("{n} card", "{n} cards", v.hand_sizes[ds])), call),
  marks.length ? h("div", { class: "marks" }, marks) : null,
  h("div", { class: "seat-badges" }));
}

const GAP = 6;   // px between a trick card and its player's seat box

/** Put a trick card on the line from its player's seat to the middle, just clear of the seat's box (measured:
 * seat boxes have a fixed size while the felt's width follows the screen, so percentages alone put cards under
 * the side seats of a wide table). */
function placeInFront(el, ds, feltBox) {
  const seat = document.querySelector(`#seats .seat[data-seat="${ds}"]`);
  if (!seat || !feltBox.width) return;
  const s = seat.getBoundingClientRect();
  const cw = el.offsetWidth, ch = el.offsetHeight;
  const sx = s.left + s.width / 2 - feltBox.left, sy = s.top + s.height / 2 - feltBox.top;
  const dx = feltBox.width / 2 - sx, dy = feltBox.height / 2 - sy;
  // the least fraction of the way to the middle at which the card's box clears the seat's box on one axis
  const need = (span, d) => (Math.abs(d) < 1 ? Infinity : span / Math.abs(d));
  const f = Math.min(1, need((s.width + cw) / 2 + GAP, dx), need((s.height + ch) / 2 + GAP, dy));
  el.style.left = `${(100 * (sx + f * dx)) / feltBox.width}%`;
  el.style.top = `${(100 * (sy + f * dy)) / feltBox.height}%`;
}

/** The finished trick, small in the felt's corner, while the next one is played in the middle. */
function prevTrick(S, c, v, index) {
  const winner = v.tricks[index].winner;
  return h("div", { class: "prev-trick", id: "prev-trick", "aria-hidden": "true" },
    finishedTrick(S, v, index).map(([ds, cd]) => card(cd, { small: true, cls: ds === winner ? "win" : "" })));
}

function renderCentre(S, c, actions, places) {
  const v = c.v;
  const box = clear(document.getElementById("trick"));
  const now = Date.now();
  const current = currentTrick(S, v);
  let shown = current;
  let winner = null;
  let held = false;
  const lastIndex = v.tricks.length - 1;
  const holding = lastIndex >= 0 && (hold.until > now || hold.collecting);
  if (lastIndex >= 0 && !current.length) {
    // the finished trick, until the next lead; once the next trick has begun it is shown at once and the
    // finished one shrinks aside (below) while its hold lasts: nobody must follow a lead they cannot see
    shown = finishedTrick(S, v, lastIndex);
    winner = v.tricks[lastIndex].winner;
    held = true;
  }
  box.classList.toggle("finished", held);
  const seen = S.seenCards || (S.seenCards = new Set());
  const trickNo = held ? lastIndex : v.tricks.length;
  const feltBox = document.getElementById("felt").getBoundingClientRect();
  const els = [];
  for (const [ds, cd] of shown) {
    const place = places.get(ds) || { x: 50, y: 50 };
    const key = `${dealKey(S)}:${trickNo}:${ds}`;
    const fresh = !held && !seen.has(key) && !reducedMotion();
    seen.add(key);
    let cls = "tcard";
    if (fresh) cls += " enter";
    if (winner === ds) cls += " win";
    if (held && hold.collecting && winner !== null) cls += " collect";
    const to = places.get(winner) || place;
    const el = h("div", {
      class: cls, "data-played-by": ds,
      style: `left:${place.x}%;top:${place.y}%;--sx:${place.x}%;--sy:${place.y}%;--wx:${to.x}%;--wy:${to.y}%`,
    }, card(cd, { small: true }));
    if (winner === ds) el.append(h("span", { class: "winmark" }, t("won")));
    box.append(el);
    els.push([ds, el]);
  }
  for (const [ds, el] of els) placeInFront(el, ds, feltBox);
  const aside = holding && current.length ? lastIndex : null;
  if (aside !== null) box.append(prevTrick(S, c, v, aside));
  const info = document.getElementById("trick-info");
  box.dataset.led = current.length ? current[0][1] : "";
  const said = held ? lastIndex : aside;
  if (said !== null) {
    const tr = v.tricks[said];
    let text = tr.winner === c.me ? t("You win the trick ({points} points)", { points: tr.points })
      : t("{name} wins the trick ({points} points)", { name: c.nameOf(tr.winner), points: tr.points });
    if (current.length) {   // the next trick's lead, in words too
      const [leader, led] = current[0];
      text += ` · ${leader === c.me ? t("you led {card}", { card: pretty(led) })
        : t("{name} led {card}", { name: c.nameOf(leader), card: pretty(led) })}`;
    }
    info.textContent = text;
  } else if (v.phase === "play" && !shown.length && v.to_move !== null) {
    info.textContent = v.to_move === c.me ? t("Your lead.") : t("{name} leads.", { name: c.nameOf(v.to_move) });
  } else {
    info.textContent = "";
  }
  box.onclick = () => skipHold(actions.rerender);
  box.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); skipHold(actions.rerender); } };
}
