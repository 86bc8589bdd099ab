// A small Markdown renderer for hover previews: it shows the start of a
// note's Markdown twin (x.md, written beside every page for agents) as
// headings, paragraphs, lists, tables, quotes, callouts, code and inline
// styles.
// It builds DOM nodes with textContent only, so nothing in a note can
// inject markup. It is deliberately partial: a preview is a glimpse, the
// page is one click away.

/** What a twin's front matter says about its note. */
export interface TwinMeta {
  title: string;
  type: string;
  date: string;
}

/** splitFrontMatter separates the twin's YAML header from its body. */
export function splitFrontMatter(md: string): { meta: TwinMeta; body: string } {
  const meta: TwinMeta = { title: "", type: "", date: "" };
  if (!md.startsWith("---\n")) return { meta, body: md };
  const end = md.indexOf("\n---\n", 4);
  if (end < 0) return { meta, body: md };
  for (const line of md.slice(4, end).split("\n")) {
    const m = /^(title|type|date):\s*(.*)$/.exec(line);
    if (!m) continue;
    let v = m[2].trim();
    if (v.startsWith('"') && v.endsWith('"')) {
      try { v = JSON.parse(v); } catch { v = v.slice(1, -1); }
    }
    (meta as unknown as Record<string, string>)[m[1]] = v;
  }
  return { meta, body: md.slice(end + 5) };
}

type Href = (url: string) => string | null;

const inlineRe = /(\*\*[^*]+\*\*|__[^_]+__|\*[^*\s][^*]*\*|_[^_\s][^_]*_|`[^`]+`|==[^=]+==|!?\[[^\]]*\]\([^)\s]*\)|\[\^[^\]]+\])/;

/** inline appends text with **bold**, *em*, `code`, ==mark== and links. */
function inline(parent: Node, text: string, href: Href): void {
  while (text) {
    const m = inlineRe.exec(text);
    if (!m) { parent.appendChild(document.createTextNode(text)); return; }
    if (m.index > 0) parent.appendChild(document.createTextNode(text.slice(0, m.index)));
    const t = m[0];
    text = text.slice(m.index + t.length);
    let el: HTMLElement;
    if (t.startsWith("**") || t.startsWith("__")) { el = document.createElement("strong"); inline(el, t.slice(2, -2), href); }
    else if (t.startsWith("`")) { el = document.createElement("code"); el.textContent = t.slice(1, -1); }
    else if (t.startsWith("==")) { el = document.createElement("mark"); inline(el, t.slice(2, -2), href); }
    else if (t.startsWith("[^")) continue; // footnote references
    else if (t.startsWith("[") || t.startsWith("![")) {
      const lm = /^!?\[([^\]]*)\]\(([^)\s]*)\)$/.exec(t)!;
      if (t.startsWith("!")) { if (lm[1]) parent.appendChild(document.createTextNode(lm[1])); continue; }
      const u = href(lm[2]);
      if (u) { const a = document.createElement("a"); a.href = u; el = a; } else el = document.createElement("span");
      inline(el, lm[1], href);
    } else { el = document.createElement("em"); inline(el, t.slice(1, -1), href); }
    parent.appendChild(el);
  }
}

/** renderPreview renders the first blocks of body, about limit characters
 * of text, into parent. It returns whether it stopped early. */
export function renderPreview(parent: HTMLElement, body: string, href: Href, limit = 1200): boolean {
  // Block ids (" ^e3") are anchors for links, not text.
  const lines = body.split("\n").map((l) => l.replace(/\s\^[A-Za-z0-9-]+\s*$/, ""));
  let used = 0;
  let list: HTMLElement | null = null;
  let i = 0;
  const add = (el: HTMLElement): void => { parent.appendChild(el); used += (el.textContent || "").length; };
  while (i < lines.length) {
    if (used >= limit) return true;
    const line = lines[i];
    const t = line.trim();
    if (!t) { list = null; i++; continue; }
    let m: RegExpExecArray | null;
    if ((m = /^(#{1,6})\s+(.*)$/.exec(t))) {
      list = null;
      const h = document.createElement(`h${Math.min(4, m[1].length + 1)}`);
      inline(h, m[2], href);
      add(h);
      i++;
    } else if (t.startsWith("```") || t.startsWith("~~~")) {
      list = null;
      const fence = t.slice(0, 3);
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence); i++) code.push(lines[i]);
      i++;
      const pre = document.createElement("pre");
      pre.textContent = code.slice(0, 12).join("\n");
      add(pre);
    } else if (t.startsWith(">")) {
      list = null;
      const quote: string[] = [];
      for (; i < lines.length && lines[i].trim().startsWith(">"); i++) quote.push(lines[i].trim().replace(/^>\s?/, ""));
      const box = document.createElement("blockquote");
      const cm = /^\[!(\w+)\][+-]?\s*(.*)$/.exec(quote[0] || "");
      if (cm) {
        box.className = "callout";
        box.dataset.callout = cm[1].toLowerCase();
        const title = document.createElement("div");
        title.className = "callout-title";
        inline(title, cm[2] || cm[1], href);
        box.appendChild(title);
        quote.shift();
      }
      if (quote.length) { const p = document.createElement("p"); inline(p, quote.join(" "), href); box.appendChild(p); }
      add(box);
    } else if ((m = /^([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?(.*)$/.exec(t))) {
      const ordered = /\d/.test(m[1][0]);
      if (!list || (list.tagName === "OL") !== ordered) {
        list = document.createElement(ordered ? "ol" : "ul");
        parent.appendChild(list);
      }
      const li = document.createElement("li");
      if (m[2]) li.appendChild(document.createTextNode(/x/i.test(m[2]) ? "☑ " : "☐ "));
      inline(li, m[3], href);
      list.appendChild(li);
      used += (li.textContent || "").length;
      i++;
    } else if (t.startsWith("|") && i + 1 < lines.length && tableRule.test(lines[i + 1].trim())) {
      list = null;
      const table = document.createElement("table");
      const row = (cells: string[], tag: "th" | "td"): HTMLTableRowElement => {
        const tr = document.createElement("tr");
        for (const c of cells) { const cell = document.createElement(tag); inline(cell, c, href); tr.appendChild(cell); }
        return tr;
      };
      table.createTHead().appendChild(row(cellsOf(t), "th"));
      const tbody = table.createTBody();
      for (i += 2; i < lines.length && lines[i].trim().startsWith("|"); i++) {
        if (tbody.rows.length < 8) tbody.appendChild(row(cellsOf(lines[i].trim()), "td"));
      }
      add(table);
    } else if (/^(-{3,}|\*{3,}|_{3,})$/.test(t) || tableRule.test(t)) {
      i++;
    } else {
      list = null;
      const para: string[] = [];
      for (; i < lines.length; i++) {
        const u = lines[i].trim();
        if (!u || /^(#{1,6}\s|>|```|~~~|[-*+]\s|\d+[.)]\s)/.test(u)) break;
        para.push(u.startsWith("|") ? u.replace(/^\||\|$/g, "").split("|").map((c) => c.trim()).join(" · ") : u);
      }
      const p = document.createElement("p");
      inline(p, para.join(" "), href);
      add(p);
    }
  }
  return false;
}

const tableRule = /^\|?[\s:-]+\|[\s|:-]*$/;

/** cellsOf splits a table row on its unescaped bars. */
function cellsOf(row: string): string[] {
  const cells: string[] = [];
  let cur = "";
  for (let i = 0; i < row.length; i++) {
    if (row[i] === "\\" && row[i + 1] === "|") { cur += "|"; i++; continue; }
    if (row[i] === "|") { cells.push(cur.trim()); cur = ""; continue; }
    cur += row[i];
  }
  cells.push(cur.trim());
  if (row.startsWith("|")) cells.shift();
  if (row.endsWith("|") && !row.endsWith("\\|")) cells.pop();
  return cells;
}
