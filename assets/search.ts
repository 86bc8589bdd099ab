// The search bundle, loaded on demand by search/loader.ts (part of the
// main bundle) the first time a reader uses the search field.

import { initSearch } from "./search/ui";

initSearch();
