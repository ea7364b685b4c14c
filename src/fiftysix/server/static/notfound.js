// A wrong table code: say so plainly and lead home (the code is shown as text, never as markup).
import { t } from "./i18n.js";

const code = decodeURIComponent(location.pathname.split("/").pop() || "").toUpperCase().slice(0, 16);
document.title = `${t("No such table")} · fiftysix`;
document.getElementById("nf-title").textContent = t("No table here");
document.getElementById("nf-text").textContent = t("There is no table {code}. Check the code with your friend " +
  "(letters and digits, like ABC234), or start a table of your own.", { code });
document.getElementById("nf-home").textContent = t("Start page");
