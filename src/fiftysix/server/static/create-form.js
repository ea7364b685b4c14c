// The create form's game parts, shared by the start page and a club's "New club table": the game and preset,
// its options (length, house rules) and the computer players' level, each sentence from the server's catalogue.
// The page holds #preset, #preset-help, #options, #fill and #fill-help.
import { botWord, clear, h } from "./dom.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
let catalogue = {};

export function presetOf() { return $("preset").value; }
function gameOf(preset) {
  for (const [game, info] of Object.entries(catalogue)) if (preset in info.presets) return game;
  return null;
}

/** A value of an option in words: the game's meaning, else the server's, else the value itself. */
function valueWords(spec, words, v) {
  const key = String(v);
  return (spec.descriptions || {})[key] || (words.values || {})[key] || (v === null ? t("default") : key);
}

export function renderOptions() {
  const preset = presetOf();
  const game = gameOf(preset);
  const info = catalogue[game];
  $("preset-help").textContent = (info.descriptions || {})[preset] || t("Game {game}", { game });
  const box = clear($("options"));
  const values = info.presets[preset];
  for (const [key, spec] of Object.entries(info.options)) {
    const words = (info.option_words || {})[key] || { label: key, help: "" };
    const current = values[key];
    const id = `opt-${key}`;
    let input;
    if (spec.values) {
      input = h("select", { "data-option": key, id });
      for (const v of spec.values) {
        // no title: it held the raw value ("two", "reopens"), English in every language
        input.append(h("option", { value: JSON.stringify(v), selected: v === current }, valueWords(spec, words, v)));
      }
    } else {
      input = h("input", { type: "number", min: spec.min, max: spec.max, "data-option": key, id,
                           value: current === null ? "" : current, placeholder: spec.null ? t("none") : "" });
    }
    box.append(h("div", { class: "opt", "data-option-row": key },
      h("label", { for: id }, words.label), input,
      words.help ? h("div", { class: "muted opt-help" }, words.help) : null));
  }
  const fill = clear($("fill"));
  // the levels first, in words; the other programs after them by name
  const levelOf = Object.fromEntries(Object.entries(info.levels || {}).map(([level, bot]) => [bot, level]));
  const bots = [...Object.values(info.levels || {}), ...info.bots.filter((b) => !(b in levelOf))];
  for (const bot of bots) {
    fill.append(h("option", { value: bot, selected: bot === info.default_bot },
                  t("fill with computer players ({bot})", { bot: botWord(bot, levelOf[bot]) })));
  }
  fill.append(h("option", { value: "" }, t("leave empty (friends or bots added by hand)")));
  fill.onchange = () => fillHelp(info, levelOf);
  fillHelp(info, levelOf);
}

const signed = (v) => (v >= 0 ? "+" : "") + v.toFixed(2);

/** Under the computer players' picker: what the chosen level is measured to be (docs/bots.md "Levels"). */
function fillHelp(info, levelOf) {
  const level = levelOf[$("fill").value];
  const figure = level && (info.level_figures || {})[level];
  let text = "";
  if (figure && figure.kind === "rating") {
    text = t("Measured against a panel of computer players ({presets}): wins {share}% of deal pairs against the {level} level (95% interval {low}-{high}%; {pairs} deal pairs a pairing).",
             { presets: figure.preset.replace(",", ", "), share: Math.round(figure.value), low: Math.round(figure.low),
               high: Math.round(figure.high), level: botWord("", figure.over), pairs: figure.pairs });
  } else if (figure) {
    text = t("Measured: {value} points a deal more than the {level} level ({preset}, {pairs} deal pairs; 95% interval {low} to {high}).",
             { value: signed(figure.value), low: signed(figure.low), high: signed(figure.high),
               level: botWord("", figure.over), preset: figure.preset, pairs: figure.pairs });
  } else if (level && Object.values(info.level_figures || {}).some((f) => f.over === level)) {
    text = t("The other levels are measured against this one.");
  }
  $("fill-help").textContent = text;
}

export function options() {
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

/** Reads the server's catalogue and draws the games into #preset (the server's default game first) and the
 * options, computer players and their help for the chosen one. */
export async function drawGameChoice() {
  catalogue = await (await fetch("/api/catalogue")).json();
  const select = $("preset");
  // the server's default game first: a game named by a number ("55", "56") would otherwise sort first by its key
  const games = Object.entries(catalogue).sort(([, a], [, b]) => Number(Boolean(b.default)) - Number(Boolean(a.default)));
  const defaultPreset = games[0]?.[1].default_preset;
  for (const [game, info] of games) {
    const group = h("optgroup", { label: t("Game {game}", { game }) });
    for (const preset of Object.keys(info.presets)) {
      const help = (info.descriptions || {})[preset] || t("Game {game}", { game });
      group.append(h("option", { value: preset, selected: preset === defaultPreset }, `${preset} — ${help}`));
    }
    select.append(group);
  }
  select.addEventListener("change", renderOptions);
  renderOptions();
}
