// The explorer's whole tree. Each page's HTML holds only the branch that
// leads to it (closed folders are links to their pages, long lists end in
// an "All N notes…" link), which works without JavaScript. Here closed
// folders gain a button that opens them in place, and opening one, or a
// "more" link, fills it
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
  const rest = decodeURIComponent(href.slice(root.length));
  // The top level's "more" link goes to the page of every top-level folder.
  if (rest === "folders.html") return "";
  return rest.replace(/\/?index\.html$/, "");
}

function folderURL(path: string): string {
  return siteRoot() + (path ? path + "/index.html" : "index.html");
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * A closed folder: a button that opens it in place (filled from the tree
 * the first time), beside the link to its page.
 */
function folderItem(node: TreeNode): HTMLLIElement {
  const li = el("li");
  const a = el("a", node.t);
  a.className = "folder";
  a.href = folderURL(node.p);
  const count = el("span", String(node.c));
  count.className = "count";
  a.appendChild(count);
  li.appendChild(a);
  disclose(li, a, node.p);
  return li;
}

/** Put an open/close button before a folder's link in li. */
function disclose(li: HTMLLIElement, a: HTMLAnchorElement, path: string): void {
  li.dataset.folder = path;
  li.classList.add("twisty");
  const button = el("button");
  button.type = "button";
  button.className = "twist";
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-label", `Show what ${a.firstChild?.textContent || "this folder"} holds`);
  const ul = el("ul");
  ul.hidden = true;
  li.insertBefore(button, a);
  li.appendChild(ul);
  button.addEventListener("click", () => {
    const open = ul.hidden;
    ul.hidden = !open;
    button.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) fill(ul, path);
  });
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
function fill(ul: HTMLUListElement, path: string): void {
  if (ul.dataset.filled) return;
  ul.dataset.filled = "true";
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
    for (const item of ul.querySelectorAll<HTMLElement>(":scope > li > details, :scope > li[data-folder]")) {
      listed.add("f:" + item.dataset.folder);
    }
    for (const item of ul.querySelectorAll<HTMLAnchorElement>(":scope > li:not([data-folder]) > a[href]")) {
      listed.add("n:" + item.href);
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
    const first = items[0]?.querySelector<HTMLElement>("a");
    first?.focus();
  }).catch(() => {
    location.href = a.href;
  });
}

export function initExplorer(): void {
  const explorer = document.querySelector<HTMLElement>(".explorer");
  if (!explorer || !document.body.dataset.tree) return;
  // Closed folders keep their links and gain a button that opens them.
  for (const a of explorer.querySelectorAll<HTMLAnchorElement>("a.folder")) {
    const li = a.parentElement;
    if (li instanceof HTMLLIElement) disclose(li, a, linkFolder(a));
  }
  explorer.addEventListener("click", (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element).closest<HTMLAnchorElement>("a.more[data-more]");
    if (!a) return;
    e.preventDefault();
    expandMore(a);
  });
}
