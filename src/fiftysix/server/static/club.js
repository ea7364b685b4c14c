// The club page: /club lists your clubs and makes one; /club#c=ID shows a club (members by name, its open tables,
// recent matches; the owner's invite, removal, hand-over and watchers setting); /club#i=SECRET joins by an invite.
// Ids and invites ride in the fragment, which browsers send neither to the server nor in a Referer.
import { clear, copyButton, dateText, h, knownName, levelName, ratingFigure, ratingNote } from "./dom.js";
import { t } from "./i18n.js";
import { drawGameChoice, options, presetOf } from "./create-form.js";
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

// The invite is stored only as a hash (a copied database hands out no invites): the link is shown from this
// device's memory of it (made with the club, or by "New invite link"); another device makes a new one.
const inviteKey = (id) => `fiftysix-invite-${id}`;

async function drawQr(path, box) {
  try {
    const res = await fetch("/api/share", { method: "POST", headers: { "Content-Type": "application/json" },
                                            body: JSON.stringify({ path }) });
    const data = await res.json();
    if (res.ok && data.qr) {
      box.append(h("img", { src: data.qr, id: "cl-invite-qr", class: "qr", width: 180, height: 180,
                            alt: t("QR code of the club's invite link") }));
    }
  } catch (_) { /* offline: the link and its buttons are enough */ }
}

function inviteLink(club, path, box) {
  const url = location.origin + path;
  const link = h("input", { id: "cl-invite", readonly: true, value: url });
  const status = h("span", { class: "muted", role: "status" });
  const copy = copyButton(link, url, status, "cl-invite-copy");
  const share = navigator.share ? h("button", { type: "button", id: "cl-invite-share", onclick: () =>
    navigator.share({ title: club.name, text: t("Join {club} on fiftysix", { club: club.name }), url }).catch(() => {}),
  }, t("Share")) : null;
  box.append(h("label", { for: "cl-invite" }, t("Invite link (anyone with it may join):")),
    h("div", { class: "row share-row" }, link, copy, share, status));
  drawQr(path, box);
}

function inviteBox(club) {
  const id = club.id;
  const box = h("section", { class: "invite-box", id: "cl-invite-box", "aria-labelledby": "cl-invite-title" });
  const shown = h("div", {});
  const draw = () => {
    clear(shown);
    const path = localStorage.getItem(inviteKey(id));
    if (path) inviteLink(club, path, shown);
    else shown.append(h("p", { class: "muted" }, t("This device does not know the club's current invite link (only its owner's device that made it does). A new link shows it here.")));
  };
  const invite = h("button", { type: "button", id: "cl-invite-new" }, t("New invite link"));
  const revoke = h("button", { type: "button" }, t("Revoke the invite link"));
  invite.addEventListener("click", async () => {
    const data = await api(`/api/clubs/${id}/invite`, {});
    if (data) { localStorage.setItem(inviteKey(id), data.invite_url); draw(); }
  });
  revoke.addEventListener("click", async () => {
    if (await api(`/api/clubs/${id}/revoke`, {})) {
      localStorage.removeItem(inviteKey(id));
      clear(shown).append(h("p", {}, t("No invite link works now.")));
    }
  });
  draw();
  box.append(h("h2", { id: "cl-invite-title" }, t("Invite friends")), shown,
    h("p", { class: "muted" }, t("A new link stops the old one working.")), h("div", { class: "row" }, invite, revoke));
  return box;
}

function ownerTools(club, box) {
  const watch = h("input", { type: "checkbox", checked: club.watchers });
  watch.addEventListener("change", () => api(`/api/clubs/${club.id}/settings`, { watchers: watch.checked }));
  box.append(h("label", { class: "check" }, watch, " ", t("People outside the club may watch its tables")));
}

function memberRow(club, m) {
  const li = h("li", {}, h("a", { href: `/history?p=${encodeURIComponent(m.id)}` }, m.name), m.id === club.owner ? ` · ${t("owner")}` : "");
  if (club.is_owner && m.id !== club.you) {
    const remove = h("button", {}, t("Remove"));
    const hand = h("button", {}, t("Make owner"));
    remove.addEventListener("click", async () => { if (await api(`/api/clubs/${club.id}/remove`, { player: m.id })) show(club.id); });
    hand.addEventListener("click", async () => { if (await api(`/api/clubs/${club.id}/owner`, { player: m.id })) show(club.id); });
    li.append(" ", remove, " ", hand);
  }
  return li;
}

/** "New club table": the start page's game, preset, options (length) and computer level, then Create. */
function tableForm(club) {
  const form = h("details", { class: "form club-table-form", id: "cl-table-form" },
    h("summary", {}, t("New club table")),
    h("label", { for: "preset" }, t("Game")), h("select", { id: "preset" }), h("div", { class: "muted", id: "preset-help" }),
    h("p", { class: "muted" }, t("Options and house rules")), h("div", { id: "options" }),
    h("label", { for: "fill" }, t("Empty seats")), h("select", { id: "fill", "aria-describedby": "fill-help" }),
    h("div", { id: "fill-help", class: "muted opt-help" }),
    h("label", { for: "cl-grace" }, t("When a player drops, a computer plays for them after (seconds)")),
    h("input", { id: "cl-grace", type: "number", min: 0, max: 3600, value: 60 }));
  const make = h("button", { type: "button", class: "primary", id: "cl-table-btn", disabled: true }, t("Create table"));
  make.addEventListener("click", async () => {
    const body = { preset: presetOf(), options: options(), fill: $("fill").value || null,
                   grace: Number($("cl-grace").value || 60) };
    const data = await api(`/api/clubs/${club.id}/tables`, body);
    if (data) location.href = data.url;
  });
  form.append(h("div", { class: "row" }, make));
  form.addEventListener("toggle", async () => {
    if (!form.open || document.querySelector("#preset option")) return;
    await drawGameChoice();
    make.disabled = false;
  });
  return form;
}

/** A recent match: who played on each side, who won (with the standing), and a link to its first deal. */
function matchLine(m) {
  const side = (s) => [...s.people.map((name) => name || t("a former player")),
    ...s.computers.map((level, i) => levelName(level, (s.bots || [])[i] || ""))].join(" & ");
  const won = m.sides.find((s) => s.won);
  const others = m.sides.filter((s) => !s.won);
  const result = won ? t("{winners} beat {losers}", { winners: side(won), losers: others.map(side).join("; ") })
    : m.sides.map(side).join(" · ");
  const score = m.sides.every((s) => s.standing !== null) ? ` (${m.sides.map((s) => s.standing).join("–")})` : "";
  return h("li", { class: "club-match" }, `${dateText(m.finished)} · ${m.game} · ${m.preset} · `,
    h("b", {}, result), score, " · ", h("a", { href: m.url }, t("see the match")));
}

async function show(id) {
  const club = await api(`/api/clubs/${encodeURIComponent(id)}`);
  const box = clear($("cl-club"));
  if (!club) return;
  showError("");
  $("cl-title").textContent = club.name;
  if (club.is_owner) box.append(inviteBox(club));
  box.append(h("h2", {}, t("Tables")));
  const tables = h("ul", {}, ...club.tables.map((tb) => h("li", {}, h("a", { href: tb.url }, tb.name),
    " ", h("span", { class: "muted" }, t("{game} · seats free: {free}", { game: tb.game, free: tb.free })))));
  if (!club.tables.length) tables.append(h("li", { class: "muted" }, t("No open table.")));
  box.append(tables, tableForm(club), h("h2", {}, t("Members")),
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
  const matches = h("ul", { class: "club-matches" }, ...club.matches.map(matchLine));
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
    if (made) {
      localStorage.setItem(inviteKey(made.id), made.invite_url);     // shown on the club's page at once
      location.hash = `c=${made.id}`;
      location.reload();
    }
  });
  box.append(h("label", { for: "cl-new" }, t("New club's name")), h("div", { class: "row" }, name, make));
}

/** The invite page: names the club and asks the invitee's name (the one this device knows, filled in). */
async function invited(invite, known) {
  const res = await fetch("/api/clubs/invited", { method: "POST", headers: { "Content-Type": "application/json" },
                                                  body: JSON.stringify({ invite }) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) { showError(data.error || res.statusText); return; }
  $("cl-title").textContent = data.name;
  const name = h("input", { id: "cl-join-name", maxlength: 24, autocomplete: "nickname", value: known });
  const join = h("button", { type: "button", class: "primary", id: "cl-join-btn" }, t("Join the club"));
  join.addEventListener("click", async () => {
    const chosen = name.value.trim();
    if (!chosen) { name.focus(); return; }
    if (chosen !== known) {      // a new player on this device, or a new name: every page knows it from now on
      const named = await api("/api/player", { name: chosen });
      if (!named) return;
      localStorage.setItem("fiftysix-name", named.name);
    }
    const joined = await api("/api/clubs/join", { invite, name: chosen });
    if (joined) { history.replaceState(null, "", `/club#c=${joined.id}`); location.reload(); }
  });
  clear($("cl-club")).append(h("div", { class: "invite-greeting" },
    h("p", { class: "big" }, t("You are invited to join {club}.", { club: data.name })),
    h("label", { for: "cl-join-name" }, known ? t("You join as") : t("What shall the club call you?")),
    h("div", { class: "row" }, name, join)));
}

async function main() {
  const known = await knownName();
  if (!$("cl-player").value) $("cl-player").value = known;   // typed before the script ran: kept
  $("cl-player-btn").addEventListener("click", async () => {
    const named = await api("/api/player", { name: $("cl-player").value.trim() });
    if (named) { localStorage.setItem("fiftysix-name", named.name); location.reload(); }   // every page knows it
  });
  if (hash.get("i")) {
    await invited(hash.get("i"), known);
  } else if (hash.get("c")) {
    await show(hash.get("c"));
  } else if (hash.get("n")) {
    await showNight(hash.get("n"), api, clear($("cl-club")), (name) => { $("cl-title").textContent = name; });
  }
  if (hash.get("i")) $("cl-mine").classList.add("hidden");   // the invite page asks nothing of a newcomer
  else await mine();
}

window.addEventListener("hashchange", () => location.reload());
main();
