// One tap to a game (issue 58): "Play" asks the server for a seat (/api/play) near the player's rating, or a new
// table with computers; the page says which, then goes to the table. The name is the create form's.
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const GO_AFTER = 1800;     // ms: time to read what happened before the table opens

function say(...parts) {
  const box = clear($("play-said"));
  box.append(...parts);
  box.classList.remove("hidden");
}

async function play() {
  const button = $("play-btn");
  const name = $("player-name").value.trim();
  button.disabled = true;
  try {
    const res = await fetch("/api/play", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify(name ? { player_name: name } : {}),
    });
    const answer = await res.json();
    if (!res.ok) {
      say(h("span", { class: "error" }, answer.error || t("Something went wrong; please try again")));
      if (!name) { $("player-name").scrollIntoView({ block: "center" }); $("player-name").focus(); }
      return;
    }
    localStorage.setItem("fiftysix-name", name || localStorage.getItem("fiftysix-name") || "");
    say(answer.message, " ", h("a", { href: answer.url, id: "play-go" }, t("Go to the table")));
    setTimeout(() => { location.href = answer.url; }, GO_AFTER);
  } catch (_) {
    say(h("span", { class: "error" }, t("Something went wrong; please try again")));
  } finally {
    button.disabled = false;
  }
}

$("play-btn").addEventListener("click", play);
