// Optional sounds, off by default: a short quiet beep (WebAudio, no files) when it becomes your turn.
import { t } from "./i18n.js";

const KEY = "fiftysix-sound";
let on = false;
let audio = null;
let wasMyTurn = false;
let button = null;

function label() {
  button.textContent = "♪";
  const words = on ? t("Sound on (tap to turn off)") : t("Sound off (tap to turn on)");
  button.title = words;
  button.setAttribute("aria-label", words);
  button.setAttribute("aria-pressed", on ? "true" : "false");
}

export function initSound(el) {
  button = el;
  on = localStorage.getItem(KEY) === "1";
  label();
  el.addEventListener("click", () => {
    on = !on;
    localStorage.setItem(KEY, on ? "1" : "0");
    label();
    if (on) beep();      // a sound starts only after a tap: browsers allow it then
  });
}

function beep() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.05, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.15);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.16);
  } catch (_) { /* no audio here: silence */ }
}

/** Beep once when the turn comes to this page. */
export function beepOnTurn(S) {
  const mine = !!(S.view && S.view.legal && S.view.legal.length && S.online);
  if (mine && !wasMyTurn && on) beep();
  wasMyTurn = mine;
}
