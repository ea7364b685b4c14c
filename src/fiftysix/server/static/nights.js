// Club nights on the club page (issue 44): the club's events, the form for a new one (the owner's, and the members'
// the owner ticks); /club#n=ID shows an event: its teams and sign-up, its maker's and the owner's start and close,
// the standings (only boards every table finished) and each shown board's results at every table (server/nights).
import { colorWord, h, trumpText } from "./dom.js";
import { t } from "./i18n.js";

const PRESETS = ["56-6", "56-4", "56-8", "55"];
const LEVELS = ["beginner", "club", "expert"];
const levelWord = (l) => ({ beginner: t("beginner"), club: t("club player"), expert: t("expert") })[l] || l;
const statusWord = (s) => ({ open: t("sign-up open"), running: t("being played"), paused: t("paused"), closed: t("closed") })[s] || s;
const REFRESH_MS = 15000;     // a running event's standings and tables, looked at again while the page is open

function field(label, input) {
  return h("label", { class: "night-field" }, h("span", {}, label), input);
}

/** The owner's ticks: which members may make club nights too. */
function makersBox(club, makers, api) {
  const others = club.members.filter((m) => m.id !== club.owner);
  if (!others.length) return h("div");
  return h("div", { class: "night-form", id: "nt-makers" }, h("span", {}, t("Members who may make club nights:")),
    ...others.map((m) => {
      const tick = h("input", { type: "checkbox", value: m.id, class: "nt-maker", checked: makers.includes(m.id) });
      tick.addEventListener("change", async () => {
        const path = `/api/clubs/${encodeURIComponent(club.id)}/nights/makers`;
        const done = await api(path, { player: m.id, allow: tick.checked });
        if (!done) tick.checked = !tick.checked;
      });
      return h("label", { class: "night-free" }, tick, " ", m.name);
    }));
}

/** The club's events and, for its owner and the members the owner allows, the form that makes one. */
export async function nightsSection(club, api) {
  const box = h("div", { id: "nights" }, h("h2", {}, t("Club nights")));
  const data = await api(`/api/clubs/${encodeURIComponent(club.id)}/nights`);
  const list = h("ul", {}, ...(data ? data.nights : []).map((n) => h("li", {},
    h("a", { href: `/club#n=${n.id}` }, n.name), " ",
    h("span", { class: "muted" }, `${n.preset} · ${statusWord(n.status)}`))));
  if (!data || !data.nights.length) list.append(h("li", { class: "muted" }, t("No club night yet.")));
  box.append(list);
  if (club.is_owner && data) box.append(makersBox(club, data.makers, api));
  if (!data || !data.may_make) return box;
  const name = h("input", { id: "nt-name", maxlength: 40, value: t("Club night") });
  const preset = h("select", { id: "nt-preset" }, ...PRESETS.map((p) => h("option", { value: p }, p)));
  const boards = h("input", { id: "nt-boards", type: "number", min: 1, max: 32, value: 4 });
  const tables = h("input", { id: "nt-tables", type: "number", min: 2, max: 16, value: 3 });
  const level = h("select", { id: "nt-level" }, ...LEVELS.map((l) => h("option", { value: l }, levelWord(l))));
  const make = h("button", { class: "primary", id: "nt-make" }, t("Make a club night"));
  make.addEventListener("click", async () => {
    const made = await api(`/api/clubs/${encodeURIComponent(club.id)}/nights`, {
      name: name.value.trim(), preset: preset.value, boards: Number(boards.value), tables: Number(tables.value),
      level: level.value });
    if (made) { location.hash = `n=${made.id}`; location.reload(); }
  });
  box.append(h("div", { class: "night-form" }, field(t("Name"), name), field(t("Game"), preset),
    field(t("Boards"), boards), field(t("Tables"), tables), field(t("Computer players"), level), make));
  return box;
}

/** Where a team sits, in the words the table uses: "Table 2, Blue side" (a side is the team colour it plays under). */
const placeWords = (table, direction) => t("Table {n}, {colour} side", { n: table, colour: colorWord(direction) });

function standingsList(night) {
  // tied teams share a rank (1, 1, 3): the server's rank, drawn as the list item's number
  const rows = night.standings.map((s) => h("li", { value: s.rank ?? null }, h("b", {}, s.team), " ",
    h("span", { class: "muted" }, t("{score} over {n} boards", { score: (s.score > 0 ? "+" : "") + s.score.toFixed(2), n: s.boards }))));
  return h("ol", { class: "night-standings" }, ...rows);
}

/** A table's contract on a board in words: "40 ♠ spades by Team Asha, made" (56 and 55 alike); a side no team
 * took (the computers) by its colour. */
function contractWords(row) {
  const c = row.contract;
  if (!c) return t("no contract");
  const trump = trumpText(c.strain || c.trump);
  const known = typeof c.team === "number";
  const team = (known && row.teams && row.teams[c.team]) || (known ? t("the {colour} side", { colour: colorWord(c.team) }) : "?");
  const bid = t("{value} {trump} by {team}", { value: c.value, trump, team });
  const doubled = c.multiplier > 1 ? ` ×${c.multiplier}` : "";
  return `${bid}${doubled}, ${row.made ? t("made") : t("failed")}`;
}

async function boardBox(id, board, api) {
  const data = await api(`/api/nights/${encodeURIComponent(id)}/boards/${board}`);
  if (!data) return h("p", { class: "muted" }, t("Board {k} is not finished at every table yet.", { k: board }));
  return h("ul", { class: "night-board" }, ...data.tables.map((row) => h("li", {},
    t("Table {n}", { n: row.table }), ": ", h("span", { class: "night-contract" }, contractWords(row)), "; ",
    t("results {results}, compared {comparison}", { results: row.results.join(" / "), comparison: row.comparison.map((c) => (c > 0 ? "+" : "") + c.toFixed(2)).join(" / ") }),
    " ", h("a", { href: row.review, class: "night-review" }, t("Review")),
    " · ", h("a", { href: row.record, download: "" }, t("Record")))));
}

/** The event's tables and how far each has played; a link only to a table the reader may watch now (their own,
 * or any once the event is closed: the server gives no other). */
function tablesList(night) {
  return h("ul", { id: "nt-tables-made" }, ...night.tables_made.map((table) => {
    const label = table.yours ? t("Your table: {n}", { n: table.table }) : t("Table {n}", { n: table.table });
    return h("li", {},
      table.url ? h("a", { href: table.url, class: table.yours ? "primary" : "" }, label) : label,
      " · ", h("span", { class: "muted" },
        t("{done} of {boards} boards finished", { done: table.boards_finished, boards: night.boards })));
  }));
}

function ownerControls(night, id, api, post) {
  const button = (key, label, path) => {
    const b = h("button", { id: key }, label);
    b.addEventListener("click", () => post(path));
    return b;
  };
  const row = h("div", { class: "row" });
  if (night.status === "open" && night.without_team.length) {
    const boxes = night.without_team.map((m) => h("label", { class: "night-free" },
      h("input", { type: "checkbox", value: m.id, class: "nt-free" }), " ", m.name));
    const drawButton = h("button", { id: "nt-draw" }, t("Draw the ticked members into teams"));
    drawButton.addEventListener("click", () => post("draw", {
      players: boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.value) }));
    row.append(h("div", { class: "night-form" }, ...boxes, drawButton));
  }
  if (night.status === "open") row.append(button("nt-start", t("Start now"), "start"));
  if (night.status === "running") row.append(button("nt-pause", t("Pause every table"), "pause"));
  if (night.status === "paused") row.append(button("nt-resume", t("Resume"), "resume"));
  if (night.status !== "open" && night.status !== "closed") {
    row.append(button("nt-close", t("Close the event"), "close"));
    const seated = night.teams.flatMap((team) => team.players.map((p) => [p, team.name]));
    if (seated.length) {
      const who = h("select", { id: "nt-who" }, ...seated.map(([p, team]) => h("option", { value: p }, team)));
      const replace = h("button", { id: "nt-replace" }, t("Computer plays for them"));
      replace.addEventListener("click", () => post("replace", { player: who.value }));
      row.append(field(t("Replace a player"), who), replace);
    }
  }
  return row;
}

/** One event: teams, sign-up, its tables, the owner's controls, standings and the shown boards. */
export async function showNight(id, api, box, setTitle, refresh = true) {
  const night = await api(`/api/nights/${encodeURIComponent(id)}`);
  if (!night) return;
  const post = async (path, body = {}) => {
    if (await api(`/api/nights/${encodeURIComponent(id)}/${path}`, body)) location.reload();
  };
  setTitle(night.name);
  box.append(h("p", {}, h("a", { href: `/club#c=${night.club_id}` }, t("Back to the club"))));
  box.append(h("p", { class: "muted" }, `${night.preset} · ${t("{boards} boards, {tables} tables", { boards: night.boards, tables: night.tables })} · ${statusWord(night.status)}`));
  box.append(h("h2", {}, t("Teams")), h("ul", { id: "nt-teams" }, ...night.teams.map((team) =>
    h("li", {}, h("b", {}, team.name), " ", h("span", { class: "muted" }, placeWords(team.table, team.direction))))));
  if (night.status === "open") {
    const name = h("input", { id: "nt-team", maxlength: 40 });
    const tables = Array.from({ length: night.tables }, (_, i) => i + 1);
    const table = h("select", { id: "nt-table" }, ...tables.map((n) => h("option", { value: n }, t("Table {n}", { n }))));
    const sides = Array.from({ length: night.sides || 2 }, (_, d) => d);
    const side = h("select", { id: "nt-side" }, ...sides.map((d) =>
      h("option", { value: d }, t("{colour} side", { colour: colorWord(d) }))));
    const join = h("button", { class: "primary", id: "nt-join" }, t("Sign up"));
    join.addEventListener("click", async () => {
      if (await api(`/api/nights/${encodeURIComponent(id)}/teams`, {
        name: name.value.trim(), table: Number(table.value), direction: Number(side.value) })) location.reload();
    });
    box.append(h("div", { class: "night-form" }, field(t("Team name"), name), field(t("Table"), table),
      field(t("Side (the team colour at the table)"), side), join));
  }
  if (night.tables_made.length) box.append(h("h2", {}, t("Tables")), tablesList(night));
  if (night.is_owner) box.append(ownerControls(night, id, api, post));
  box.append(h("h2", {}, night.final ? t("Final standings") : t("Standings")),
    night.boards_shown.length ? standingsList(night) : h("p", { class: "muted" }, t("No board finished at every table yet.")));
  for (const board of night.boards_shown) {
    box.append(h("h3", {}, t("Board {k}", { k: board })), await boardBox(id, board, api));
  }
  if (refresh && night.status !== "closed") {   // standings move, a start time comes
    setInterval(async () => {
      const fresh = h("div");
      await showNight(id, api, fresh, setTitle, false);
      if (fresh.childNodes.length && !box.contains(document.activeElement)) box.replaceChildren(...fresh.childNodes);
    }, REFRESH_MS);
  }
}
