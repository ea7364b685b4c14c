// The turn clock on the seat to move. The server sends its own time `now` and the `deadline` (both seconds
// since the epoch): the page counts down from deadline - now as measured on arrival, never trusting its own
// clock's setting. Move seconds run first, then the seat's bank, of which one turn may draw only its share
// (`turn_bank_left`; server/clock.py TURN_SHARE): the countdown runs to the end of that share.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatBadges } from "./seat-badges.js";
import { note } from "./notes.js";

let info = null;           // the turn_clock object last seen
let localDeadline = 0;     // Date.now() milliseconds when it runs out
let ticker = null;
let mySeat = null;         // this viewer's table seat: its clock running low gets a note in words
const LOW = 10;            // seconds left when "then the computer moves for you" is said

function clockText(left, bankLeft, paused) {
  const move = Math.max(0, left - bankLeft);
  const bank = Math.min(left, bankLeft);
  const fmt = (s) => { const n = Math.ceil(s); return n >= 60 ? `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}` : `${n}`; };
  const text = move > 0 ? (bank > 0 ? t("{move} s + bank {bank}", { move: fmt(move), bank: fmt(bank) }) : t("{move} s", { move: fmt(move) }))
    : t("bank {bank}", { bank: fmt(bank) });
  return paused ? t("paused: {text}", { text }) : `◷ ${text}`;
}

/** The bank this turn may still draw (a server without the share rule sent only the whole bank). */
const turnBank = () => (info.turn_bank_left ?? info.bank_left);

function secondsLeft() {
  if (!info) return 0;
  if (info.deadline === null) return info.move_left + turnBank();
  return Math.max(0, (localDeadline - Date.now()) / 1000);
}

function tick() {
  const el = document.getElementById("turn-clock");
  if (!el || !info) return;
  const left = secondsLeft();
  el.textContent = clockText(left, turnBank(), info.paused);
  el.classList.toggle("low", left <= 5);
  noteLow(left);
}

/** Say in words when your own clock is low: the bank is running, or the computer is about to move for you. */
function noteLow(left) {
  let text = null;
  if (info && !info.paused && info.seat === mySeat && info.deadline !== null) {
    const n = Math.ceil(left);
    // with a small share of the bank, say first that the bank runs, then that the computer is about to move
    const low = turnBank() > 0 ? Math.min(LOW, turnBank() / 2) : LOW;
    if (left <= low) text = t("{n} s left: then the computer moves for you.", { n });
    else if (left <= turnBank()) {
      // what the whole bank will hold: this turn has drawn (its share - what is left of it) so far
      const match = Math.ceil(info.bank_left - (turnBank() - left));
      text = t("Your move time is up: your time bank is running ({n} s left for the match).", { n: match });
    }
  }
  note("clock", text, false);
}

export function renderClock(S, c) {
  const tc = S.table.turn_clock;
  mySeat = S.you ? S.you.seat : null;
  if (tc !== info) {
    info = tc;
    if (tc && tc.deadline !== null) localDeadline = Date.now() + (tc.deadline - tc.now) * 1000;
  }
  if (!tc) { clearInterval(ticker); ticker = null; note("clock", null); return; }
  const ds = S.table.deal_seats.indexOf(tc.seat);
  const box = seatBadges(ds);
  if (box) {
    box.append(h("span", { class: "badge clock", id: "turn-clock", "data-clock-seat": tc.seat,
                           title: t("time left for this move") }, ""));
  }
  tick();
  if (!ticker) ticker = setInterval(tick, 250);
}
