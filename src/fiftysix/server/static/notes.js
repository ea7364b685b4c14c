// Notes to this player that outlive one message: what the computer did for you when your clock ran out, your
// seat given to a computer player, the clock running low. Each has a key; a note with a close button stays until
// closed or replaced, the clock's is kept up to date by the clock itself.
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

const notes = new Map();      // key -> { text, closable }

export function note(key, text, closable = true) {
  const had = notes.get(key);
  if (!text) { if (!had) return; notes.delete(key); }
  else if (had && had.text === text) return;
  else notes.set(key, { text, closable });
  draw();
}

function draw() {
  const box = document.getElementById("notes");
  if (!box) return;
  clear(box);
  for (const [key, { text, closable }] of notes) {
    box.append(h("div", { class: `note note-${key}`, "data-note": key }, h("span", { class: "grow" }, text),
      closable ? h("button", { type: "button", class: "note-close", "aria-label": t("Close this note"),
                               onclick: () => note(key, null) }, "×") : null));
  }
  box.classList.toggle("hidden", notes.size === 0);
}
