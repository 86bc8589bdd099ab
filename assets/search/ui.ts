// The search box: results as you type under the header's search field (a
// combobox with keyboard navigation), or the full list on search.html,
// whose ?q=, kind=, type= and tier= parameters make searches linkable.
// This bundle is loaded on first use (see loader.ts), so content pages do
// not pay for it.

import { Engine, Fragment, Result } from "./engine";
import { CorruptIndex } from "./codec";
import { browserLoader } from "./transport";
import { Piece, highlight, snippet } from "./snippet";
import { ParsedQuery, exactFirst, parseQuery, planQuery } from "./query";

/** One result of window.dreamwikiSearch.search. */
export interface APIResult {
  /** URL relative to the current page. */
  url: string;
  title: string;
  score: number;
  kind: string;
  date?: string;
  text: string;
}

declare global {
  interface Window {
    __dreamwikiSearchUI?: boolean;
    /**
     * The engine behind the search field, for scripts (and benchmarks):
     * await dreamwikiSearch.search("gateway", { kinds: ["topic"], limit: 5 }).
     */
    dreamwikiSearch?: {
      search(text: string, opts?: { kinds?: string[]; types?: string[]; tiers?: string[]; limit?: number }): Promise<APIResult[]>;
      /** The query syntax as parsed here (and by `dreamwiki search`). */
      parse(text: string): ParsedQuery;
    };
  }
}

let sharedEngine: Promise<Engine> | null = null;

/** The page's one engine, opened on first use. */
function engineFor(root: string): Promise<Engine> {
  if (!sharedEngine) sharedEngine = Engine.open(browserLoader(root + "search/"));
  return sharedEngine;
}

const DROPDOWN_RESULTS = 8;
const PAGE_RESULTS = 30;

interface Filters {
  kinds: Set<string>;
  types: Set<string>;
  tiers: Set<string>;
}

const STYLE = `
.site-search .search-key{position:absolute;right:.5rem;top:50%;transform:translateY(-50%);font:inherit;font-size:.75rem;
 color:var(--fg-soft);border:1px solid var(--border);border-radius:4px;padding:0 .35rem;pointer-events:none}
.site-search input:focus+.search-key,.site-search input:not(:placeholder-shown)+.search-key{display:none}
.search-panel{position:absolute;z-index:50;top:calc(100% + .35rem);left:0;width:min(40rem,calc(100vw - 1.5rem));max-height:min(75vh,42rem);
 overflow:auto;background:var(--bg);color:var(--fg);border:1px solid var(--border-strong);border-radius:var(--radius,6px);
 box-shadow:var(--shadow,0 8px 24px rgba(0,0,0,.15));padding:.5rem}
.search-page .search-panel{position:static;width:auto;max-height:none;box-shadow:none;border:0;padding:0}
.search-filters{display:flex;flex-wrap:nowrap;overflow-x:auto;scrollbar-width:thin;gap:.35rem;align-items:center;margin:0 0 .4rem;padding-bottom:.15rem}
.search-filters>*{flex:none}
.search-filters button{font:inherit;font-size:.8rem;padding:.1rem .55rem;border-radius:999px;border:1px solid var(--border);
 background:var(--bg-soft);color:var(--fg);cursor:pointer}
.search-filters button[aria-pressed=true]{background:var(--accent-soft);border-color:var(--accent);color:var(--fg)}
.search-filters select{font:inherit;font-size:.8rem;padding:.1rem .3rem;border-radius:6px;border:1px solid var(--border);background:var(--bg-soft);color:var(--fg)}
.search-status{margin:.25rem .25rem .4rem;font-size:.85rem;color:var(--fg-soft)}
.search-status.is-error{color:var(--danger,#b42318)}
.search-results{list-style:none;margin:0;padding:0}
.search-results li{margin:0;border-radius:6px}
.search-results li a{display:block;padding:.45rem .55rem;color:inherit;text-decoration:none;border-radius:6px}
.search-results a[aria-selected=true],.search-results li a:hover{background:var(--bg-soft);outline:1px solid var(--border)}
.search-results .sr-title{display:block;font-weight:600;color:var(--link,var(--accent))}
.search-results .sr-meta{display:flex;flex-wrap:wrap;gap:.3rem;font-size:.75rem;color:var(--fg-soft);margin:.1rem 0}
.search-results .sr-badge{border:1px solid var(--border);border-radius:999px;padding:0 .4rem}
.search-results .sr-badge.is-warn{border-color:var(--danger,#b42318);color:var(--danger,#b42318)}
.search-results .sr-snippet{display:block;font-size:.85rem;color:var(--fg);overflow-wrap:anywhere}
.search-results mark{background:var(--mark,#fde68a);color:var(--fg);border-radius:2px;padding:0 .05em}
.search-more{display:block;margin:.4rem .25rem 0;font-size:.85rem}
`;

/** initSearch wires the header's search form (and the search page when this is it). */
export function initSearch(): void {
  if (window.__dreamwikiSearchUI) return;
  window.__dreamwikiSearchUI = true;
  const root = searchRoot();
  window.dreamwikiSearch = {
    async search(text, opts = {}) {
      const e = await engineFor(root);
      const r = await e.search({ text, ...opts });
      const frags = await Promise.all(r.hits.map((h) => e.fragment(h.doc)));
      return r.hits.map((h, i) => ({ url: root + frags[i].u, title: frags[i].t, score: h.score, kind: frags[i].k, date: frags[i].d, text: frags[i].x }));
    },
    parse: parseQuery,
  };
  const form = document.querySelector<HTMLFormElement>("form.site-search");
  const input = form?.querySelector<HTMLInputElement>("input[name=q]");
  if (!form || !input) return;
  const style = document.createElement("style");
  style.textContent = STYLE;
  document.head.appendChild(style);
  new SearchBox(form, input, document.querySelector<HTMLElement>("[data-search-page]"));
}

/**
 * searchRoot is the path to the site whose index and search page the
 * search field uses: the page's own site, or in a team site the team's,
 * whose one index covers every workspace.
 */
function searchRoot(): string {
  const b = document.body.dataset;
  return b.searchRoot ?? b.root ?? "";
}

class SearchBox {
  private root = searchRoot();
  private engine: Promise<Engine> | null = null;
  private seq = 0;
  private active = -1;
  private links: HTMLAnchorElement[] = [];
  private filters: Filters = { kinds: new Set(), types: new Set(), tiers: new Set() };
  private unknown: string[] = [];
  private panel: HTMLElement;
  private filterBar: HTMLElement;
  private status: HTMLElement;
  private list: HTMLUListElement;
  private more: HTMLAnchorElement;
  private filtersBuilt = false;

  constructor(private form: HTMLFormElement, private input: HTMLInputElement, private page: HTMLElement | null) {
    this.panel = el("div", "search-panel");
    this.panel.id = "search-panel";
    this.filterBar = el("div", "search-filters");
    this.filterBar.setAttribute("role", "group");
    this.filterBar.setAttribute("aria-label", "Filters");
    this.status = el("p", "search-status");
    this.status.setAttribute("role", "status");
    this.status.setAttribute("aria-live", "polite");
    this.list = el("ul", "search-results") as HTMLUListElement;
    this.list.id = "search-results";
    this.list.setAttribute("role", "listbox");
    this.list.setAttribute("aria-label", "Search results");
    this.more = el("a", "search-more") as HTMLAnchorElement;
    this.more.textContent = "All results";
    this.more.hidden = true;
    this.panel.append(this.filterBar, this.status, this.list, this.more);

    input.setAttribute("role", "combobox");
    input.setAttribute("aria-controls", "search-results");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");

    if (page) {
      page.querySelector("[data-search-status]")?.remove();
      page.append(this.panel);
      this.readURL();
    } else {
      this.panel.hidden = true;
      form.append(this.panel);
    }

    input.addEventListener("input", () => this.run());
    input.addEventListener("focus", () => {
      this.open();
      if (input.value.trim() !== "" && this.list.childElementCount === 0) this.run();
    });
    input.addEventListener("keydown", (e) => this.key(e));
    document.addEventListener("pointerdown", (e) => {
      if (!this.page && !form.contains(e.target as Node)) this.close();
    });
    form.addEventListener("submit", (e) => {
      if (this.page) {
        e.preventDefault();
        this.run();
      }
    });
    // The bundle may load after the reader started typing.
    if (page || document.activeElement === input) {
      this.open();
      this.run();
    }
  }

  private getEngine(): Promise<Engine> {
    if (!this.engine) {
      this.engine = engineFor(this.root);
      this.engine.then((e) => this.buildFilters(e)).catch(() => undefined);
    }
    return this.engine;
  }

  private open(): void {
    if (this.page) return;
    this.panel.hidden = false;
    this.input.setAttribute("aria-expanded", "true");
    void this.getEngine().catch(() => undefined);
  }

  private close(): void {
    if (this.page) return;
    this.panel.hidden = true;
    this.input.setAttribute("aria-expanded", "false");
    this.setActive(-1);
  }

  private readURL(): void {
    const params = new URLSearchParams(location.search);
    this.input.value = params.get("q") || "";
    const take = (key: string, into: Set<string>): void => {
      for (const v of params.getAll(key)) for (const part of v.split(",")) if (part.trim()) into.add(part.trim().toLowerCase());
    };
    take("kind", this.filters.kinds);
    take("type", this.filters.types);
    take("tier", this.filters.tiers);
  }

  private writeURL(): void {
    if (!this.page) return;
    const params = new URLSearchParams();
    if (this.input.value) params.set("q", this.input.value);
    for (const k of this.filters.kinds) params.append("kind", k);
    for (const k of this.filters.types) params.append("type", k);
    for (const k of this.filters.tiers) params.append("tier", k);
    const qs = params.toString();
    history.replaceState(null, "", location.pathname + (qs ? "?" + qs : ""));
  }

  private buildFilters(e: Engine): void {
    if (this.filtersBuilt) return;
    this.filtersBuilt = true;
    // Values a deep link names that this index does not know are dropped
    // (and said), so a stale link still finds something.
    const known = (set: Set<string>, vocab: string[], key: string): void => {
      for (const v of Array.from(set)) {
        if (!vocab.includes(v)) {
          set.delete(v);
          this.unknown.push(key + "=" + v);
        }
      }
    };
    known(this.filters.kinds, e.kinds().map((k) => k.value), "kind");
    known(this.filters.types, e.types(), "type");
    known(this.filters.tiers, e.tiers(), "tier");
    for (const k of e.kinds()) {
      const b = el("button", "") as HTMLButtonElement;
      b.type = "button";
      b.textContent = k.label;
      b.dataset.kind = k.value;
      b.setAttribute("aria-pressed", this.filters.kinds.has(k.value) ? "true" : "false");
      b.addEventListener("click", () => {
        if (this.filters.kinds.has(k.value)) this.filters.kinds.delete(k.value);
        else this.filters.kinds.add(k.value);
        b.setAttribute("aria-pressed", this.filters.kinds.has(k.value) ? "true" : "false");
        this.run();
      });
      this.filterBar.append(b);
    }
    const select = (label: string, values: string[], set: Set<string>): void => {
      if (values.length === 0) return;
      const s = el("select", "") as HTMLSelectElement;
      s.setAttribute("aria-label", label);
      s.dataset.filter = label.toLowerCase();
      s.append(new Option("Any " + label.toLowerCase(), ""));
      for (const v of values) s.append(new Option(v, v, false, set.has(v)));
      s.addEventListener("change", () => {
        set.clear();
        if (s.value) set.add(s.value);
        this.run();
      });
      this.filterBar.append(s);
    };
    select("Type", e.types(), this.filters.types);
    select("Tier", e.tiers(), this.filters.tiers);
  }

  private key(e: KeyboardEvent): void {
    const n = this.links.length;
    switch (e.key) {
      case "ArrowDown":
        e.preventDefault();
        this.open();
        if (n > 0) this.setActive((this.active + 1) % n);
        break;
      case "ArrowUp":
        e.preventDefault();
        if (n > 0) this.setActive(this.active <= 0 ? n - 1 : this.active - 1);
        break;
      case "Enter":
        if (this.active >= 0 && this.active < n) {
          e.preventDefault();
          this.links[this.active].click();
        }
        break;
      case "Escape":
        if (!this.page && !this.panel.hidden) {
          e.preventDefault();
          this.close();
        } else if (this.input.value) {
          e.preventDefault();
          this.input.value = "";
          this.run();
        }
        break;
    }
  }

  private setActive(i: number): void {
    this.active = i;
    this.links.forEach((a, j) => {
      a.setAttribute("aria-selected", j === i ? "true" : "false");
      if (j === i) a.scrollIntoView({ block: "nearest" });
    });
    if (i >= 0 && i < this.links.length) this.input.setAttribute("aria-activedescendant", this.links[i].id);
    else this.input.removeAttribute("aria-activedescendant");
  }

  private say(text: string, error = false): void {
    this.status.textContent = text;
    this.status.classList.toggle("is-error", error);
  }

  private clear(): void {
    this.list.replaceChildren();
    this.links = [];
    this.more.hidden = true;
    this.setActive(-1);
  }

  private async run(): Promise<void> {
    const seq = ++this.seq;
    const text = this.input.value;
    this.writeURL();
    this.open();
    let engine: Engine;
    try {
      engine = await this.getEngine();
    } catch (err) {
      if (seq === this.seq) this.unavailable(err);
      return;
    }
    if (seq !== this.seq) return;
    const note = this.unknown.length ? ` Unknown filter ignored: ${this.unknown.join(", ")}.` : "";
    if (text.trim() === "") {
      this.clear();
      this.say(`Type to search ${engine.h.docs} notes.${note}`);
      return;
    }
    // The query's own filters (type:claim) win over the filter row's.
    const parsed = parseQuery(text);
    const plan = planQuery(parsed, { kinds: engine.kinds(), types: engine.types(), tiers: engine.tiers() });
    const pick = (fromQuery: string[], fromRow: Set<string>): string[] => (fromQuery.length > 0 ? fromQuery : Array.from(fromRow));
    const unknown = plan.unknown.length ? ` Nothing has ${plan.unknown.join(", ")}.` : "";
    const limit = this.page ? PAGE_RESULTS : DROPDOWN_RESULTS;
    const kinds = pick(plan.kinds, this.filters.kinds);
    const types = pick(plan.types, this.filters.types);
    const tiers = pick(plan.tiers, this.filters.tiers);
    // Filters only a fragment can answer (path:, -word, phrases) look at
    // more candidates than are shown.
    const wide = plan.keep ? Math.max(limit * 5, 100) : limit;
    let res: Result;
    let frags: Fragment[];
    // A query of filters alone (kind:"Daily log", a dashboard bar's
    // link) lists what they keep, freshest first.
    let listed = -1;
    try {
      if (plan.text === "") {
        const b = engine.browse({ text: "", kinds, types, tiers, limit: wide });
        if (b.total === 0) {
          this.clear();
          this.say(parsed.filters.length === 0 ? `No searchable words in “${clip(text)}”.${note}`
            : unknown !== "" ? `No results for “${clip(text)}”.${unknown}${note}`
              : `Add a word to search with ${clip(text)}.${note}`);
          return;
        }
        res = { hits: b.hits, terms: [], prefixes: [] };
        listed = b.total;
      } else {
        res = await engine.search({ text: plan.text, limit: wide, kinds, types, tiers });
        if (seq !== this.seq) return;
      }
      frags = await Promise.all(res.hits.map((h) => engine.fragment(h.doc)));
    } catch (err) {
      if (seq === this.seq) this.unavailable(err);
      return;
    }
    if (seq !== this.seq) return;
    const keep = plan.keep;
    let pairs = res.hits.map((h, i) => ({ h, f: frags[i] })).filter((x) => keep === null || keep(x.f));
    pairs = exactFirst(pairs, (x) => x.f, plan.exact).slice(0, limit);
    res = { ...res, hits: pairs.map((x) => x.h) };
    let status: string | undefined;
    if (listed >= 0 && plan.indexOnly) {
      status = listed > pairs.length
        ? `${listed} notes have ${clip(text)}; the ${pairs.length} freshest are shown.`
        : `${listed} ${listed === 1 ? "note has" : "notes have"} ${clip(text)}.`;
    }
    this.render(res, pairs.map((x) => x.f), text, unknown + note, status);
  }

  private unavailable(err: unknown): void {
    this.clear();
    const why = err instanceof CorruptIndex ? "its index could not be read" : "something went wrong";
    this.say(`Search is unavailable: ${why}. Every note is still reachable from the explorer and the memory index.`, true);
  }

  private render(res: Result, frags: Fragment[], text: string, note: string, status?: string): void {
    this.clear();
    const terms = new Set(res.terms);
    if (res.hits.length === 0) {
      this.say(res.terms.length === 0 && res.prefixes.length === 0 && !/[\p{L}\p{N}]/u.test(text)
        ? `No searchable words in “${clip(text)}”.${note}`
        : `No results for “${clip(text)}”.${note}`);
      return;
    }
    this.say((status ?? `${res.hits.length}${res.hits.length === (this.page ? PAGE_RESULTS : DROPDOWN_RESULTS) ? "+" : ""} results.`) + note);
    frags.forEach((f, i) => {
      // The links are the options (an option may not hold a link), so
      // a result still opens in a new tab with a middle click.
      const li = el("li", "");
      li.setAttribute("role", "none");
      const a = el("a", "") as HTMLAnchorElement;
      a.id = "search-result-" + i;
      a.setAttribute("role", "option");
      a.setAttribute("aria-selected", "false");
      a.href = this.root + f.u;
      a.tabIndex = -1;
      const title = el("span", "sr-title");
      title.append(...render(highlight(f.t, terms, res.prefixes)));
      const meta = el("span", "sr-meta");
      const badge = (t: string, warn = false): void => {
        const b = el("span", "sr-badge" + (warn ? " is-warn" : ""));
        b.textContent = t;
        meta.append(b);
      };
      if (f.w) {
        // The workspace of a team site's result, first: it says whose memory this is.
        const b = el("span", "sr-badge sr-workspace");
        b.textContent = f.w;
        meta.append(b);
      }
      badge(f.k);
      if (f.d) badge(f.d);
      if (f.m) badge(f.m);
      if (f.r) badge(f.r);
      if (f.e) {
        // A claim's evidence marker, as beside its entry on the pages.
        const b = el("span", "ev-badge ev-" + f.e);
        const dot = el("span", "ev-dot");
        dot.setAttribute("aria-hidden", "true");
        b.append(dot, f.e === "none" ? "no evidence" : f.e);
        meta.append(b);
      } else {
        if (f.s === "superseded") badge("superseded", true);
        if (f.l) badge("lapsed permission", true);
      }
      const snip = el("span", "sr-snippet");
      snip.append(...render(snippet(f.x, terms, res.prefixes)));
      a.append(title, meta, snip);
      li.append(a);
      this.list.append(li);
      this.links.push(a);
    });
    if (!this.page) {
      const qs = new URLSearchParams({ q: text });
      for (const k of this.filters.kinds) qs.append("kind", k);
      this.more.href = this.root + "search.html?" + qs.toString();
      this.more.hidden = false;
    }
  }
}

function el(tag: string, cls: string): HTMLElement {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  return e;
}

function render(pieces: Piece[]): Node[] {
  return pieces.map((p) => {
    if (!p.mark) return document.createTextNode(p.text);
    const m = document.createElement("mark");
    m.textContent = p.text;
    return m;
  });
}

function clip(s: string): string {
  const t = s.trim();
  return t.length > 60 ? t.slice(0, 57) + "…" : t;
}
