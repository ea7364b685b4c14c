// The page's language, around i18n.js (which calls startPage once its catalogue is loaded, before any page
// script runs): chosen once from the browser (navigator.languages, as the server reads Accept-Language),
// switchable with the selector at the top, remembered in localStorage and in the `lang` cookie (which the server
// reads for the bid meanings, errors and preset sentences it sends). The static HTML's words are message ids too:
// their text nodes and labels are put through t() here. Also registers the service worker (the installable app).
export const LANGUAGES = { en: "English", ml: "മലയാളം" };
const KEY = "lang";

function fromCookie() {
  const m = document.cookie.match(/(?:^|;\s*)lang=([a-z]+)/);
  return m ? m[1] : null;
}

function fromBrowser() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (code in LANGUAGES) return code;
  }
  return "en";
}

function stored() {
  try { return localStorage.getItem(KEY); } catch (_) { return null; }
}

export function wantedLanguage() {
  for (const code of [stored(), fromCookie()]) if (code && code in LANGUAGES) return code;
  return fromBrowser();
}

export function remember(code) {
  try { localStorage.setItem(KEY, code); } catch (_) { /* private mode: the cookie still remembers */ }
  document.cookie = `lang=${code}; path=/; max-age=31536000; samesite=lax`;
}

export function switchLanguage(code) {
  if (!(code in LANGUAGES)) return;
  remember(code);
  location.reload();    // the server speaks the new language from the next connection
}

const SKIP = new Set(["SCRIPT", "STYLE", "CODE"]);
const ATTRIBUTES = ["placeholder", "title", "aria-label"];

// The static HTML's words: each text node (whitespace collapsed) and label attribute that is a message id.
export function translateStatic(t, root = document.body) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (SKIP.has(n.parentNode.nodeName) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const text = node.nodeValue.replace(/\s+/g, " ").trim();
    if (!text) continue;
    const said = t(text);
    if (said !== text) node.nodeValue = node.nodeValue.replace(/^(\s*)[\s\S]*?(\s*)$/, `$1${said}$2`);
  }
  for (const el of root.querySelectorAll(ATTRIBUTES.map((a) => `[${a}]`).join(","))) {
    for (const a of ATTRIBUTES) {
      const v = el.getAttribute(a);
      if (v) el.setAttribute(a, t(v.replace(/\s+/g, " ").trim()));
    }
  }
  document.title = t(document.title);
}

function addSwitcher(t, current) {
  if (document.getElementById("lang-switch")) return;
  const select = document.createElement("select");
  select.id = "lang-switch";
  select.className = "lang-switch";
  select.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = new Option(name, code, false, code === current);
    option.lang = code;
    select.append(option);
  }
  select.addEventListener("change", () => switchLanguage(select.value));
  const top = document.querySelector(".top");
  if (top) top.append(select);
  else if (document.querySelector("main h1")) document.querySelector("main h1").after(select);
  else document.body.prepend(select);
}

function registerWorker() {
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* not installable; the page works */ });
  }
}

// Once per page, with the catalogue loaded: the document's language, its static words, the selector, the worker.
export function startPage(t, code) {
  if (fromCookie() !== code) remember(code);
  document.documentElement.lang = code;
  if (document.body) {
    translateStatic(t);
    addSwitcher(t, code);
  }
  registerWorker();
}
