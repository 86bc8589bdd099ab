// Hover previews: pointing at (or focusing) a link to another note shows
// the start of that note in a popover. The preview reads the note's
// Markdown twin (x.html -> x.md, written for agents anyway), a small file
// with the note's content only, never the whole page; ui/minimd.ts
// renders its first blocks.

import { loadText } from "./load";
import { renderPreview, splitFrontMatter } from "./minimd";

const showDelay = 300;
const hideDelay = 250;

let popover: HTMLDivElement | null = null;
let current: HTMLAnchorElement | null = null;
let showTimer = 0;
let hideTimer = 0;
const cache = new Map<string, Promise<string | null>>();

/** The Markdown twin of a link's page, or "" when the link has none. */
function twinURL(a: HTMLAnchorElement): string {
  if (a.protocol !== location.protocol || a.host !== location.host) return "";
  if (!a.pathname.endsWith(".html")) return "";
  const page = a.href.split("#")[0];
  // A link within this page needs no preview.
  if (page === location.href.split("#")[0]) return "";
  return page.replace(/\.html$/, ".md");
}

function fetchTwin(url: string): Promise<string | null> {
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

const kindLabels: Record<string, string> = {
  index: "Memory index", claim: "Claim", topic: "Topic", daily: "Daily log", conversation: "Conversation",
  dream: "Dream", report: "Report", archive: "Archive", bootstrap: "Profile", note: "Note",
};

async function show(a: HTMLAnchorElement): Promise<void> {
  const url = twinURL(a);
  if (!url) return;
  const md = await fetchTwin(url);
  if (md === null || current !== a) return;
  const el = ensurePopover();
  const { meta, body } = splitFrontMatter(md);
  el.replaceChildren();
  const kind = document.createElement("p");
  kind.className = "preview-kind";
  kind.textContent = [kindLabels[meta.type] || meta.type, meta.date].filter(Boolean).join(" · ");
  el.appendChild(kind);
  const content = document.createElement("div");
  // Links in the twin point at other twins; the preview links their pages.
  const href = (u: string): string | null => {
    if (!u || /^[a-z][a-z0-9+.-]*:/i.test(u) && !/^https?:/i.test(u)) return null;
    const abs = new URL(u, url);
    if (abs.protocol === location.protocol) abs.pathname = abs.pathname.replace(/\.md$/, ".html");
    return abs.href;
  };
  const more = renderPreview(content, body.replace(/^#\s+.*\n+/, ""), href);
  const title = document.createElement("h1");
  title.textContent = meta.title || (/^#\s+(.*)$/m.exec(body)?.[1] ?? "");
  el.append(title, content);
  if (more) {
    const p = document.createElement("p");
    p.className = "preview-more";
    p.textContent = "…";
    el.appendChild(p);
  }
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
