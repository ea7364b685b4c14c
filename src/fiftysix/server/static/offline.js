// The offline page: in the player's language like every page (importing i18n.js loads it).
import "./i18n.js";
