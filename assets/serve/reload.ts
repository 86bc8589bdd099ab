// Reloading what changed, and only that: a page reloads when its own file
// or a script, stylesheet or data file it loads changed, keeping its
// scroll position; when only stylesheets changed, they are swapped in
// place without a reload.

const scrollKey = "dreamwiki-serve-scroll:";

// sitePath is a URL's path inside the site ("topics/x.html").
function sitePath(href: string): string {
  try {
    let p = decodeURIComponent(new URL(href, location.href).pathname).replace(/^\/+/, "");
    if (p === "" || p.endsWith("/")) p += "index.html";
    return p;
  } catch {
    return "";
  }
}

// shown are the site files this page is made of.
function shown(): Set<string> {
  const out = new Set<string>();
  const page = document.body.dataset.page;
  out.add(page ? page : sitePath(location.href));
  document.querySelectorAll<HTMLScriptElement>("script[src]").forEach((s) => out.add(sitePath(s.src)));
  document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]").forEach((l) => out.add(sitePath(l.href)));
  const root = document.body.dataset.root || "";
  const data = document.body.dataset.graphData;
  if (data && document.querySelector("[data-graph], #graph, .graph")) out.add(sitePath(root + data));
  return out;
}

// held is set while the reader works in a panel (a dream): a reload would
// take the panel away, so it waits until the panel closes.
let held = false;
let pending = false;

export function holdReloads(on: boolean): void {
  held = on;
  if (!on && pending) {
    pending = false;
    reload();
  }
}

export function onChanged(kind: string, paths: string[]): void {
  const mine = shown();
  const hits = paths.filter((p) => mine.has(p));
  if (hits.length === 0) return;
  if (kind === "css" || hits.every((p) => p.endsWith(".css"))) {
    swapStyles(new Set(hits));
    return;
  }
  if (held) {
    pending = true;
    return;
  }
  reload();
}

function reload(): void {
  try {
    sessionStorage.setItem(scrollKey + location.pathname, JSON.stringify([window.scrollX, window.scrollY]));
  } catch { /* storage off: the browser's own restoration is all there is */ }
  location.reload();
}

function swapStyles(changed: Set<string>): void {
  document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]").forEach((l) => {
    if (!changed.has(sitePath(l.href))) return;
    const next = l.cloneNode() as HTMLLinkElement;
    const u = new URL(l.href);
    u.searchParams.set("dreamwiki", String(Date.now()));
    next.href = u.href;
    next.addEventListener("load", () => l.remove(), { once: true });
    l.after(next);
  });
}

// restoreScroll puts the page back where the reader was before a reload.
export function restoreScroll(): void {
  let saved: string | null = null;
  try {
    saved = sessionStorage.getItem(scrollKey + location.pathname);
    sessionStorage.removeItem(scrollKey + location.pathname);
  } catch {
    return;
  }
  if (!saved) return;
  try {
    const [x, y] = JSON.parse(saved) as [number, number];
    if ("scrollRestoration" in history) history.scrollRestoration = "manual";
    window.scrollTo(x, y);
  } catch { /* a damaged entry: stay at the top */ }
}
