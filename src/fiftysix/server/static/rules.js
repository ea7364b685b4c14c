// The table's rules one tap away: the game, its preset in a sentence and every option with its value in words,
// all from the server's catalogue (in the player's language), never written here.
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

let catalogue = null;

async function words() {
  if (!catalogue) {
    try { catalogue = await (await fetch("/api/catalogue")).json(); } catch (_) { catalogue = null; }
  }
  return catalogue;
}

function valueWords(spec, optionWords, value) {
  const key = String(value);
  return (spec.descriptions || {})[key] || ((optionWords || {}).values || {})[key] ||
    (value === null ? t("none") : key);
}

export async function renderRules(S, panel) {
  const rules = S.table && S.table.rules;
  if (!rules) return;
  const info = (await words() || {})[S.table.game];
  clear(panel);
  panel.append(h("h2", {}, t("Rules of this table")));
  if (!info) { panel.append(h("p", {}, t("Game {game}", { game: S.table.game }))); return; }
  panel.append(h("p", {}, (info.descriptions || {})[rules.preset] || t("Game {game}", { game: S.table.game })));
  const list = h("dl", { class: "rules-list", id: "rules-list" });
  for (const [key, spec] of Object.entries(info.options)) {
    if (!(key in rules)) continue;
    const ow = (info.option_words || {})[key] || { label: key };
    list.append(h("dt", {}, ow.label), h("dd", {}, valueWords(spec, ow, rules[key])));
  }
  panel.append(list);
}

/** The "Rules" button of the top bar opens and closes the panel. */
export function initRules(button, panel, S) {
  button.textContent = t("Rules");
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", panel.id);
  button.addEventListener("click", async () => {
    const open = panel.classList.contains("hidden");
    button.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) await renderRules(S, panel);
    panel.classList.toggle("hidden", !open);
    if (open) panel.scrollIntoView({ block: "nearest" });
  });
}
