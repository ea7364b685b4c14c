// Drawing the table from the latest message. Names are user data: they only ever go in as text.
import { card, clear, h, isCard, pretty, trumpText } from "./dom.js";
import { renderAction, renderHand } from "./picker.js";
import { renderExtras } from "./extras.js";
import { t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const show = (el, on) => el.classList.toggle("hidden", !on);

/** A download link of this table (a private table's secret goes along for a viewer who is not a member). */
const keyed = (S, url) => (S.key && !(S.you && S.you.joined) ? `${url}?k=${encodeURIComponent(S.key)}` : url);

const COLOR_WORDS = ["Blue", "Red", "Green", "Orange", "Purple", "Teal", "Pink", "Grey", "Cyan"];

export function teamColor(t) {
  return `var(--team${t % 9})`;
}

/** Helpers over one message: deal seats <-> table seats, names, teams. */
export function context(S) {
  const t = S.table;
  const v = S.view;
  const dealSeats = t.deal_seats;
  const n = v ? v.hand_sizes.length : t.seats.length;
  const tableSeat = (ds) => dealSeats[ds];
  const nameOf = (ds) => {
    const seat = t.seats[tableSeat(ds)];
    return (seat && seat.name) || `seat ${ds}`;
  };
  const teamOf = (ds) => t.teams[ds];
  // the deal numbers teams afresh after a team is out; colours and names follow the match's teams
  const matchTeam = (team) => (t.match_teams && t.match_teams[team] !== undefined ? t.match_teams[team] : team);
  const sideWord = t.side_word || "team";
  const nTeams = new Set(t.teams).size;
  const teamName = (team) => {
    if (nTeams < n) return COLOR_WORDS[matchTeam(team) % COLOR_WORDS.length];
    for (let ds = 0; ds < n; ds++) if (teamOf(ds) === team) return nameOf(ds);
    return `${sideWord} ${team}`;
  };
  return { t, v, n, tableSeat, nameOf, teamOf, matchTeam, teamName, me: S.you ? S.you.deal_seat : null, sideWord };
}

export function renderAll(S, actions) {
  $("dot").classList.toggle("on", S.online);
  const banner = $("conn-banner");
  show(banner, !S.online && S.table !== null);
  banner.textContent = S.online ? "" : t("Reconnecting… the table is out of reach; your moves are sent when it is back.");
  if (!S.table) return;
  if (S.sentAt !== null && S.sentAt !== S.version) S.sentAt = null;
  const c = context(S);
  $("title").textContent = c.t.name;
  document.title = `${c.t.name} · fiftysix`;
  $("code").textContent = c.t.code;
  renderJoin(S, actions);
  renderScore(S, c);
  renderSeats(S, c);
  renderTable(S, c);
  renderAction(S, c, actions, $("action-panel"));
  renderHand(S, c, actions, $("hand-panel"));
  renderSummary(S, c, actions);
  renderLobby(S, c, actions);
  renderAuction(S, c);
  renderHistory(S, actions);
  renderExtras(S, c, actions);
}

function renderJoin(S, actions) {
  const panel = $("join-panel");
  const joined = S.you && S.you.joined;
  show(panel, !joined);
  if (joined || panel.dataset.drawn) return;
  panel.dataset.drawn = "1";
  const input = h("input", { id: "join-name", maxlength: 24, placeholder: "your name", autocomplete: "nickname",
                             value: localStorage.getItem("fiftysix-name") || "" });
  const go = () => { if (input.value.trim()) actions.join(input.value.trim()); };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  panel.append(h("h2", {}, "You are watching"),
    h("div", { class: "row" }, input, h("button", { class: "primary", id: "join-btn", onclick: go }, "Join")),
    h("div", { class: "muted" }, "Pick a name to join; you then take a free seat."));
}

function renderScore(S, c) {
  const panel = clear($("score-panel"));
  const m = c.t.match;
  const rules = c.t.rules;
  panel.append(h("div", { class: "muted" }, `Game ${c.t.game} · ${typeof c.t.rules_short === "string"
    ? c.t.rules_short : c.t.rules_short.preset + " with house rules"} · host ${c.t.host_name}`));
  if (!m) {
    panel.append(h("div", {}, statusText(S, c)));
    return;
  }
  const unit = m.scoring === "tables" ? "tables" : "points";
  const row = h("div", { class: "score", id: "score" });
  m.standings.forEach((value, team) => {
    const names = m.team_seats[team].map((ts) => (c.t.seats[ts] && c.t.seats[ts].name) || `seat ${ts}`);
    const label = m.team_seats.length < c.t.seats.length ? `${COLOR_WORDS[team % COLOR_WORDS.length]} ` : "";
    row.append(h("div", { class: "team", style: `--c:${teamColor(team)}` },
      h("div", { class: "n" }, label, `${value} `, h("span", { class: "muted" }, unit)),
      h("div", { class: "who", title: names.join(", ") }, names.join(" & "))));
  });
  panel.append(row);
  const target = rules.target ? ` · target ${rules.target}` : "";
  panel.append(h("div", { class: "muted", id: "deal-line" },
    `Match ${m.number} · deal ${m.deal_number}${target} · ${statusText(S, c)}`));
}

function statusText(S, c) {
  const st = c.t.status;
  if (st === "lobby") return "waiting for the host to start";
  if (st === "deal_over") return "deal over";
  if (st === "match_over") return "match over";
  const v = c.v;
  if (!S.online) return "reconnecting…";
  if (S.you && S.you.waiting) return "a computer player plays your seat until this deal ends";
  if (!v || v.to_move === null) return "";
  const who = v.to_move === c.me ? "you" : c.nameOf(v.to_move);
  const what = { auction: "call", play: "play", trump: "choose trumps", discard: "discard" }[v.phase] || v.phase;
  return `${who} to ${what}`;
}

function renderSeats(S, c) {
  const box = clear($("seats"));
  const v = c.v;
  const playing = v && c.t.status !== "lobby";
  if (!playing) {
    show(box, false);
    return;
  }
  show(box, true);
  box.style.gridTemplateColumns = `repeat(${c.n <= 4 ? c.n : c.n % 4 === 0 ? 4 : 3}, minmax(0, 1fr))`;
  const order = [];
  const start = c.me === null ? 0 : c.me;
  for (let k = 0; k < c.n; k++) order.push((start + k) % c.n);
  const trickSeats = currentTrickSeats(S, c);
  for (const ds of order) {
    const seat = c.t.seats[c.tableSeat(ds)];
    const badges = [];
    if (v.dealer === ds) badges.push(h("span", { class: "badge" }, "dealer"));
    if (seat.kind === "player" && !seat.online) badges.push(h("span", { class: "badge off" }, "offline"));
    if (seat.covered) badges.push(h("span", { class: "badge" }, "bot plays"));
    if (seat.kind === "bot") badges.push(h("span", { class: "badge" }, "bot"));
    let below = null;
    const played = trickSeats.get(ds);
    if (played) below = card(played, { small: true });
    else if (v.phase === "auction") {
      const calls = S.movers.auction.map((s, i) => [s, v.auction[i]]).filter(([s]) => s === ds);
      if (calls.length) below = h("span", { class: "lastcall" }, pretty(calls[calls.length - 1][1]));
    }
    const declarer = v.contract && (v.contract.declarer ?? v.contract.bidder);
    box.append(h("div", {
      class: `seat${v.to_move === ds ? " tomove" : ""}${ds === c.me ? " me" : ""}`, style: `--c:${teamColor(c.matchTeam(c.teamOf(ds)))}`,
      "data-seat": ds,
    },
    h("div", { class: "name", title: seat.name || "" }, ds === c.me ? `${seat.name} (you)` : seat.name || "—"),
    h("div", { class: "meta" }, `${v.hand_sizes[ds]} cards`, declarer === ds ? " · declarer" : "", ...badges),
    h("div", { class: "played" }, below)));
  }
}

/** Deal seat -> card for the trick in progress, from the public list of who played each card. */
function currentTrickSeats(S, c) {
  const out = new Map();
  const v = c.v;
  if (!v || !v.trick || !S.movers) return out;
  const cards = v.trick.cards;
  const seats = S.movers.play.slice(S.movers.play.length - cards.length);
  cards.forEach((cd, i) => out.set(seats[i], cd));
  return out;
}

function trickSeats(S, c, index) {
  const before = c.v.tricks.slice(0, index).reduce((a, t) => a + t.cards.length, 0);
  return S.movers.play.slice(before, before + c.v.tricks[index].cards.length);
}

function contractText(c) {
  const k = c.v.contract;
  if (!k) return null;
  const who = k.declarer ?? k.bidder;
  const strain = k.strain || k.trump;
  const shown = !strain ? "" : strain === "NT" ? " no trumps" : pretty(`1${strain}`).slice(1);
  const mult = k.multiplier === 2 ? ", doubled" : k.multiplier === 4 ? ", redoubled" : "";
  return `${k.value}${shown} by ${who === c.me ? "you" : c.nameOf(who)}${mult}`;
}

function renderTable(S, c) {
  const panel = $("table-panel");
  const v = c.v;
  show(panel, !!v);
  if (!v) return;
  clear(panel);
  const facts = h("dl", { class: "facts" });
  const add = (k, val) => facts.append(h("dt", {}, k), h("dd", {}, val));
  add("Contract", contractText(c) || (v.phase === "auction" ? "bidding…" : "none"));
  let trump;
  if (v.trump_hidden) trump = v.trump ? `${trumpText(v.trump)} (hidden from the others)` : "hidden";
  else if (v.trump) trump = trumpText(v.trump);
  else trump = v.phase === "auction" ? "not yet" : v.phase === "trump" ? "being chosen" : "none";
  add("Trump", trump);
  const pts = v.points.map((p, team) => `${c.teamName(team)} ${p}`).join(" · ");
  add("Card points", pts);
  if (v.kitty_size) add("Kitty", `${v.kitty_size} cards`);
  if (v.discard && v.discard.length) add("Discard", v.discard.map(pretty).join(" "));
  panel.append(facts);
  if (v.trick) {
    const seats = currentTrickSeats(S, c);
    const row = h("div", { class: "trick", id: "trick" });
    for (const [ds, cd] of seats) row.append(h("div", { class: "play" }, card(cd), h("span", { class: "who" }, c.nameOf(ds))));
    if (!seats.size) row.append(h("span", { class: "muted" }, v.to_move === c.me ? "Your lead." : `${c.nameOf(v.trick.leader)} leads.`));
    panel.append(h("h2", { style: "margin-top:8px" }, `Trick ${v.tricks.length + 1}`), row);
  }
  if (v.tricks.length) {
    const last = v.tricks.length - 1;
    const t = v.tricks[last];
    const btn = h("button", { type: "button", id: "last-trick-btn", onclick: () => { S.showLast = !S.showLast; renderTable(S, c); } },
      S.showLast ? "Hide last trick" : "Last trick");
    panel.append(h("div", { class: "row", style: "margin-top:6px" }, btn,
      h("span", { class: "muted" }, `${c.nameOf(t.winner)} won trick ${last + 1} (${t.points} points)`)));
    if (S.showLast) {
      const seats = trickSeats(S, c, last);
      panel.append(h("div", { class: "trick" }, t.cards.map((cd, i) =>
        h("div", { class: `play${seats[i] === t.winner && t.cards.indexOf(cd) === i ? " win" : ""}` },
          card(cd, { small: true }), h("span", { class: "who" }, c.nameOf(seats[i]))))));
    }
  }
}

function renderSummary(S, c, actions) {
  const panel = $("summary-panel");
  const st = c.t.status;
  const v = c.v;
  const on = (st === "deal_over" || st === "match_over") && v && v.result;
  show(panel, on);
  if (!on) return;
  clear(panel);
  const r = v.result;
  const m = c.t.match;
  const number = c.t.last_deal ? c.t.last_deal.number : null;
  panel.append(h("h2", {}, `Deal ${m.deal_number} is over`));
  if (!r.contract) panel.append(h("p", { class: "big", id: "summary-line" }, "Nobody bid: the deal is thrown in."));
  else {
    const who = c.teamName(r.contract.team);
    panel.append(h("p", { class: "big", id: "summary-line" },
      `${who} ${r.made ? "made" : "failed"}: ${contractText(c)}.`));
    panel.append(h("p", {}, "Card points: ", r.points.map((p, team) => `${c.teamName(team)} ${p}`).join(" · ")));
    if (r.score) {
      const unit = m.scoring === "tables" ? "tables" : "points";
      panel.append(h("p", {}, `Change (${unit}): `,
        r.score.map((s, team) => `${c.teamName(team)} ${s > 0 ? "+" : ""}${s}`).join(" · ")));
    }
  }
  if (st === "match_over") {
    const w = m.winner;
    const names = w === null ? null : m.team_seats[w].map((ts) => c.t.seats[ts].name).join(" & ");
    panel.append(h("p", { class: "big" }, w === null ? "The match is over: a tie." : `${names} won the match!`),
      h("p", { class: "muted" }, m.end_reason));
  }
  const row = h("div", { class: "row" });
  const seated = S.you && (S.you.seat !== null || S.you.host);
  if (st === "deal_over" && seated) row.append(h("button", { class: "primary", id: "next-btn", onclick: () => actions.send({ type: "next" }) }, "Next deal"));
  if (st === "match_over" && seated) row.append(h("button", { class: "primary", id: "rematch-btn", onclick: () => actions.send({ type: "rematch" }) }, "Rematch, same seats"));
  if (number !== null) row.append(h("a", { href: keyed(S, `/api/tables/${c.t.code}/deals/${number}.json`), download: "" }, "Download the record"));
  panel.append(row);
}

function renderLobby(S, c, actions) {
  const panel = $("lobby-panel");
  const t = c.t;
  const you = S.you || {};
  const lobby = t.status === "lobby";
  const playing = t.status === "playing";
  const offered = t.offered || [];
  // during a deal a late friend may take only a seat the host offered (the seat rule, docs/server.md)
  const takeable = (s) => (lobby ? s.kind !== "player" : s.kind === "bot" && (!playing || offered.includes(s.seat)));
  const canTake = you.joined && you.seat === null && t.seats.some(takeable);
  const knocks = you.host ? S.knocks : [];
  show(panel, lobby || canTake || knocks.length > 0 || (you.host && (t.status !== "playing" || t.spectators.length > 0)));
  clear(panel);
  panel.append(h("h2", {}, lobby ? "Seats" : "Seats and players"));
  const list = h("div", {});
  for (const seat of t.seats) {
    const row = h("div", { class: "row", style: "justify-content:space-between;margin:4px 0", "data-lobby-seat": seat.seat },
      h("span", { style: `border-left:5px solid ${teamColor((t.seat_teams || t.teams)[seat.seat] ?? 0)};padding-left:6px` },
        `Seat ${seat.seat}: `, h("b", {}, seat.name || "empty"), seat.seat === you.seat ? " (you)" : ""));
    const buttons = h("span", { class: "row" });
    const free = takeable(seat) && (lobby || you.seat === null);
    if (you.joined && free && you.seat !== seat.seat) {
      buttons.append(h("button", { onclick: () => actions.send({ type: "sit", seat: seat.seat }) }, "Sit here"));
    }
    if (you.host && lobby && seat.kind === "empty") {
      buttons.append(h("button", { onclick: () => actions.send({ type: "bot", seat: seat.seat, bot: t.fill || "random" }) }, "Add computer"));
    }
    if (you.host && lobby && seat.kind === "bot") {
      buttons.append(h("button", { onclick: () => actions.send({ type: "unbot", seat: seat.seat }) }, "Remove"));
    }
    if (you.host && playing && seat.kind === "bot" && !offered.includes(seat.seat)) {
      buttons.append(h("button", { title: "let a friend who is watching take this seat now",
        onclick: () => actions.send({ type: "offer", seat: seat.seat }) }, "Offer to a friend"));
    }
    row.append(buttons);
    list.append(row);
  }
  panel.append(list);
  for (const k of knocks) {
    panel.append(h("div", { class: "row knock", "data-knock": k.player }, h("b", {}, k.name), " asks to join",
      h("button", { class: "primary", onclick: () => actions.send({ type: "admit", player: k.player }) }, "Let in"),
      h("button", { onclick: () => actions.send({ type: "refuse", player: k.player }) }, "Refuse")));
  }
  if (t.spectators.length) {
    const more = (t.spectator_count || 0) - t.spectators.length;
    panel.append(h("div", { class: "muted" }, `Watching: ${t.spectators.join(", ")}${more > 0 ? ` and ${more} more` : ""}`));
  }
  if (you.host && t.status !== "playing") {
    const a = h("select", { "aria-label": "first seat to swap" });
    const b = h("select", { "aria-label": "second seat to swap" });
    for (const seat of t.seats) {
      a.append(h("option", { value: seat.seat }, `${seat.seat}: ${seat.name || "empty"}`));
      b.append(h("option", { value: seat.seat, selected: seat.seat === 1 }, `${seat.seat}: ${seat.name || "empty"}`));
    }
    panel.append(h("div", { class: "row", style: "margin-top:6px" }, "Swap", a, b,
      h("button", { onclick: () => actions.send({ type: "swap", a: Number(a.value), b: Number(b.value) }) }, "Swap")));
  }
  const row = h("div", { class: "row", style: "margin-top:8px" });
  if (lobby && you.host) {
    const empty = t.seats.filter((s) => s.kind === "empty").length;
    row.append(h("button", { class: "primary", id: "start-btn", onclick: () => actions.send({ type: "start" }) }, "Start the match"));
    if (empty) row.append(h("span", { class: "muted" }, t.fill ? `${empty} empty seat(s) will get computer players (${t.fill}).` : `${empty} seat(s) still empty.`));
  }
  if (lobby && you.seat !== null && you.seat !== undefined) row.append(h("button", { onclick: () => actions.send({ type: "stand" }) }, "Leave my seat"));
  panel.append(row);
}

function renderAuction(S, c) {
  const panel = $("auction-panel");
  const v = c.v;
  show(panel, !!v);
  if (!v) return;
  const open = v.phase === "auction";
  clear(panel);
  const list = h("ol", { class: "auction", id: "auction" });
  v.auction.forEach((call, i) => {
    const ds = S.movers.auction[i];
    list.append(h("li", {}, h("b", {}, ds === c.me ? "You" : c.nameOf(ds)), h("span", { class: "call" }, pretty(call)),
      h("span", { class: "meaning" }, v.auction_meanings[i])));
  });
  if (!v.auction.length) list.append(h("li", { class: "muted" }, `${c.nameOf((v.dealer + 1) % c.n)} calls first.`));
  const details = h("details", { open: open || window.innerWidth >= 760 }, h("summary", {}, `Auction (${v.auction.length} calls)`), list);
  panel.append(details);
  list.scrollTop = list.scrollHeight;
}

function renderHistory(S, actions) {
  const panel = $("history-panel");
  const deals = S.deals;
  show(panel, deals.length > 0);
  if (!deals.length) return;
  clear(panel);
  const table = h("table", { class: "history", id: "history" },
    h("tr", {}, h("th", {}, "#"), h("th", {}, "Contract"), h("th", {}, "Result"), h("th", {}, "Record")));
  for (const d of deals) {
    const k = d.contract;
    const text = k ? `${k.value}${pretty(k.strain || k.trump || "")}${k.multiplier > 1 ? (k.multiplier === 2 ? " X" : " XX") : ""}` : "thrown in";
    table.append(h("tr", {}, h("td", {}, `${d.match}.${d.deal}`), h("td", {}, text),
      h("td", {}, k ? (d.made === null || d.made === undefined ? (d.score || []).join(" / ") : d.made ? "made" : "failed") : "—"),
      h("td", {}, h("a", { href: keyed(S, `/api/tables/${S.table.code}/deals/${d.number}.json`), download: "" }, "JSON"))));
  }
  panel.append(h("h2", {}, "Deals of this table"));
  if (S.olderDeals) panel.append(h("button", { id: "older-deals", onclick: () => actions.olderDeals() }, "Earlier deals"));
  panel.append(table);
  const links = h("p", { id: "match-records" }, "Whole matches: ");
  for (let n = 1; n <= (S.table.matches || 0); n++) {
    if (n > 1) links.append(" · ");
    links.append(h("a", { href: keyed(S, `/api/tables/${S.table.code}/matches/${n}.json`), download: "" }, `match ${n}`));
  }
  panel.append(links);
}

export { isCard };
