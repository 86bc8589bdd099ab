// Hover previews: pointing at (or focusing) a link to another note shows
// the start of that note in a popover. Each page has a small fragment
// beside it (x.html -> x.preview.html) written at build time, so a preview
// costs one small request, never the whole page.

import { loadText } from "./load";

const showDelay = 300;
const hideDelay = 250;

let popover: HTMLDivElement | null = null;
let current: HTMLAnchorElement | null = null;
let showTimer = 0;
let hideTimer = 0;
const cache = new Map<string, Promise<string | null>>();

/** The preview fragment of a page URL, or "" when the link has none. */
function fragmentURL(a: HTMLAnchorElement): string {
  if (a.protocol !== location.protocol || a.host !== location.host) return "";
  const path = a.pathname;
  if (!path.endsWith(".html") || path.endsWith(".preview.html")) return "";
  // A link within this page needs no preview.
  if (a.href.split("#")[0] === location.href.split("#")[0]) return "";
  return a.href.split("#")[0].replace(/\.html$/, ".preview.html");
}

function fetchPreview(url: string): Promise<string | null> {
  let p = cache.get(url);
  if (!p) {
    p = loadText(url).catch(() => null);
    cache.set(url, p);
  }
  return p;
}

function ensurePopover(): HTMLDivElement {
  if (popover) return popover;
  popover = document.createElement("div");
  popover.className = "preview-popover";
  popover.id = "preview-popover";
  popover.setAttribute("role", "tooltip");
  popover.hidden = true;
  popover.addEventListener("mouseenter", () => clearTimeout(hideTimer));
  popover.addEventListener("mouseleave", scheduleHide);
  document.body.appendChild(popover);
  return popover;
}

function place(el: HTMLElement, a: HTMLElement): void {
  const r = a.getBoundingClientRect();
  const w = el.offsetWidth;
  const h = el.offsetHeight;
  let left = r.left + window.scrollX;
  left = Math.max(window.scrollX + 8, Math.min(left, window.scrollX + document.documentElement.clientWidth - w - 8));
  let top = r.bottom + window.scrollY + 6;
  if (r.bottom + h + 12 > window.innerHeight && r.top - h - 12 > 0) top = r.top + window.scrollY - h - 6;
  el.style.left = `${left}px`;
  el.style.top = `${top}px`;
}

async function show(a: HTMLAnchorElement): Promise<void> {
  const url = fragmentURL(a);
  if (!url) return;
  const html = await fetchPreview(url);
  if (html === null || current !== a) return;
  const el = ensurePopover();
  // The fragment is our own build output, escaped by the Markdown
  // renderer; its relative URLs are relative to the target page, which
  // sits in the same folder as the fragment.
  const doc = new DOMParser().parseFromString(html, "text/html");
  const base = new URL(url, location.href);
  for (const link of doc.querySelectorAll<HTMLElement>("[href], [src]")) {
    for (const attr of ["href", "src"]) {
      const v = link.getAttribute(attr);
      if (v && !v.startsWith("#")) link.setAttribute(attr, new URL(v, base).href);
    }
  }
  for (const idEl of doc.querySelectorAll("[id]")) idEl.removeAttribute("id");
  el.replaceChildren(...Array.from(doc.body.childNodes));
  el.scrollTop = 0;
  el.hidden = false;
  a.setAttribute("aria-describedby", el.id);
  place(el, a);
}

function hide(): void {
  if (popover) popover.hidden = true;
  current?.removeAttribute("aria-describedby");
  current = null;
}

function scheduleHide(): void {
  clearTimeout(showTimer);
  clearTimeout(hideTimer);
  hideTimer = window.setTimeout(hide, hideDelay);
}

function target(e: Event): HTMLAnchorElement | null {
  const t = e.target;
  if (!(t instanceof Element)) return null;
  const a = t.closest<HTMLAnchorElement>("a.internal");
  return a && !a.closest(".preview-popover") ? a : null;
}

function enter(e: Event): void {
  const a = target(e);
  if (!a || a === current) {
    if (a) clearTimeout(hideTimer);
    return;
  }
  clearTimeout(showTimer);
  clearTimeout(hideTimer);
  if (current) hide();
  current = a;
  showTimer = window.setTimeout(() => void show(a), showDelay);
}

function leave(e: Event): void {
  if (target(e) === current) scheduleHide();
}

export function initPreviews(): void {
  // Hovering a link on a touch screen is a tap: no previews there.
  if (!window.matchMedia("(hover: hover)").matches) return;
  document.addEventListener("mouseover", enter);
  document.addEventListener("mouseout", leave);
  document.addEventListener("focusin", enter);
  document.addEventListener("focusout", leave);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hide(); });
  window.addEventListener("pagehide", hide);
}
