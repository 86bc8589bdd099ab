// The part of search every page carries: it focuses the search field on
// "/" and Ctrl/Cmd-K, and loads the search bundle (assets/search.ts) the
// first time the field is focused or typed into, so content pages stay
// light. The form itself works without any of this (it opens search.html).

import { loadScript, siteRoot } from "../ui/load";

function typing(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  if (!t) return false;
  return t.isContentEditable || t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT";
}

export function initSearchLoader(): void {
  const form = document.querySelector<HTMLFormElement>("form.site-search");
  const input = form?.querySelector<HTMLInputElement>("input[name=q]");
  const js = form?.dataset.searchJs;
  if (!form || !input || !js) return;
  const load = (): void => {
    loadScript(siteRoot() + js).catch(() => {
      input.title = "Search could not be loaded; press Enter to open the search page.";
    });
  };
  input.addEventListener("focus", load, { once: true });
  input.addEventListener("keydown", load, { once: true });
  // The search page shows results without waiting for a focus.
  if (document.querySelector("[data-search-page]")) load();
  document.addEventListener("keydown", (e) => {
    const k = e.key.toLowerCase();
    if ((e.key === "/" && !typing(e) && !e.ctrlKey && !e.metaKey && !e.altKey) || ((e.ctrlKey || e.metaKey) && k === "k")) {
      e.preventDefault();
      input.focus();
      input.select();
    }
  });
}
