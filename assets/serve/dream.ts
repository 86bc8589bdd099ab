// The Dream button and panel: plan a dream (a dry run: gates, what it
// would do and the diff of every file), apply it while the server streams
// its progress, then show what changed with links to the new notes.

import type { Message, Dreamed } from "./socket";
import { holdReloads } from "./reload";

let token = "";
let panel: HTMLDialogElement | null = null;
let log: HTMLOListElement | null = null;
let busy = false;

interface Gate { name: string; passed: boolean; forced?: boolean; detail: string }
interface Action { kind: string; file: string; text: string; reason: string }
interface FileChange { path: string; change: string; diff: string }
interface Proposal { id: string; text: string; source: string[]; score: number; cues: string[] }
interface Plan {
  ready: boolean;
  gates: Gate[];
  actions: Action[];
  proposals: Proposal[] | null;
  files: FileChange[];
  summary: string;
  inputs: { path: string }[];
}
interface PlanAnswer { id: string; plan: Plan; diff: string }

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function root(): string {
  return document.body.dataset.root || "";
}

export function initDream(tok: string, readOnly: boolean): void {
  token = tok;
  const nav = document.querySelector(".header-nav");
  if (!nav) return;
  const button = el("button", "icon-button dw-dream-button", "Dream");
  button.type = "button";
  button.id = "dw-dream";
  if (readOnly) {
    button.disabled = true;
    button.title = "This server runs with --read-only: dreams are off";
  } else {
    button.title = "Plan a dream: consolidate recent daily logs into curated memory";
    button.addEventListener("click", () => open());
  }
  nav.insertBefore(button, nav.querySelector("#theme-toggle"));
}

function open(): void {
  if (!panel) {
    panel = el("dialog", "dw-panel");
    panel.setAttribute("aria-labelledby", "dw-panel-title");
    // The page waits to reload until the panel closes.
    panel.addEventListener("close", () => holdReloads(false));
    document.body.append(panel);
  }
  panel.replaceChildren();
  const head = el("header");
  const h = el("h2", "", "Dream");
  h.id = "dw-panel-title";
  const close = el("button", "dw-close", "Close");
  close.type = "button";
  close.addEventListener("click", () => panel?.close());
  head.append(h, close);
  const body = el("div", "dw-body");
  panel.append(head, body);
  if (!panel.open) panel.showModal();
  holdReloads(true);
  plan(body, false);
}

async function post(query: string): Promise<{ status: number; data: any }> {
  const res = await fetch("/api/dream?" + query, {
    method: "POST",
    headers: { "X-Dreamwiki-Token": token },
  });
  let data: any = null;
  try { data = await res.json(); } catch { /* an empty answer */ }
  return { status: res.status, data };
}

async function plan(body: HTMLElement, force: boolean): Promise<void> {
  body.replaceChildren(el("p", "dw-muted", "Planning a dream (nothing is written yet)…"));
  let ans: { status: number; data: any };
  try {
    ans = await post("dry_run=1" + (force ? "&force=1" : ""));
  } catch (e) {
    body.replaceChildren(el("p", "dw-error", "The server did not answer: " + String(e)));
    return;
  }
  if (ans.status !== 200) {
    body.replaceChildren(el("p", "dw-error", (ans.data && ans.data.error) || "The plan failed (" + ans.status + ")."));
    return;
  }
  showPlan(body, ans.data as PlanAnswer, force);
}

// The plan's actions in the groups a reader asks about, in this order;
// kinds not named here are listed under "Other".
const groups: { title: string; kinds: string[] }[] = [
  { title: "Promoted", kinds: ["promote", "index", "new-topic"] },
  { title: "Merged", kinds: ["merge"] },
  { title: "Superseded", kinds: ["supersede", "close"] },
  { title: "Archived", kinds: ["archive", "sink"] },
];

/** grouped sorts actions into the summary's groups, empty ones left out. */
function grouped(actions: Action[]): { title: string; actions: Action[] }[] {
  const named = new Set(groups.flatMap((g) => g.kinds));
  const out = groups.map((g) => ({ title: g.title, actions: actions.filter((x) => g.kinds.includes(x.kind)) }));
  out.push({ title: "Other", actions: actions.filter((x) => !named.has(x.kind)) });
  return out.filter((g) => g.actions.length > 0);
}

/** actionList lists actions, each with the file it goes to. */
function actionList(actions: Action[]): HTMLUListElement {
  const ul = el("ul", "dw-actions");
  for (const x of actions.slice(0, 200)) {
    const li = el("li");
    li.append(el("strong", "", x.kind), document.createTextNode(` ${x.text} `), el("span", "dw-muted", `→ ${x.file}`));
    if (x.reason) li.append(el("span", "dw-muted dw-reason", x.reason));
    ul.append(li);
  }
  return ul;
}

/** coloured renders a unified diff with added, removed and hunk lines marked. */
function coloured(diff: string): HTMLPreElement {
  const pre = el("pre", "dw-diff");
  for (const line of diff.split("\n")) {
    const c = line.startsWith("+++") || line.startsWith("---") ? "dw-file-line"
      : line.startsWith("+") ? "dw-add" : line.startsWith("-") ? "dw-del" : line.startsWith("@@") ? "dw-hunk" : "";
    pre.append(c ? el("span", c, line) : document.createTextNode(line), document.createTextNode("\n"));
  }
  return pre;
}

function showPlan(body: HTMLElement, a: PlanAnswer, force: boolean): void {
  const p = a.plan;
  body.replaceChildren();
  // The summary first: what the dream would do, by kind, each expandable.
  body.append(el("p", "dw-summary", p.summary || "Nothing to do."));
  const acts = p.actions || [];
  if (acts.length) {
    const sum = el("div", "dw-groups");
    for (const g of grouped(acts)) {
      const d = el("details", "dw-group");
      d.append(el("summary", "", `${g.title}: ${g.actions.length}`), actionList(g.actions));
      sum.append(d);
    }
    body.append(sum);
  }
  // Proposals are written only when someone chooses them (#23 rule 1c).
  const props = p.proposals || [];
  const boxes: HTMLInputElement[] = [];
  if (props.length) {
    const fs = el("fieldset", "dw-proposals");
    fs.append(el("legend", "", `Proposals: ${props.length}. Tick the ones to write into memory; the rest stay in DREAMS.md.`));
    const ul = el("ul");
    for (const x of props.slice(0, 200)) {
      const li = el("li");
      const label = el("label");
      const box = el("input");
      box.type = "checkbox";
      box.value = x.id;
      boxes.push(box);
      label.append(box, document.createTextNode(" " + x.text));
      li.append(label, el("span", "dw-muted dw-reason", [x.cues.join(", "), x.source[0], "score " + x.score.toFixed(2)].filter(Boolean).join(" · ")));
      ul.append(li);
    }
    fs.append(ul);
    body.append(fs);
  }
  const gates = el("ul", "dw-gates");
  for (const g of p.gates || []) {
    gates.append(el("li", g.passed ? "dw-pass" : g.forced ? "dw-forced" : "dw-fail",
      `${g.passed ? "✓" : g.forced ? "↷" : "✗"} ${g.name}: ${g.detail}`));
  }
  body.append(el("h3", "", "Gates"), gates);
  if (p.files && p.files.length) {
    body.append(el("h3", "", `Files (${p.files.length})`));
    for (const f of p.files) {
      const d = el("details", "dw-file");
      d.append(el("summary", "", `${f.change} ${f.path}`), coloured(f.diff));
      body.append(d);
    }
  }
  // The buttons stay in view at the foot of the panel however long the plan.
  const actions = el("p", "dw-buttons");
  if (p.ready && p.files && p.files.length) {
    const apply = el("button", "dw-apply", "Apply");
    apply.type = "button";
    apply.addEventListener("click", () => run(body, a.id, force, acts, boxes.filter((b) => b.checked).map((b) => b.value)));
    actions.append(apply);
  } else if (!p.ready) {
    const again = el("button", "dw-force", "Plan anyway (skip the gates)");
    again.type = "button";
    again.addEventListener("click", () => plan(body, true));
    actions.append(again);
  }
  const cancel = el("button", "dw-cancel", "Cancel");
  cancel.type = "button";
  cancel.addEventListener("click", () => panel?.close());
  actions.append(cancel);
  body.append(actions);
}

async function run(body: HTMLElement, id: string, force: boolean, planned: Action[], chosen: string[]): Promise<void> {
  if (busy) return;
  busy = true;
  body.replaceChildren(el("p", "dw-muted", "Dreaming…"));
  log = el("ol", "dw-log");
  body.append(log);
  try {
    // Chosen proposals plan the dream again with them; else the plan shown is applied.
    const which = chosen.length ? "choose=" + encodeURIComponent(chosen.join(",")) : "plan=" + encodeURIComponent(id);
    const ans = await post(which + (force ? "&force=1" : ""));
    if (ans.status !== 200) {
      body.append(el("p", "dw-error", (ans.data && ans.data.error) || "The dream failed (" + ans.status + ")."));
      return;
    }
    const d = ans.data as Dreamed;
    await done(body, d, d.actions || planned);
  } catch (e) {
    body.append(el("p", "dw-error", "The server did not answer: " + String(e)));
  } finally {
    busy = false;
  }
}

/** pageOf maps workspace paths to their pages, from the site's pages.json. */
async function pageOf(): Promise<Map<string, string>> {
  const m = new Map<string, string>();
  try {
    const res = await fetch(root() + "api/pages.json");
    const data = await res.json();
    for (const p of data.pages || []) if (p.source) m.set(p.source, p.url);
  } catch { /* the changes are listed without links */ }
  return m;
}

async function done(body: HTMLElement, d: Dreamed, planned: Action[]): Promise<void> {
  body.append(el("h3", "", d.applied ? "Done" : "Nothing written"), el("p", "dw-summary", d.summary));
  if (d.applied && planned.length) {
    // What changed, fact by fact, each linked to the page it now lives on.
    const pages = await pageOf();
    const changed = el("div", "dw-changed");
    for (const g of grouped(planned)) {
      changed.append(el("h4", "", `${g.title} (${g.actions.length})`));
      const ul = el("ul");
      for (const x of g.actions.slice(0, 200)) {
        const li = el("li");
        li.append(document.createTextNode(x.text + " "));
        const url = pages.get(x.file);
        if (url) {
          const a = el("a", "", x.file);
          a.href = root() + url;
          li.append(a);
        } else {
          li.append(el("span", "dw-muted", x.file));
        }
        ul.append(li);
      }
      changed.append(ul);
    }
    body.append(changed);
  }
  const links = el("ul", "dw-links");
  for (const n of d.notes || []) {
    const a = el("a", "dw-note", n.title);
    a.href = root() + n.url;
    const li = el("li");
    li.append(a);
    links.append(li);
  }
  const j = el("a", "dw-journal", "Open the dream journal");
  j.href = root() + d.journal;
  const li = el("li");
  li.append(j);
  links.append(li);
  body.append(links);
}

// onDreamMessage shows a dream's progress in the open panel, whichever
// page started it.
export function onDreamMessage(m: Message): void {
  if (!log || !panel || !panel.open) return;
  if (m.type === "dream" && m.text) {
    log.append(el("li", "dw-stage-" + (m.stage || ""), m.text));
  }
}
