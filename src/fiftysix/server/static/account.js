// The account page: name, signed-in devices (revoke), a one-time sign-in link with its QR code, a recovery code,
// sign-out and deletion. At /signin#SECRET it first uses the link: the secret is in the fragment, so it never
// reaches a server log or a Referer, and it is wiped from the address bar at once.
import { clear, dateText, h } from "./dom.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function showError(text) {
  $("ac-error").textContent = text;
  $("ac-error").classList.toggle("hidden", !text);
}

async function call(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(data.error || `HTTP ${res.status}`), { status: res.status });
  return data;
}

// the one date format of every page (dom.dateText), and the time: two devices signed in on one day differ by it
const when = (unix) => `${dateText(unix)} ${new Date(unix * 1000).toLocaleTimeString([], { timeStyle: "short" })}`;

const nameDevice = (device, name) => call("/api/account/devices/name", { device, name });

/** One device's row: its owner's name for it (the browser's label until named), the label, when it signed in and
 * when it was last seen, "this device", and its rename and sign-out controls. */
function deviceRow(d) {
  const rename = h("input", { value: d.name || d.label || "", maxlength: 40, "aria-label": t("device name") });
  const form = h("form", { class: "row" }, rename, h("button", { type: "submit" }, t("Save")));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); act(() => nameDevice(d.id, rename.value)); });
  const signOut = d.current ? null : h("button", { type: "button", "data-revoke": d.id,
    onclick: () => act(() => call("/api/account/devices/revoke", { device: d.id })) }, t("Sign out"));
  // two phones of one make read alike: their names, and when each signed in, tell them apart
  return h("li", { class: "device", "data-device": d.id },
    h("div", { class: "row" }, h("strong", { class: "device-name" }, d.name || d.label || "?"),
      d.current ? h("span", { class: "device-here" }, t("this device")) : null),
    h("div", { class: "muted" }, d.name ? [h("span", { class: "device-label" }, d.label || "?"), " · "] : null,
      h("span", { class: "device-since" }, t("signed in {when}", { when: when(d.created) })), " · ",
      h("span", { class: "device-seen" }, t("last used {when}", { when: when(d.seen) }))),
    h("div", { class: "row" }, h("details", { class: "device-rename" }, h("summary", {}, t("Rename")), form),
      signOut));
}

function renderDevices(devices) {
  clear($("ac-devices")).append(...devices.map(deviceRow));
  // a device that has just signed in is offered a name, the browser's label filled in to keep or change
  const here = devices.find((d) => d.current);
  const unnamed = Boolean(here && !here.name);
  $("ac-here").classList.toggle("hidden", !unnamed);
  if (unnamed && document.activeElement !== $("ac-here-name")) $("ac-here-name").value = here.label || "";
  $("ac-here").dataset.device = unnamed ? here.id : "";
}

// Passkeys need a secure context (https with a name, or localhost) and a browser that reads WebAuthn options as
// JSON; elsewhere (a phone on http://192.168.x.x) the link and the recovery code are the ways in.
const passkeysHere = () => window.isSecureContext && window.PublicKeyCredential
  && typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function";

async function addPasskey() {
  const { options } = await call("/api/account/passkeys/options", { purpose: "register" });
  const made = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  await call("/api/account/passkeys/register", { credential: made.toJSON() });
}

async function passkeySignIn() {
  const { options } = await call("/api/account/passkeys/options", { purpose: "signin" });
  const got = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
  await call("/api/account/passkeys/signin", { credential: got.toJSON() });
}

let hasRecovery = false;

function render(me) {
  hasRecovery = Boolean(me.recovery);
  $("ac-out").classList.add("hidden");
  $("ac-in").classList.remove("hidden");
  $("ac-name").value = me.name;
  renderDevices(me.devices);
  $("ac-passkeys").classList.toggle("hidden", !(me.passkeys_here && passkeysHere()));
  $("ac-passkey-state").textContent = t("Passkeys on this account: {n}", { n: me.passkeys });
  $("ac-recovery-state").textContent = me.recovery
    ? t("You have a recovery code (made {when}).", { when: when(me.recovery_made) })
    : t("You have no recovery code.");
}

async function load() {
  try {
    let me = await call("/api/account");
    if (me.upgraded) me = await call("/api/account");    // this device's player just became an account
    render(me);
  } catch (e) {
    if (e.status !== 401) showError(String(e.message || e));
    $("ac-in").classList.add("hidden");
    $("ac-out").classList.remove("hidden");
    $("ac-passkey-in").classList.toggle("hidden", !passkeysHere());
  }
}

async function act(work) {
  showError("");
  try { await work(); await load(); } catch (e) { showError(String(e.message || e)); }
}

$("ac-name-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  act(() => call("/api/account/name", { name: $("ac-name").value }));
});
$("ac-here-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  act(() => nameDevice($("ac-here").dataset.device, $("ac-here-name").value));
});
$("ac-link").addEventListener("click", () => act(async () => {
  const made = await call("/api/account/link", {});
  const box = clear($("ac-link-box"));
  box.append(h("img", { src: made.qr, alt: t("QR code of the sign-in link"), width: 200, height: 200 }),
    h("p", {}, h("input", { value: made.url, readonly: true, "aria-label": t("sign-in link") })),
    h("p", {}, t("It works once, until {when}.", { when: when(made.expires) })));
}));
$("ac-recovery").addEventListener("click", () => act(async () => {
  // the warning only when there is an old code to replace
  if (hasRecovery && !confirm(t("A new code replaces the old one, which stops working. Make a new one?"))) return;
  const made = await call("/api/account/recovery", {});
  $("ac-recovery-code").textContent = made.code;
}));
$("ac-signout").addEventListener("click", () => act(async () => {
  await call("/api/account/signout", {});
  localStorage.removeItem("fiftysix-name");     // the start page no longer offers the old name
}));
$("ac-delete").addEventListener("click", () => act(async () => {
  if (!confirm(t("Delete your account? Your name goes from every stored table and match; this cannot be undone."))) return;
  await call("/api/account/delete", { confirm: true });
  localStorage.removeItem("fiftysix-name");
}));
$("ac-passkey-add").addEventListener("click", () => act(addPasskey));
$("ac-passkey-signin").addEventListener("click", () => act(passkeySignIn));
$("ac-recover").addEventListener("submit", (ev) => {
  ev.preventDefault();
  act(() => call("/api/account/recovery/use", { code: $("ac-code").value }));
});

document.title = `${t("Your account")} · fiftysix`;
const secret = location.pathname === "/signin" ? location.hash.slice(1) : "";
/** Sign in with a link; a used, expired or mistyped one says why above the other ways in (a recovery code, a
 * passkey, the start page), or above the account when this device is signed in already. */
async function useLink(link) {
  showError("");
  try {
    await call("/api/account/link/use", { secret: link });
  } catch (e) {
    showError(String(e.message || e));
  }
  await load();
}

if (secret) {
  history.replaceState(null, "", "/account");
  useLink(secret);
} else {
  if (location.pathname === "/signin") history.replaceState(null, "", "/account");
  load();
}
