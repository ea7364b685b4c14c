// Today's deals: the day's sets, your progress and running standing in each, the start (or resume) button, the
// line when the server is full, and each board's page (what the field bid and made) once you have finished it.
import { clear, h, knownName, levelName, trumpText } from "./dom.js";
import { formatNumber, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function showError(text) {
  $("dl-error").textContent = text || "";
  $("dl-error").classList.toggle("hidden", !text);
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({}));
  if (res.status === 401) $("dl-name-box").classList.remove("hidden");
  if (!res.ok) showError(data.error || res.statusText);
  return res.ok ? { status: res.status, ...data } : null;
}

/** A contract in words, from the seat 0 side's view: "40 ♠ spades by your side ×2". */
function contractWords(c) {
  if (!c) return t("no contract");
  const team = c.team === 0 ? t("your side") : t("the other side");
  const doubled = c.multiplier > 1 ? ` ×${c.multiplier}` : "";
  return t("{value} {trump} by {team}", { value: c.value, trump: trumpText(c.strain || c.trump), team }) + doubled;
}

const signed = (x) => (x > 0 ? `+${formatNumber(x)}` : formatNumber(x));

async function start(preset, note) {
  const data = await api("/api/daily/start", { preset });
  if (!data) return;
  if (data.queued) {
    note.textContent = data.wait == null
      ? t("The server is full: you are number {n} in line. We try again every few seconds.", { n: data.queued })
      : t("The server is full: you are number {n} in line, about {m} min to wait.",
          { n: data.queued, m: Math.max(1, Math.round(data.wait / 60)) });
    setTimeout(() => start(preset, note), 5000);
    return;
  }
  location.href = data.url;
}

async function showBoard(preset, board) {
  const box = clear($("dl-board"));
  box.classList.remove("hidden");
  const data = await api(`/api/daily/${encodeURIComponent(preset)}/boards/${board}`);
  if (!data) return;
  box.append(h("h2", {}, t("{preset}, board {n}", { preset, n: board })),
    h("p", {}, t("Played by {n}", { n: data.players })));
  const rows = data.field.map((f) => h("tr", {}, h("td", {}, contractWords(f.contract)),
    h("td", {}, f.made === true ? t("made") : f.made === false ? t("failed") : "–"),
    h("td", {}, signed(f.result)), h("td", {}, formatNumber(f.count))));
  box.append(h("table", { class: "daily-field" }, h("thead", {}, h("tr", {}, h("th", {}, t("Contract")),
    h("th", {}, t("Result")), h("th", {}, t("Gain")), h("th", {}, t("Tables")))), h("tbody", {}, ...rows)));
  if (data.mine) {
    box.append(h("p", {}, t("Your gain {gain}, against the field {cmp}", { gain: signed(data.mine.result),
      cmp: signed(data.mine.comparison) }), " · ", h("a", { href: data.mine.review }, t("Review the deal"))));
  }
  box.scrollIntoView({ behavior: "smooth" });
}

function setPanel(s) {
  const note = h("p", { class: "muted" });
  const done = s.finished.length;
  const over = done >= s.boards;
  const go = h("button", { class: "primary", "data-preset": s.preset },
    over ? t("Set finished") : s.started ? t("Go on at board {n}", { n: done + 1 }) : t("Play {n} boards", { n: s.boards }));
  go.disabled = over;
  go.addEventListener("click", () => start(s.preset, note));
  const boards = h("p", { class: "daily-boards" }, ...Array.from({ length: s.boards }, (_, i) => {
    const n = i + 1;
    if (!s.finished.includes(n)) return h("span", { class: "daily-board muted" }, String(n));
    const link = h("a", { href: "#", class: "daily-board" }, String(n));
    link.addEventListener("click", (e) => { e.preventDefault(); showBoard(s.preset, n); });
    return link;
  }));
  const standing = s.standing
    ? t("Your standing: {place} of {of}, {score} against the field", { place: s.standing.place, of: s.standing.of,
      score: signed(s.standing.score) })
    : t("Not played yet");
  return h("div", { class: "daily-set", "data-set": s.preset }, h("h2", {}, s.preset),
    h("p", {}, t("{done} of {n} boards played", { done, n: s.boards }), " · ", standing),
    boards, h("div", { class: "row" }, go), note);
}

async function main() {
  const known = await knownName();
  if (!$("dl-player").value) $("dl-player").value = known;
  $("dl-player-btn").addEventListener("click", async () => {
    const named = await api("/api/player", { name: $("dl-player").value.trim() });
    if (named) { localStorage.setItem("fiftysix-name", named.name); location.reload(); }
  });
  const data = await api("/api/daily");
  if (!data) return;
  const box = clear($("dl-sets"));
  box.append(h("p", {}, t("Computers: {level}", { level: levelName(data.level) }), " · ",
    t("New boards at midnight UTC")));
  for (const s of data.sets) box.append(setPanel(s));
}

main();
