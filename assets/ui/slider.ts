// The time slider of the home page (MEMORY.md) and the dashboard: a range
// input that steps through the memory's earlier points (dreams, or
// weeks) and shows the index or the charts as they stood then. The page
// ships the input hidden and the snapshot pages as plain links, which is
// all a reader without JavaScript gets. The points' data
// (history/index.json) is fetched the first time the slider is touched,
// and each snapshot page when the slider first reaches it.

interface Point { label: string; date: string; page: string; claims: number; health: number }

// What the slider replaces: the region of this page, and the region of
// a snapshot page that takes its place.
const regions: Record<string, { here: string; there: string }> = {
  index: { here: "article > .content", there: "#as-of-index" },
  charts: { here: "article > .dashboard", there: "#as-of-charts" },
};

export function initSlider(): void {
  const box = document.querySelector<HTMLElement>(".time-slider[data-timeline]");
  const input = box?.querySelector<HTMLInputElement>("input[type=range]");
  const status = box?.querySelector<HTMLOutputElement>("output");
  const region = regions[box?.dataset.swap || ""];
  const here = region && document.querySelector<HTMLElement>(region.here);
  if (!box || !input || !status || !region || !here) return;
  const control = input.closest<HTMLElement>(".ts-control");
  if (control) control.hidden = false;
  const dataURL = new URL(box.dataset.timeline || "", location.href);
  const now = here.innerHTML;
  const pages = new Map<string, Promise<string>>();
  let points: Promise<Point[]> | null = null;
  let shown = input.value;

  const load = (): Promise<Point[]> => {
    points ??= fetch(dataURL).then((r) => {
      if (!r.ok) throw new Error(r.statusText);
      return r.json() as Promise<{ points: Point[] }>;
    }).then((d) => d.points);
    return points;
  };
  // A snapshot page's region, its links made to work from this page.
  const fragment = (page: string): Promise<string> => {
    let p = pages.get(page);
    if (!p) {
      const url = new URL(page, dataURL.href.replace(/history\/index\.json$/, ""));
      p = fetch(url).then((r) => {
        if (!r.ok) throw new Error(r.statusText);
        return r.text();
      }).then((html) => {
        const doc = new DOMParser().parseFromString(html, "text/html");
        const el = doc.querySelector(region.there);
        if (!el) throw new Error("no " + region.there + " in " + page);
        // Links within the index ("#people") stay on this page.
        for (const a of el.querySelectorAll<HTMLAnchorElement>("a[href]:not([href^='#'])")) {
          a.setAttribute("href", new URL(a.getAttribute("href") || "", url).href);
        }
        return el.innerHTML;
      });
      pages.set(page, p);
    }
    return p;
  };
  const say = (text: string): void => {
    status.textContent = text;
    input.setAttribute("aria-valuetext", text);
  };
  const show = async (): Promise<void> => {
    const value = input.value;
    shown = value;
    const i = Number(value);
    let list: Point[];
    try {
      list = await load();
    } catch {
      say("The earlier versions could not be loaded; the links below still work.");
      return;
    }
    if (shown !== value) return; // the reader moved on while it loaded
    const p = list[i];
    if (!p) {
      here.innerHTML = now;
      box.dataset.at = "";
      say("Now");
      return;
    }
    say(`${p.label}: ${p.claims} claims, health ${p.health}`);
    here.setAttribute("aria-busy", "true");
    try {
      const html = await fragment(p.page);
      if (shown !== value) return;
      here.innerHTML = html;
      box.dataset.at = p.date;
    } catch {
      say(`${p.label} could not be loaded; the links below still work.`);
    } finally {
      here.removeAttribute("aria-busy");
    }
  };
  // The data loads on the first touch, before the value changes.
  for (const ev of ["pointerdown", "focus", "keydown"]) {
    input.addEventListener(ev, () => void load().catch(() => undefined), { once: true });
  }
  input.addEventListener("input", () => void show());
}
