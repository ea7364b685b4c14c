// "Share": the link friends can reach (the server knows its public address) as text, a copy button and a QR
// code for the phones round one table.  The table's secret rides in the link's fragment.
import { clear, copyButton, h } from "./dom.js";
import { t } from "./i18n.js";

export async function openShare(path) {
  const panel = document.getElementById("share-panel");
  if (!panel.classList.contains("hidden")) { panel.classList.add("hidden"); return; }
  clear(panel);
  let url = location.origin + path;
  let qr = null;
  let note = null;
  let busy = null;
  try {
    const res = await fetch("/api/share", { method: "POST", headers: { "Content-Type": "application/json" },
                                            body: JSON.stringify({ path }) });
    const data = await res.json();
    // refused QR codes (this address asked too often, the server makes enough now) still bring the link
    if (typeof data.url === "string") { url = data.url; qr = data.qr || null; note = data.local_only; }
    if (!res.ok) busy = data.error || null;
  } catch (_) { /* offline: the page's own address */ }
  const link = h("input", { id: "share-url", readonly: true, value: url, "aria-label": t("link to this table") });
  const status = h("span", { class: "muted", role: "status" });
  const copy = copyButton(link, url, status, "copy-link");
  panel.append(h("h2", {}, t("Invite friends")),
    h("p", { class: "muted" }, t("Send this link, or let friends at the table scan the code with their phones.")),
    h("div", { class: "row share-row" }, link, copy, status),
    qr ? h("img", { src: qr, id: "share-qr", class: "qr", width: 220, height: 220, alt: t("QR code of the link {url}", { url }) }) : null,
    !qr && busy ? h("p", { class: "muted", id: "share-busy" }, busy) : null,
    note ? h("p", { class: "muted", id: "share-note" }, t("This server listens on this computer only: friends on other devices cannot open the link. Start it with --host 0.0.0.0 (see the README).")) : null,
    h("button", { type: "button", onclick: () => panel.classList.add("hidden") }, t("Close")));
  panel.classList.remove("hidden");
}
