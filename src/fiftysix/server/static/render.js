// Drawing the table from the latest message. Names are user data: they only ever go in as text.
import { botWord, card, clear, colorWord, h, isCard, pretty, showPanel, trumpText } from "./dom.js";
import { finishedTrick, renderFelt } from "./felt.js";
import { renderAction, renderHand, serviceDown } from "./picker.js";
import { renderExtras } from "./extras.js";
import { t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const show = (el, on) => el.classList.toggle("hidden", !on);

/** A download link of this table (a private table's secret goes along for a viewer who is not a member). */
const keyed = (S, url) => (S.key && !(S.you && S.you.joined) ? `${url}?k=${encodeURIComponent(S.key)}` : url);


export function teamColor(team) {
  return `var(--team${team % 9})`;
}

/** Helpers over one message: deal seats <-> table seats, names, teams. */
export function context(S) {
  const tb = S.table;
  const v = S.view;
  const dealSeats = tb.deal_seats;
  const n = v ? v.hand_sizes.length : tb.seats.length;
  const tableSeat = (ds) => dealSeats[ds];
  const nameOf = (ds) => {
    const seat = tb.seats[tableSeat(ds)];
    return (seat && seat.name) || t("seat {n}", { n: ds });
  };
  const teamOf = (ds) => tb.teams[ds];
  // the deal numbers teams afresh after a team is out; colours and names follow the match's teams
  const matchTeam = (team) => (tb.match_teams && tb.match_teams[team] !== undefined ? tb.match_teams[team] : team);
  const sideWord = tb.side_word || "team";
  const nTeams = new Set(tb.teams).size;
  const teamName = (team) => {
    if (nTeams < n) return colorWord(matchTeam(team));
    for (let ds = 0; ds < n; ds++) if (teamOf(ds) === team) return nameOf(ds);
    return `${sideWord} ${team}`;
  };
  return { t: tb, v, n, tableSeat, nameOf, teamOf, matchTeam, teamName, me: S.you ? S.you.deal_seat : null, sideWord };
}

export function renderAll(S, actions) {
  $("dot").classList.toggle("on", S.online);
  renderBanner(S);
  if (!S.table) {       // nothing heard from the table yet (offline, or still connecting): at least say which
    $("title").textContent = t("Table {code}", { code: S.code });
    $("code").textContent = S.code;
    return;
  }
  if (S.sentAt !== null && S.sentAt !== S.version) S.sentAt = null;
  const c = context(S);
  $("title").textContent = c.t.name;
  // a player in another tab sees at once that it is their turn
  const mine = S.sentAt === null && !c.t.paused && !serviceDown(S) && c.v && (c.v.legal || []).length > 0;
  document.title = mine ? `● ${t("Your turn")} · ${c.t.name}` : `${c.t.name} · fiftysix`;
  $("code").textContent = c.t.code;
  renderJoin(S, actions);
  renderScore(S, c);
  renderFelt(S, c, actions);
  renderTable(S, c);
  renderAction(S, c, actions, $("action-panel"));
  renderHand(S, c, actions, $("hand-panel"));
  renderSummary(S, c, actions);
  renderLobby(S, c, actions);
  renderAuction(S, c);
  renderHistory(S, actions);
  renderExtras(S, c, actions);
}

/** Out of reach, or the server's database or Redis away: say so, and that play goes on by itself. */
function renderBanner(S) {
  const banner = $("conn-banner");
  const down = Object.keys(S.services || {});
  let text = "";
  if (down.includes("database")) {
    text = t("The table is waiting: the server's database is not answering. Play goes on by itself when it is back.");
  } else if (down.includes("redis")) {
    text = t("The table is waiting: the server's processes cannot reach each other. Play goes on by itself " +
             "when they can.");
  } else if (!S.online && S.table !== null) {
    text = t("Reconnecting… the table is out of reach; your moves are sent when it is back.");
  } else if (!S.online && S.tried) {
    text = t("No connection: the table appears here as soon as this device is back online.");
  }
  show(banner, text !== "");
  banner.textContent = text;
  banner.classList.toggle("service", down.length > 0);
}

function renderJoin(S, actions) {
  const panel = $("join-panel");
  const joined = S.you && S.you.joined;
  show(panel, !joined);
  if (joined || panel.dataset.drawn) return;
  panel.dataset.drawn = "1";
  const input = h("input", { id: "join-name", maxlength: 24, placeholder: t("your name"), autocomplete: "nickname",
                             "aria-label": t("your name"), value: localStorage.getItem("fiftysix-name") || "" });
  const go = () => { if (input.value.trim()) actions.join(input.value.trim()); };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  panel.append(h("h2", {}, t("You are watching")),
    h("div", { class: "row" }, input, h("button", { class: "primary", id: "join-btn", onclick: go }, t("Join"))),
    h("div", { class: "muted" }, t("Pick a name to join; you then take a free seat.")));
}

function rulesLine(c) {
  const short = c.t.rules_short;
  const rules = typeof short === "string" ? short : t("{preset} with house rules", { preset: short.preset });
  return t("Game {game} · {rules} · host {host}", { game: c.t.game, rules, host: c.t.host_name });
}

function renderScore(S, c) {
  const panel = clear($("score-panel"));
  const m = c.t.match;
  const rules = c.t.rules;
  panel.append(h("div", { class: "muted" }, rulesLine(c)));
  if (S.you && S.you.claimed !== null && S.you.claimed !== undefined) {   // one tap to a game, mid-deal
    panel.append(h("p", { class: "paused-note", id: "claim-line" },
      t("Your seat from the next deal: seat {n}. Until then you watch.", { n: S.you.claimed })));
  }
  if (!m) {
    panel.append(h("div", { id: "deal-line" }, statusText(S, c)));
    return;
  }
  const ev = c.t.event;
  if (ev) {     // a club night's table: its own score means nothing, the board does
    panel.append(h("div", { class: "big", id: "event-board" }, t("Board {k} of {n}", { k: ev.board, n: ev.boards })));
    panel.append(h("div", { class: `muted${S.online ? "" : " offline"}`, id: "deal-line" }, statusText(S, c)));
    return;
  }
  const row = h("div", { class: "score", id: "score" });
  m.standings.forEach((value, team) => {
    const names = m.team_seats[team].map((ts) => (c.t.seats[ts] && c.t.seats[ts].name) || t("seat {n}", { n: ts }));
    const label = m.team_seats.length < c.t.seats.length ? `${colorWord(team)} ` : "";
    const amount = m.scoring === "tables" ? tn("{n} table", "{n} tables", value) : tn("{n} point", "{n} points", value);
    row.append(h("div", { class: "team", style: `--c:${teamColor(team)}` },
      h("div", { class: "n" }, label, amount),
      h("div", { class: "who" }, names.join(" & "))));
  });
  panel.append(row);
  const parts = [t("Match {m} · deal {d}", { m: m.number, d: m.deal_number })];
  if (rules.target) parts.push(t("target {n}", { n: rules.target }));
  parts.push(statusText(S, c));
  panel.append(h("div", { class: `muted${S.online ? "" : " offline"}`, id: "deal-line" }, parts.filter(Boolean).join(" · ")));
}

const DOING = () => ({ auction: t("call"), play: t("play"), trump: t("choose trumps"), discard: t("discard") });

/** "Asha to play", "you to call": whose turn it is, in words. */
export function turnText(c) {
  const v = c.v;
  if (!v || v.to_move === null) return "";
  const what = DOING()[v.phase] || v.phase;
  return v.to_move === c.me ? t("you to {what}", { what }) : t("{name} to {what}", { name: c.nameOf(v.to_move), what });
}

function statusText(S, c) {
  const st = c.t.status;
  if (!S.online) return t("reconnecting…");
  if (st === "lobby") return t("waiting for the host to start");
  if (st === "deal_over") return t("deal over");
  if (st === "match_over") return t("match over");
  if (S.you && S.you.waiting) return t("a computer player plays your seat until this deal ends");
  if (c.t.paused) return t("paused by the host");
  return turnText(c);
}

/** "28♥, doubled": the contract without who made it. */
function bidText(k) {
  const strain = k.strain || k.trump;
  const shown = !strain ? "" : strain === "NT" ? ` ${t("no trumps")}` : pretty(`1${strain}`).slice(1);
  const mult = k.multiplier === 2 ? t(", doubled") : k.multiplier === 4 ? t(", redoubled") : "";
  return `${k.value}${shown}${mult}`;
}

function declarerName(c, k) {
  const who = k.declarer ?? k.bidder;
  return who === c.me ? t("you") : c.nameOf(who);
}

export function contractText(c) {
  const k = c.v.contract;
  if (!k) return null;
  return t("{bid} by {name}", { bid: bidText(k), name: declarerName(c, k) });
}

function renderTable(S, c) {
  const panel = $("table-panel");
  const v = c.v;
  if (!showPanel(panel, !!v)) return;
  clear(panel);
  const facts = h("dl", { class: "facts" });
  const add = (k, val) => facts.append(h("dt", {}, k), h("dd", {}, val));
  add(t("Contract"), contractText(c) || (v.phase === "auction" ? t("bidding…") : t("none")));
  let trump;
  if (v.trump_hidden) trump = v.trump ? t("{trump} (hidden from the others)", { trump: trumpText(v.trump) }) : t("hidden");
  else if (v.trump) trump = trumpText(v.trump);
  else trump = v.phase === "auction" ? t("not yet") : v.phase === "trump" ? t("being chosen") : t("none");
  add(t("Trump"), trump);
  add(t("Card points"), v.points.map((p, team) => `${c.teamName(team)} ${p}`).join(" · "));
  if (v.kitty_size) add(t("Kitty"), tn("{n} card", "{n} cards", v.kitty_size));
  if (v.discard && v.discard.length) add(t("Discard"), v.discard.map(pretty).join(" "));
  panel.append(facts);
  if (v.tricks.length) {
    const last = v.tricks.length - 1;
    const tr = v.tricks[last];
    const btn = h("button", { type: "button", id: "last-trick-btn", "aria-expanded": S.showLast ? "true" : "false",
      onclick: () => { S.showLast = !S.showLast; renderTable(S, c); } },
    S.showLast ? t("Hide last trick") : t("Last trick"));
    const winner = tr.winner === c.me ? t("you") : c.nameOf(tr.winner);
    panel.append(h("div", { class: "row", style: "margin-top:6px" }, btn,
      h("span", { class: "muted" }, t("{name} won trick {n} ({points} points)", { name: winner, n: last + 1, points: tr.points }))));
    if (S.showLast) {
      panel.append(h("div", { class: "lasttrick" }, finishedTrick(S, v, last).map(([ds, cd]) =>
        h("div", { class: `play${ds === tr.winner ? " win" : ""}` },
          card(cd, { small: true }), h("span", { class: "who" }, c.nameOf(ds))))));
    }
  }
}

/** A team's name, with "(your team)" after the viewer's own. */
function teamLabel(c, team) {
  const name = c.teamName(team);
  return c.me !== null && c.teamOf(c.me) === team && name !== t("you") ? `${name} (${t("your team")})` : name;
}

function renderSummary(S, c, actions) {
  const panel = $("summary-panel");
  const st = c.t.status;
  const v = c.v;
  const on = (st === "deal_over" || st === "match_over") && v && v.result;
  if (!showPanel(panel, on)) return;
  clear(panel);
  const r = v.result;
  const m = c.t.match;
  const number = c.t.last_deal ? c.t.last_deal.number : null;
  panel.append(h("h2", {}, c.t.event ? t("Board {k} is over", { k: c.t.event.board }) : t("Deal {n} is over", { n: m.deal_number })));
  if (!r.contract) panel.append(h("p", { class: "big", id: "summary-line" }, t("Nobody bid: the deal is thrown in.")));
  else {
    const k = c.v.contract;
    // "Bot 1 made 20♦." when the team is its bidder; "Blue made 28♥ (bid by Asha)." otherwise: each named once
    const team = c.teamName(r.contract.team);
    const name = declarerName(c, k);
    const alone = team === name || team === c.nameOf(k.declarer ?? k.bidder);
    const bid = bidText(k);
    const ours = c.me !== null && c.teamOf(c.me) === r.contract.team;
    let line;
    if (alone) line = r.made ? t("{name} made {bid}.", { name, bid }) : t("{name} failed {bid}.", { name, bid });
    else if (ours) line = r.made ? t("Your team made {bid} (bid by {name}).", { bid, name })
      : t("Your team failed {bid} (bid by {name}).", { bid, name });
    else if (r.made) line = t("{team} made {bid} (bid by {name}).", { team, bid, name });
    else line = t("{team} failed {bid} (bid by {name}).", { team, bid, name });
    panel.append(h("p", { class: "big", id: "summary-line" }, line));
    panel.append(h("p", {}, t("Card points: "), r.points.map((p, team) => `${teamLabel(c, team)} ${p}`).join(" · ")));
    if (r.score) {
      const label = m.scoring === "tables" ? t("Change (tables): ") : t("Change (points): ");
      panel.append(h("p", {}, label, r.score.map((s, team) => `${teamLabel(c, team)} ${s > 0 ? "+" : ""}${s}`).join(" · ")));
    }
  }
  const ev = c.t.event;
  const nightOver = ev && ev.last && (st === "deal_over" || st === "match_over");
  if (nightOver) {
    panel.append(h("p", { class: "big", id: "event-over" }, t("The club night is over at this table: every board is played.")),
      h("p", {}, h("a", { href: ev.standings, class: "primary", id: "event-standings" }, t("See the standings"))));
  } else if (st === "match_over" && !ev) {
    const w = m.winner;
    const names = w === null ? null : m.team_seats[w].map((ts) => c.t.seats[ts].name).join(" & ");
    panel.append(h("p", { class: "big" }, w === null ? t("The match is over: a tie.") : t("{names} won the match!", { names })),
      h("p", { class: "muted" }, m.end_reason));
  }
  const row = h("div", { class: "row" });
  const seated = S.you && (S.you.seat !== null || S.you.host);
  if (st === "deal_over" && seated && !nightOver) row.append(h("button", { class: "primary", id: "next-btn", onclick: () => actions.send({ type: "next" }) }, ev ? t("Next board") : t("Next deal")));
  if (st === "match_over" && seated && !nightOver) row.append(h("button", { class: "primary", id: "rematch-btn", onclick: () => actions.send({ type: "rematch" }) }, ev ? t("Next board") : t("Rematch, same seats")));
  if (number !== null) row.append(h("a", { href: keyed(S, `/api/tables/${c.t.code}/deals/${number}.json`), download: "" }, t("Download the record")));
  panel.append(row);
}

function renderLobby(S, c, actions) {
  const panel = $("lobby-panel");
  const tb = c.t;
  const you = S.you || {};
  const lobby = tb.status === "lobby";
  const playing = tb.status === "playing";
  const offered = tb.offered || [];
  // during a deal a late friend may take only a seat the host offered (the seat rule, docs/server.md)
  const takeable = (s) => (lobby ? s.kind !== "player" : s.kind === "bot" && (!playing || offered.includes(s.seat)));
  const canTake = you.joined && you.seat === null && tb.seats.some(takeable);
  const knocks = you.host ? S.knocks : [];
  show(panel, lobby || canTake || knocks.length > 0 || (you.host && (tb.status !== "playing" || tb.spectators.length > 0)));
  clear(panel);
  panel.append(h("h2", {}, lobby ? t("Seats") : t("Seats and players")));
  const list = h("div", {});
  for (const seat of tb.seats) {
    const row = h("div", { class: "row lobby-seat", "data-lobby-seat": seat.seat },
      h("span", { class: "who", style: `border-left-color:${teamColor((tb.seat_teams || tb.teams)[seat.seat] ?? 0)}` },
        t("Seat {n}: ", { n: seat.seat }), h("b", {}, seat.name || t("empty")), seat.seat === you.seat ? ` ${t("(you)")}` : ""));
    const buttons = h("span", { class: "row" });
    const free = takeable(seat) && (lobby || you.seat === null);
    if (you.joined && free && you.seat !== seat.seat) {
      buttons.append(h("button", { onclick: () => actions.send({ type: "sit", seat: seat.seat }) }, t("Sit here")));
    }
    if (you.host && lobby && seat.kind === "empty") {
      buttons.append(h("button", { onclick: () => actions.send({ type: "bot", seat: seat.seat, bot: tb.fill || tb.add_bot }) }, t("Add computer")));
    }
    if (you.host && lobby && seat.kind === "bot") {
      buttons.append(h("button", { onclick: () => actions.send({ type: "unbot", seat: seat.seat }) }, t("Remove")));
    }
    if (you.host && playing && seat.kind === "bot" && !offered.includes(seat.seat)) {
      buttons.append(h("button", { title: t("let a friend who is watching take this seat now"),
        onclick: () => actions.send({ type: "offer", seat: seat.seat }) }, t("Offer to a friend")));
    }
    row.append(buttons);
    list.append(row);
  }
  panel.append(list);
  for (const k of knocks) {
    panel.append(h("div", { class: "row knock", "data-knock": k.player }, h("b", {}, k.name), ` ${t("asks to join")}`,
      h("button", { class: "primary", onclick: () => actions.send({ type: "admit", player: k.player }) }, t("Let in")),
      h("button", { onclick: () => actions.send({ type: "refuse", player: k.player }) }, t("Refuse"))));
  }
  if (tb.spectators.length) {
    const more = (tb.spectator_count || 0) - tb.spectators.length;
    panel.append(h("div", { class: "muted" }, more > 0
      ? t("Watching: {names} and {n} more", { names: tb.spectators.join(", "), n: more })
      : t("Watching: {names}", { names: tb.spectators.join(", ") })));
  }
  if (you.host && tb.status !== "playing") {
    const a = h("select", { "aria-label": t("first seat to swap") });
    const b = h("select", { "aria-label": t("second seat to swap") });
    for (const seat of tb.seats) {
      a.append(h("option", { value: seat.seat }, `${seat.seat}: ${seat.name || t("empty")}`));
      b.append(h("option", { value: seat.seat, selected: seat.seat === 1 }, `${seat.seat}: ${seat.name || t("empty")}`));
    }
    panel.append(h("div", { class: "row", style: "margin-top:6px" }, t("Swap"), a, b,
      h("button", { onclick: () => actions.send({ type: "swap", a: Number(a.value), b: Number(b.value) }) }, t("Swap"))));
  }
  const row = h("div", { class: "row", style: "margin-top:8px" });
  if (lobby && you.host) {
    const empty = tb.seats.filter((s) => s.kind === "empty").length;
    row.append(h("button", { class: "primary", id: "start-btn", onclick: () => actions.send({ type: "start" }) }, t("Start the match")));
    if (empty) {
      row.append(h("span", { class: "muted" }, tb.fill
        ? tn("{n} empty seat will get a computer player ({bot}).", "{n} empty seats will get computer players ({bot}).", empty,
          { bot: botWord(tb.fill, tb.fill_level) })
        : tn("{n} seat still empty.", "{n} seats still empty.", empty)));
    }
  }
  if (lobby && you.seat !== null && you.seat !== undefined) row.append(h("button", { onclick: () => actions.send({ type: "stand" }) }, t("Leave my seat")));
  panel.append(row);
}

function renderAuction(S, c) {
  const panel = $("auction-panel");
  const v = c.v;
  if (!showPanel(panel, !!v)) return;
  const open = v.phase === "auction";
  clear(panel);
  // a long auction scrolls in its box: focusable, so a keyboard can scroll it too (axe)
  const list = h("ol", { class: "auction", id: "auction", tabindex: 0, "aria-label": t("The calls of this deal") });
  v.auction.forEach((call, i) => {
    const ds = S.movers.auction[i];
    list.append(h("li", {}, h("b", {}, ds === c.me ? t("You") : c.nameOf(ds)), h("span", { class: "call" }, pretty(call)),
      h("span", { class: "meaning" }, v.auction_meanings[i])));
  });
  const first = (v.dealer + 1) % c.n;
  if (!v.auction.length) {
    list.append(h("li", { class: "muted" }, first === c.me ? t("You call first.") : t("{name} calls first.", { name: c.nameOf(first) })));
  }
  const calls = tn("{n} call", "{n} calls", v.auction.length);    // its own call: the extractor skips nested ones
  const details = h("details", { open: open || window.innerWidth >= 760 },
    h("summary", {}, t("Auction ({calls})", { calls })), list);
  panel.append(details);
  list.scrollTop = list.scrollHeight;
}

function renderHistory(S, actions) {
  const panel = $("history-panel");
  const deals = S.deals;
  if (!showPanel(panel, deals.length > 0)) return;
  clear(panel);
  // the score sheet: each deal's change for each team, and the match's score now at the foot
  const m = S.table.match;
  const teams = m && m.team_seats.length <= 4 ? m.team_seats.map((_, team) => team) : [];
  const head = (team) => {    // a team's colour as on the score panel (a player's name when each plays alone)
    const names = m.team_seats.length < S.table.seats.length ? colorWord(team)
      : m.team_seats[team].map((ts) => (S.table.seats[ts] && S.table.seats[ts].name) || "?").join(" & ");
    const mine = S.you && S.you.seat !== null && m.team_seats[team].includes(S.you.seat);
    return h("th", { scope: "col" }, mine ? `${names} (${t("your team")})` : names);
  };
  const body = h("tbody", {});
  const table = h("table", { class: "history", id: "history" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("Contract")),
      h("th", { scope: "col" }, t("Result")), teams.map(head))), body);
  for (const d of deals) {
    const k = d.contract;
    const text = k ? `${k.value}${pretty(k.strain || k.trump || "")}${k.multiplier > 1 ? (k.multiplier === 2 ? " X" : " XX") : ""}` : t("thrown in");
    const change = (team) => {
      const s = d.match === m.number && d.score ? d.score[team] : undefined;
      return h("td", { class: "run" }, s === undefined || s === null ? "" : `${s > 0 ? "+" : ""}${s}`);
    };
    // the deal's number is the link to its record (one column fewer on a phone)
    const number = `${d.match}.${d.deal}`;
    const link = h("a", { href: keyed(S, `/api/tables/${S.table.code}/deals/${d.number}.json`), download: "" },
      number, h("span", { class: "sr-only" }, ` ${t("record (JSON)")}`));
    body.append(h("tr", {}, h("td", {}, link), h("td", {}, text),
      h("td", {}, k ? (d.made === null || d.made === undefined ? (d.score || []).join(" / ") : d.made ? t("made") : t("failed")) : "—"),
      teams.map(change)));
  }
  if (teams.length && !S.table.event) {    // a club night's table: its own running score means nothing
    const now = (value) => (m.scoring === "tables" ? tn("{n} table", "{n} tables", value) : tn("{n} point", "{n} points", value));
    table.append(h("tfoot", {}, h("tr", { class: "total" }, h("th", { scope: "row", colspan: 3 }, t("Score now")),
      teams.map((team) => h("td", { class: "run" }, now(m.standings[team]))))));
  }
  panel.append(h("h2", {}, t("Score sheet")));
  if (S.olderDeals) panel.append(h("button", { id: "older-deals", onclick: () => actions.olderDeals() }, t("Earlier deals")));
  panel.append(table);
  const links = h("p", { id: "match-records" }, t("Whole matches: "));
  for (let n = 1; n <= (S.table.matches || 0); n++) {
    if (n > 1) links.append(" · ");
    links.append(h("a", { href: keyed(S, `/api/tables/${S.table.code}/matches/${n}.json`), download: "" }, t("match {n}", { n })));
  }
  panel.append(links);
}

export { isCard };
