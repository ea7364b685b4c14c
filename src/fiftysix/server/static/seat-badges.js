// Where the extras draw on a seat of the table: its `.seat-badges` box (else `.meta`), found by the seat's
// data-seat attribute (a deal seat). Seats are drawn only during a deal: null otherwise.
export function seatBadges(dealSeat) {
  const seat = document.querySelector(`[data-seat="${dealSeat}"]`);
  if (!seat) return null;
  return seat.querySelector(".seat-badges") || seat.querySelector(".meta") || seat;
}
