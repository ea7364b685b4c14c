// The create form's turn clock: none, or seconds a move with a time bank for the match (server/clock.py).
// It draws itself just before the create button; home.js sends clockChoice() with the form.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const CHOICES = [
  [null, () => t("No turn clock")],
  [{ move: 15, bank: 60 }, () => t("Fast: {move} s a move, plus a {bank} s bank for the match", { move: 15, bank: 60 })],
  [{ move: 30, bank: 120 }, () => t("Steady: {move} s a move, plus a {bank} s bank for the match", { move: 30, bank: 120 })],
  [{ move: 60, bank: 300 }, () => t("Relaxed: {move} s a move, plus a {bank} s bank for the match", { move: 60, bank: 300 })],
];

function drawClockField() {
  const row = document.querySelector(".create-row");
  if (!row || document.getElementById("clock")) return;
  const select = h("select", { id: "clock" }, CHOICES.map(([, text], i) => h("option", { value: i }, text())));
  row.before(h("label", { for: "clock" }, t("Turn clock (when it runs out, a computer player makes that move)")), select);
}

export function clockChoice() {
  const select = document.getElementById("clock");
  return select ? CHOICES[Number(select.value)][0] : null;
}

drawClockField();
