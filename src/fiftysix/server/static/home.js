// The start page: create a table (game, preset, options, bots, grace period) or join one by code.  Every
// sentence about a preset or an option comes from the server's catalogue (one place), never from here.
import { knownName } from "./dom.js";
import { t } from "./i18n.js";
import { clockChoice } from "./clock-form.js";
import { drawGameChoice, options, presetOf } from "./create-form.js";

const $ = (id) => document.getElementById(id);

function staticWords() {
  document.title = t("fiftysix: play 56 and 55 with friends");
  const words = {
    "home-title": t("fiftysix — 56 and 55 with friends"), "create-title": t("Create a table"),
    "l-name": t("Your name"), "l-preset": t("Game"), "l-options": t("Options and house rules"),
    "l-fill": t("Empty seats"), "l-grace": t("When a player drops, a computer plays for them after (seconds)"),
    "l-table-name": t("Table name (optional)"),
    "l-public": t("Public: anyone with the code may join (otherwise only with your link, or when you let them in)"),
    "create-btn": t("Create table"), "join-title": t("Join a table"), "l-code": t("Code from your friend"),
    "join-btn": t("Go"),
    intro: t("No sign-up: pick a name, create a table, send the link. Computer players fill the empty seats."),
  };
  for (const [id, text] of Object.entries(words)) $(id).textContent = text;
  $("player-name").placeholder = t("e.g. Asha");
}

async function create() {
  const err = $("create-error");
  err.classList.add("hidden");
  const name = $("player-name").value.trim();
  if (!name) { err.textContent = t("Choose your name first."); err.classList.remove("hidden"); return; }
  localStorage.setItem("fiftysix-name", name);
  const body = {
    player_name: name, preset: presetOf(), options: options(), fill: $("fill").value || null,
    grace: Number($("grace").value || 60), name: $("table-name").value.trim() || null,
    public: $("public").checked, clock: clockChoice(),
  };
  const res = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
                                          body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) { err.textContent = data.error; err.classList.remove("hidden"); return; }
  location.href = data.url;
}

async function main() {
  staticWords();
  // the page's script runs once the language is loaded, which may be after the page is shown: a name typed
  // meanwhile is kept, not overwritten by the remembered one (a wiped name made "Create" refuse)
  const known = await knownName();     // the name this device's player already goes by (told on any page)
  if (!$("player-name").value) $("player-name").value = known;
  await drawGameChoice();
  $("create-btn").addEventListener("click", create);
  $("create-btn").disabled = false;     // enabled only now: a tap before the games are read would do nothing
  const go = () => {
    const code = $("join-code").value.trim().toUpperCase();
    if (code) location.href = `/t/${encodeURIComponent(code)}`;
  };
  $("join-btn").addEventListener("click", go);
  $("join-code").addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
}

main();
