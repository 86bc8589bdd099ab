// Site behaviour that needs JavaScript. Everything here is an enhancement:
// pages are complete and readable with JavaScript off. This bundle loads on
// every content page, so it stays small (a test holds it under 40 KB
// gzipped); the graph's code is a separate bundle fetched on demand.

import { initTheme } from "./ui/theme";
import { initNav } from "./ui/nav";
import { initExplorer } from "./ui/explorer";
import { initPreviews } from "./ui/preview";
import { initArrival } from "./ui/arrival";
import { initGraphLoader } from "./ui/graphloader";
import { initPrint } from "./ui/print";
import { initSearchLoader } from "./search/loader";
import { initSlider } from "./ui/slider";

initTheme();
initNav();
initExplorer();
initArrival();
initPreviews();
initGraphLoader();
initPrint();
initSearchLoader();
initSlider();
