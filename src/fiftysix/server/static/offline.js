// The offline page: in the player's language like every page.
import { startLanguage } from "./lang.js";

startLanguage();
