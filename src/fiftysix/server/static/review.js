// The deal review: all hands as dealt, every trick stepped through one by one, and the double-dummy marks
// (what each card cost against best play). It opens a deal of a table (/review?table=CODE&deal=N, a private
// table's secret in #k=) or a record file dropped on the page; the server computes the review in a worker.
import { card, clear, h, pretty } from "./dom.js";
import { t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const R = { table: (params.get("table") || "").toUpperCase(), deal: Number(params.get("deal")) || null,
            key: null, info: null, deals: [], file: null, fileIndex: 0, review: null, step: 0 };
if (R.table) {
  R.key = new URLSearchParams(location.hash.slice(1)).get("k") || localStorage.getItem(`fiftysix-key-${R.table}`);
}
const keyed = (url) => (R.key ? `${url}${url.includes("?") ? "&" : "?"}k=${encodeURIComponent(R.key)}` : url);

function showError(text) {
  const el = $("rv-error");
  el.textContent = text;
  el.classList.toggle("hidden", !text);
}

/** Ask for a review until it is computed (202: being computed; the table never waits for it). */
async function fetchReview(request) {
  for (let i = 0; i < 150; i++) {
    const res = await request();
    const data = await res.json().catch(() => ({}));
    if (res.status === 200) return data;
    if (res.status !== 202 && res.status !== 503) throw new Error(data.error || `HTTP ${res.status}`);
    renderWaiting();
    await new Promise((ok) => setTimeout(ok, res.status === 503 ? 3000 : 1000));
  }
  throw new Error(t("the review took too long; try again later"));
}

function renderWaiting() {
  const box = $("rv-deal");
  box.classList.remove("hidden");
  clear(box).append(h("p", { id: "rv-waiting" }, t("Computing the review: every card against best play…")));
}

async function openTableDeal(number) {
  R.deal = number;
  history.replaceState(null, "", `/review?table=${encodeURIComponent(R.table)}&deal=${number}${location.hash}`);
  showError("");
  try {
    R.review = await fetchReview(() => fetch(keyed(`/api/tables/${encodeURIComponent(R.table)}/deals/${number}/review`)));
    R.step = 0;
    render();
  } catch (e) { showError(String(e.message || e)); }
}

async function openFile(record, index) {
  R.file = record; R.fileIndex = index;
  showError("");
  try {
    R.review = await fetchReview(() => fetch("/api/review", { method: "POST", headers: { "Content-Type": "application/json" },
                                                              body: JSON.stringify({ record, deal: index }) }));
    R.step = 0;
    render();
  } catch (e) { showError(String(e.message || e)); }
}

async function loadTable() {
  const res = await fetch(keyed(`/api/tables/${encodeURIComponent(R.table)}`));
  const data = await res.json().catch(() => ({}));
  if (!res.ok) { showError(data.error || t("this table cannot be opened")); return; }
  R.info = data;
  R.deals = (data.deals || []).map((d) => d.number);
  renderSource();
  const last = R.deals.length ? R.deals[R.deals.length - 1] : null;
  if (R.deal || last) await openTableDeal(R.deal || last);
  else showError(t("no deal of this table has ended yet"));
}

function renderSource() {
  const box = clear($("rv-source"));
  if (R.table) {
    $("rv-title").textContent = t("Deal review · table {code}", { code: R.table });
    const select = h("select", { id: "rv-deal-select", onchange: (e) => openTableDeal(Number(e.target.value)) },
      R.deals.map((n) => h("option", { value: n, selected: n === R.deal }, t("Deal {n}", { n }))));
    box.append(h("div", { class: "row" }, h("label", { for: "rv-deal-select" }, t("Deal of this table")), select,
      h("a", { href: `/t/${encodeURIComponent(R.table)}${R.key ? `#k=${encodeURIComponent(R.key)}` : ""}` }, t("back to the table"))));
  } else {
    $("rv-title").textContent = t("Deal review");
  }
  const input = h("input", { type: "file", id: "rv-file", accept: ".json,application/json",
                             onchange: (e) => e.target.files[0] && readFile(e.target.files[0]) });
  const drop = h("div", { class: "rv-drop", id: "rv-drop" },
    h("label", { for: "rv-file", id: "rv-file-label" }, t("Drop a deal or match record file (.json) here, or choose one:")),
    input);
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault(); drop.classList.remove("over");
    if (e.dataTransfer.files[0]) readFile(e.dataTransfer.files[0]);
  });
  box.append(drop);
  if (R.file && Array.isArray(R.file.deals)) {
    const pick = h("select", { id: "rv-file-deal", onchange: (e) => openFile(R.file, Number(e.target.value)) },
      R.file.deals.map((_, i) => h("option", { value: i, selected: i === R.fileIndex }, t("Deal {n}", { n: i + 1 }))));
    box.append(h("div", { class: "row" }, h("label", { for: "rv-file-deal" }, t("Deal of this match")), pick));
  }
}

async function readFile(file) {
  let record;
  try { record = JSON.parse(await file.text()); } catch (e) { showError(t("that file is not JSON: {why}", { why: e.message })); return; }
  R.table = ""; R.info = null;
  R.file = record; R.fileIndex = 0;
  renderSource();
  await openFile(record, 0);
}

function seatName(seat) {
  const info = R.info;
  if (info && R.review.players === info.deal_seats.length) {
    const s = info.seats[info.deal_seats[seat]];
    if (s && s.name) return s.name;
  }
  return t("Seat {n}", { n: seat + 1 });
}

const teamColor = (team) => `var(--team${team % 9})`;

function render() {
  const rv = R.review;
  const box = clear($("rv-deal"));
  box.classList.remove("hidden");
  const tricks = rv.tricks;
  const step = Math.max(0, Math.min(R.step, tricks.length));
  R.step = step;
  const marks = (rv.analysis && rv.analysis.cards) || [];
  const markOf = (trickNo, seat) => marks.find((m) => m.trick === trickNo && m.seat === seat);
  const gone = rv.hands.map(() => []);
  for (let k = 0; k < step - 1; k++) for (const p of tricks[k].cards) gone[p.seat].push(p.card);
  const contract = rv.result && rv.result.contract;
  box.append(h("div", { class: "rv-head" },
    h("h2", {}, rv.rules.preset ? t("Game {game} · {preset}", { game: rv.game, preset: rv.rules.preset }) : t("Game {game}", { game: rv.game })),
    h("span", {}, contract ? t("contract {value} {strain} by {who}", { value: contract.value, strain: pretty(contract.strain || ""),
                                                                      who: seatName(contract.declarer ?? contract.bidder ?? 0) }) : ""),
    h("span", {}, rv.result ? (rv.result.made ? t("made") : t("failed")) : t("unfinished")),
    h("span", { class: "muted" }, t("dealer: {who}", { who: seatName(rv.dealer) }))));
  if (rv.auction.length) box.append(h("p", { class: "muted", id: "rv-auction" }, `${t("Auction")}: ${rv.auction.map(pretty).join(" · ")}`));
  // step controls
  const go = (n) => { R.step = n; render(); };
  box.append(h("div", { class: "rv-steps" },
    h("button", { type: "button", id: "rv-first", onclick: () => go(0), disabled: step === 0, "aria-label": t("hands as dealt") }, "«"),
    h("button", { type: "button", id: "rv-prev", onclick: () => go(step - 1), disabled: step === 0, "aria-label": t("previous trick") }, "◀"),
    h("span", { class: "rv-where", id: "rv-where" }, step === 0 ? t("Hands as dealt") : t("Trick {k} of {n}", { k: step, n: tricks.length })),
    h("button", { type: "button", id: "rv-next", onclick: () => go(step + 1), disabled: step >= tricks.length, "aria-label": t("next trick") }, "▶"),
    h("button", { type: "button", id: "rv-last", onclick: () => go(tricks.length), disabled: step >= tricks.length, "aria-label": t("last trick") }, "»")));
  // the trick of this step
  if (step > 0) {
    const trick = tricks[step - 1];
    box.append(h("div", { class: "rv-trick", id: "rv-trick" }, trick.cards.map((p) => {
      const m = markOf(step, p.seat);
      const markText = !m ? "" : m.cost > 0 ? `${m.mark || ""} −${m.cost}` : "✓";
      const title = m ? t("value {value}, best {best} ({cards})", { value: m.value, best: m.best, cards: m.best_cards.map(pretty).join(" ") }) : "";
      return h("div", { class: `rv-play${trick.winner === p.seat ? " won" : ""}`, "data-trick-seat": p.seat, title },
        h("span", { class: "who" }, seatName(p.seat)), card(p.card, { small: true }),
        h("span", { class: `mark${m && m.cost === 0 ? " ok" : ""}`, "data-mark": m ? m.cost : "" }, markText));
    })));
    if (trick.winner !== null) box.append(h("p", { class: "muted" }, t("{who} wins the trick ({points} points)", { who: seatName(trick.winner), points: trick.points })));
  } else if (rv.analysis_error) {
    box.append(h("p", { class: "muted" }, rv.analysis_error));
  }
  // all hands as dealt; the cards gone in earlier tricks dimmed
  const summary = (rv.analysis && rv.analysis.seats) || [];
  box.append(h("div", { class: "rv-hands", id: "rv-hands" }, rv.hands.map((hand, seat) => {
    const left = gone[seat].slice();
    const cards = hand.map((c) => {
      const at = left.indexOf(c);
      if (at >= 0) left.splice(at, 1);
      return card(c, { small: true, cls: at >= 0 ? "gone" : "" });
    });
    const s = summary[seat];
    return h("div", { class: "rv-hand", "data-hand": seat, style: `--c:${teamColor(rv.team_of[seat])}` },
      h("div", { class: "who" }, seatName(seat), seat === rv.dealer ? ` · ${t("dealer")}` : ""),
      h("div", { class: "cards" }, cards),
      s ? h("div", { class: "cost" }, tn("{n} point lost against best play", "{n} points lost against best play", s.cost),
            s.mistakes || s.blunders ? ` · ? ${s.mistakes} · ?? ${s.blunders}` : "") : null);
  })));
  if (rv.analysis && rv.analysis.cards.some((m) => m.approximate)) {
    box.append(h("p", { class: "muted" }, t("The trump was hidden for part of this deal: those cards were solved as no trumps, so their marks are approximate.")));
  }
}

document.addEventListener("keydown", (e) => {
  if (!R.review || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (e.key === "ArrowRight" && R.step < R.review.tricks.length) { R.step += 1; render(); }
  if (e.key === "ArrowLeft" && R.step > 0) { R.step -= 1; render(); }
});

renderSource();
if (R.table) loadTable();
