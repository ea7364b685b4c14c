// The start page: create a table (game, preset, options, bots, grace period) or join one by code.
import { h, clear } from "./dom.js";
import "./i18n.js";     // loads the player's language before this page draws (static/lang.js)

const $ = (id) => document.getElementById(id);
let catalogue = {};

function presetOf() { return $("preset").value; }
function gameOf(preset) {
  for (const [game, info] of Object.entries(catalogue)) if (preset in info.presets) return game;
  return null;
}

function renderOptions() {
  const preset = presetOf();
  const game = gameOf(preset);
  const info = catalogue[game];
  $("preset-help").textContent = (info.descriptions || {})[preset] || `${game}: preset ${preset}`;
  const box = clear($("options"));
  const values = info.presets[preset];
  for (const [key, spec] of Object.entries(info.options)) {
    const current = values[key];
    let input;
    if (spec.values) {
      input = h("select", { "data-option": key });
      for (const v of spec.values) {
        const label = v === null ? "default" : String(v);
        const meaning = (spec.descriptions || {})[String(v)];
        input.append(h("option", { value: JSON.stringify(v), selected: v === current, title: meaning || "" },
                       meaning ? `${label} — ${meaning}` : label));
      }
    } else {
      input = h("input", { type: "number", min: spec.min, max: spec.max, "data-option": key,
                           value: current === null ? "" : current, placeholder: spec.null ? "none" : "" });
    }
    box.append(h("div", { class: "opt" }, h("span", {}, key.replace(/_/g, " ")), input));
  }
  const fill = clear($("fill"));
  for (const bot of info.bots) {
    fill.append(h("option", { value: bot, selected: bot === info.default_bot }, `fill with computer players (${bot})`));
  }
  fill.append(h("option", { value: "" }, "leave empty (friends or bots added by hand)"));
}

function options() {
  const preset = presetOf();
  const base = catalogue[gameOf(preset)].presets[preset];
  const out = {};
  for (const el of document.querySelectorAll("[data-option]")) {
    const key = el.dataset.option;
    let value;
    if (el.tagName === "SELECT") value = JSON.parse(el.value);
    else value = el.value === "" ? null : Number(el.value);
    if (JSON.stringify(value) !== JSON.stringify(base[key])) out[key] = value;
  }
  return out;
}

async function create() {
  const err = $("create-error");
  err.classList.add("hidden");
  const name = $("player-name").value.trim();
  if (!name) { err.textContent = "Choose your name first."; err.classList.remove("hidden"); return; }
  localStorage.setItem("fiftysix-name", name);
  const body = {
    player_name: name, preset: presetOf(), options: options(), fill: $("fill").value || null,
    grace: Number($("grace").value || 60), name: $("table-name").value.trim() || null,
    public: $("public").checked,
  };
  const res = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
                                          body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) { err.textContent = data.error; err.classList.remove("hidden"); return; }
  location.href = data.url;
}

async function main() {
  $("player-name").value = localStorage.getItem("fiftysix-name") || "";
  catalogue = await (await fetch("/api/catalogue")).json();
  const select = $("preset");
  const defaultPreset = Object.values(catalogue)[0]?.default_preset;   // the server's default game comes first
  for (const [game, info] of Object.entries(catalogue)) {
    const group = h("optgroup", { label: `Game ${game}` });
    for (const preset of Object.keys(info.presets)) {
      const help = (info.descriptions || {})[preset] || `Game ${game}`;
      group.append(h("option", { value: preset, selected: preset === defaultPreset }, `${preset} — ${help}`));
    }
    select.append(group);
  }
  select.addEventListener("change", renderOptions);
  renderOptions();
  $("create-btn").addEventListener("click", create);
  const go = () => {
    const code = $("join-code").value.trim().toUpperCase();
    if (code) location.href = `/t/${encodeURIComponent(code)}`;
  };
  $("join-btn").addEventListener("click", go);
  $("join-code").addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
}

main();
