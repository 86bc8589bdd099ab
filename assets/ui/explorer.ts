// The explorer's whole tree. Each page's HTML holds only the branch that
// leads to it (closed folders are links to their pages, long lists end in
// an "All N notes…" link), which works without JavaScript. Here closed
// folders become disclosures, and opening one, or a "more" link, fills it
// from the tree script the build writes once (data-tree on <body>; a
// script, not JSON, so that it loads from file:// too).

import { loadScript, siteRoot } from "./load";

interface TreeNode {
  t: string; // title
  p: string; // folder path from the site root
  c: number; // notes in the folder and below
  f?: TreeNode[]; // sub-folders
  n?: [string, string][]; // notes: title, file name in the folder
}

declare global {
  interface Window { dreamwikiTree?: TreeNode }
}

let folders: Promise<Map<string, TreeNode>> | null = null;

function tree(): Promise<Map<string, TreeNode>> {
  if (!folders) {
    const src = document.body.dataset.tree || "";
    folders = loadScript(siteRoot() + src).then(() => {
      const byPath = new Map<string, TreeNode>();
      const walk = (n: TreeNode): void => {
        byPath.set(n.p, n);
        for (const f of n.f || []) walk(f);
      };
      if (window.dreamwikiTree) walk(window.dreamwikiTree);
      return byPath;
    });
  }
  return folders;
}

/**
 * The folder a folder's link or "more" link points at: its path from the
 * site root ("" for the root), read from the link's URL (the HTML leaves
 * it out to stay small).
 */
function linkFolder(a: HTMLAnchorElement): string {
  const root = new URL(siteRoot() || "./", document.baseURI).href;
  const href = a.href.split("#")[0];
  if (!href.startsWith(root)) return "";
  return decodeURIComponent(href.slice(root.length)).replace(/\/?index\.html$/, "");
}

function folderURL(path: string): string {
  return siteRoot() + (path ? path + "/index.html" : "index.html");
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A closed folder whose children are filled when it is first opened. */
function folderItem(node: TreeNode): HTMLLIElement {
  const li = el("li");
  const details = el("details");
  details.dataset.folder = node.p;
  const summary = el("summary", node.t);
  const count = el("span", String(node.c));
  count.className = "count";
  summary.appendChild(count);
  details.append(summary, el("ul"));
  lazy(details);
  li.appendChild(details);
  return li;
}

function noteItem(folder: string, [title, file]: [string, string]): HTMLLIElement {
  const li = el("li");
  const a = el("a", title);
  a.href = siteRoot() + (folder ? folder + "/" : "") + file;
  if (a.href === location.href.split("#")[0]) a.setAttribute("aria-current", "page");
  li.appendChild(a);
  return li;
}

/** Fill a folder's list the first time it opens. */
function lazy(details: HTMLDetailsElement): void {
  details.addEventListener("toggle", () => {
    if (!details.open || details.dataset.filled) return;
    details.dataset.filled = "true";
    const ul = details.querySelector("ul");
    if (!ul) return;
    const path = details.dataset.folder || "";
    tree().then((byPath) => {
      const node = byPath.get(path);
      if (!node) throw new Error(`${path}: not in the tree`);
      for (const f of node.f || []) ul.appendChild(folderItem(f));
      for (const n of node.n || []) ul.appendChild(noteItem(node.p, n));
    }).catch(() => {
      const li = el("li");
      const a = el("a", "Open the folder page");
      a.href = folderURL(path);
      li.appendChild(a);
      ul.appendChild(li);
    });
  });
}

/** Replace a "more" link with the folders or notes it stands for. */
function expandMore(a: HTMLAnchorElement): void {
  const li = a.closest("li");
  const ul = li?.parentElement;
  if (!li || !ul) return;
  const path = linkFolder(a);
  tree().then((byPath) => {
    const node = byPath.get(path);
    if (!node) throw new Error(`${path}: not in the tree`);
    const listed = new Set<string>();
    for (const item of ul.querySelectorAll<HTMLElement>(":scope > li > a[href], :scope > li > details")) {
      listed.add(item.dataset.folder !== undefined ? "f:" + item.dataset.folder : "n:" + (item as HTMLAnchorElement).href);
    }
    const items: HTMLLIElement[] = [];
    if (a.dataset.more === "folders") {
      for (const f of node.f || []) if (!listed.has("f:" + f.p)) items.push(folderItem(f));
    } else {
      for (const n of node.n || []) {
        const item = noteItem(node.p, n);
        if (!listed.has("n:" + item.querySelector("a")!.href)) items.push(item);
      }
    }
    li.replaceWith(...items);
    const first = items[0]?.querySelector<HTMLElement>("summary, a");
    first?.focus();
  }).catch(() => {
    location.href = a.href;
  });
}

export function initExplorer(): void {
  const explorer = document.querySelector<HTMLElement>(".explorer");
  if (!explorer || !document.body.dataset.tree) return;
  // Closed folders: links to their pages become disclosures.
  for (const a of explorer.querySelectorAll<HTMLAnchorElement>("a.folder")) {
    const details = el("details");
    details.dataset.folder = linkFolder(a);
    const summary = el("summary");
    summary.append(...a.childNodes);
    details.append(summary, el("ul"));
    lazy(details);
    a.replaceWith(details);
  }
  explorer.addEventListener("click", (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element).closest<HTMLAnchorElement>("a.more[data-more]");
    if (!a) return;
    e.preventDefault();
    expandMore(a);
  });
}
