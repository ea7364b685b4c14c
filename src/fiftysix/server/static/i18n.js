// Every word a player reads goes through t() (or tn() for counts). The message id is the English text with
// {name} placeholders; a catalogue (/static/i18n/LANG.json, built from the gettext catalogues) maps it to the
// language's text, a plural form holding one string per Intl.PluralRules category. A missing entry falls back to
// the English text, so nothing is ever blank. The player's language is loaded when this module is first
// imported (a top-level await: every page script that imports t() runs after it), then lang.js translates the
// static HTML and adds the language selector.
import { startPage, wantedLanguage } from "./lang.js";

let catalogue = {};
let lang = "en";

export function language() { return lang; }

export async function loadLanguage(wanted) {
  lang = wanted || "en";
  catalogue = {};
  if (lang === "en") return;
  try {
    const res = await fetch(`/static/i18n/${lang}.json`);
    if (res.ok) catalogue = await res.json();
  } catch (_) { /* offline and not cached: English */ }
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

export function t(msgid, params = {}) {
  const found = catalogue[msgid];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

// tn("{n} card", "{n} cards", n): the plural category of n in the current language picks the form.
export function tn(singular, plural, n, params = {}) {
  const all = { n: formatNumber(n), ...params };
  const forms = catalogue[singular];
  if (forms && typeof forms === "object") {
    const form = forms[new Intl.PluralRules(lang).select(n)] || forms.other;
    if (form) return fill(form, all);
  }
  return fill(n === 1 ? singular : plural, all);
}

// Indian digit grouping (1,00,000) where numbers appear.
export function formatNumber(n) { return new Intl.NumberFormat("en-IN").format(n); }

let started = null;

// The page's language, loaded once (every page gets it by importing this module; calling it again is harmless).
export function startLanguage() {
  if (!started) {
    const code = wantedLanguage();
    started = loadLanguage(code).then(() => { startPage(t, code); return code; });
  }
  return started;
}

await startLanguage();
