// Where the extras draw on a seat of the table: its `.seat-badges` box, found by the seat's data-seat attribute
// (a deal seat); made at the end of the seat when the page has none. Seats are drawn only during a deal.
import { h } from "./dom.js";

export function seatBadges(dealSeat) {
  const seat = document.querySelector(`[data-seat="${dealSeat}"]`);
  if (!seat) return null;
  let box = seat.querySelector(".seat-badges");
  if (!box) { box = h("div", { class: "seat-badges" }); seat.append(box); }
  return box;
}
