// The club page: /club lists your clubs and makes one; /club#c=ID shows a club (members by name, its open tables,
// recent matches; the owner's invite, removal, hand-over and watchers setting); /club#i=SECRET joins by an invite.
// Ids and invites ride in the fragment, which browsers send neither to the server nor in a Referer.
import { clear, dateText, h, knownName, ratingFigure, ratingNote } from "./dom.js";
import { t } from "./i18n.js";
import { nightsSection, showNight } from "./nights.js";

const $ = (id) => document.getElementById(id);
const hash = new URLSearchParams(location.hash.slice(1));

function showError(text) {
  $("cl-error").textContent = text || "";
  $("cl-error").classList.toggle("hidden", !text);
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({}));
  if (res.status === 401) $("cl-name-box").classList.remove("hidden");
  if (!res.ok) showError(data.error || res.statusText);
  return res.ok ? data : null;
}

function inviteLine(url) {
  const full = location.origin + url;
  return h("p", {}, t("Invite link (anyone with it may join):"), " ", h("input", { value: full, readonly: true }));
}

function ownerTools(club, box) {
  const id = club.id;
  const watch = h("input", { type: "checkbox", checked: club.watchers });
  watch.addEventListener("change", () => api(`/api/clubs/${id}/settings`, { watchers: watch.checked }));
  const invite = h("button", {}, t("New invite link"));
  const revoke = h("button", {}, t("Revoke the invite link"));
  const shown = h("div", {});
  invite.addEventListener("click", async () => {
    const data = await api(`/api/clubs/${id}/invite`, {});
    if (data) clear(shown).append(inviteLine(data.invite_url));
  });
  revoke.addEventListener("click", async () => {
    if (await api(`/api/clubs/${id}/revoke`, {})) clear(shown).append(h("p", {}, t("No invite link works now.")));
  });
  box.append(h("label", { class: "check" }, watch, " ", t("People outside the club may watch its tables")),
    h("div", { class: "row" }, invite, revoke), shown);
}

function memberRow(club, m) {
  const li = h("li", {}, m.name, m.id === club.owner ? ` · ${t("owner")}` : "");
  if (club.is_owner && m.id !== club.you) {
    const remove = h("button", {}, t("Remove"));
    const hand = h("button", {}, t("Make owner"));
    remove.addEventListener("click", async () => { if (await api(`/api/clubs/${club.id}/remove`, { player: m.id })) show(club.id); });
    hand.addEventListener("click", async () => { if (await api(`/api/clubs/${club.id}/owner`, { player: m.id })) show(club.id); });
    li.append(" ", remove, " ", hand);
  }
  return li;
}

async function show(id) {
  const club = await api(`/api/clubs/${encodeURIComponent(id)}`);
  const box = clear($("cl-club"));
  if (!club) return;
  showError("");
  $("cl-title").textContent = club.name;
  box.append(h("h2", {}, t("Tables")));
  const tables = h("ul", {}, ...club.tables.map((tb) => h("li", {}, h("a", { href: tb.url }, tb.name),
    " ", h("span", { class: "muted" }, t("{game} · seats free: {free}", { game: tb.game, free: tb.free })))));
  if (!club.tables.length) tables.append(h("li", { class: "muted" }, t("No open table.")));
  const make = h("button", { class: "primary" }, t("New club table"));
  make.addEventListener("click", async () => {
    const data = await api(`/api/clubs/${club.id}/tables`, {});
    if (data) location.href = data.url;
  });
  box.append(tables, make, h("h2", {}, t("Members")),
    h("ul", {}, ...club.members.map((m) => memberRow(club, m))));
  box.append(h("h2", {}, t("Leaderboard")), ratingNote());
  for (const family of ["56", "55"]) {
    const board = await api(`/api/clubs/${encodeURIComponent(club.id)}/leaderboard?family=${family}`);
    const rated = board ? board.members.filter((m) => m.matches > 0) : [];
    if (!rated.length) continue;
    box.append(h("h3", {}, family), h("ol", { class: "leaderboard", "data-family": family },
      ...rated.map((m) => h("li", {}, h("b", {}, m.name), " ",
        h("span", { class: "muted" }, `${t("rating")} `, ratingFigure(m.rating, m.provisional),
          " · ", t("matches: {n}", { n: m.matches }),
          m.last_played ? ` · ${t("last played {date}", { date: dateText(m.last_played) })}` : "")))));
  }
  box.append(h("h2", {}, t("Recent matches")));
  const matches = h("ul", {}, ...club.matches.map((m) => h("li", {},
    `${dateText(m.finished)} · ${m.game} · ${m.preset}`)));
  if (!club.matches.length) matches.append(h("li", { class: "muted" }, t("No finished match yet.")));
  box.append(matches);
  box.append(await nightsSection(club, api));
  if (club.is_owner) ownerTools(club, box);
}

async function mine() {
  const data = await api("/api/clubs");
  const box = clear($("cl-mine"));
  box.append(h("h2", {}, t("Your clubs")));
  if (data) {
    box.append(h("ul", {}, ...data.clubs.map((c) => h("li", {}, h("a", { href: `/club#c=${c.id}` }, c.name)))));
  }
  const name = h("input", { id: "cl-new", maxlength: 40 });
  const make = h("button", { class: "primary" }, t("Make a club"));
  make.addEventListener("click", async () => {
    const made = await api("/api/clubs", { name: name.value.trim() });
    if (made) { location.hash = `c=${made.id}`; location.reload(); }
  });
  box.append(h("label", { for: "cl-new" }, t("New club's name")), h("div", { class: "row" }, name, make));
}

async function main() {
  const known = await knownName();
  if (!$("cl-player").value) $("cl-player").value = known;   // typed before the script ran: kept
  $("cl-player-btn").addEventListener("click", async () => {
    const named = await api("/api/player", { name: $("cl-player").value.trim() });
    if (named) { localStorage.setItem("fiftysix-name", named.name); location.reload(); }   // every page knows it
  });
  if (hash.get("i")) {
    const joined = await api("/api/clubs/join", { invite: hash.get("i") });
    if (joined) { history.replaceState(null, "", `/club#c=${joined.id}`); await show(joined.id); }
  } else if (hash.get("c")) {
    await show(hash.get("c"));
  } else if (hash.get("n")) {
    await showNight(hash.get("n"), api, clear($("cl-club")), (name) => { $("cl-title").textContent = name; });
  }
  await mine();
}

window.addEventListener("hashchange", () => location.reload());
main();
