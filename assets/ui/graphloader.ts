// The graph is not part of this bundle: its code (graph.ts) and its data
// (assets/graph-data.js, written at build time) load only when a reader
// opens a graph, so content pages stay light.

import { loadScript, siteRoot } from "./load";

interface GraphAPI {
  mount(el: HTMLElement, opts: { mode: string; page: string; root: string }): void;
}

declare global {
  interface Window { dreamwikiGraph?: GraphAPI }
}

async function open(box: HTMLElement): Promise<void> {
  const root = siteRoot();
  const body = document.body.dataset;
  if (!body.graphJs || !body.graphData) return;
  box.setAttribute("aria-busy", "true");
  try {
    await Promise.all([loadScript(root + body.graphJs), loadScript(root + body.graphData)]);
    window.dreamwikiGraph?.mount(box, { mode: box.dataset.graph || "local", page: body.page || "", root });
  } catch {
    box.textContent = "The graph could not be loaded.";
  } finally {
    box.removeAttribute("aria-busy");
  }
}

export function initGraphLoader(): void {
  for (const box of document.querySelectorAll<HTMLElement>("[data-graph]")) {
    const section = box.closest<HTMLElement>("[data-graph-section]");
    if (section) section.hidden = false;
    if (box.dataset.graph === "global") {
      void open(box);
      continue;
    }
    const button = box.querySelector("button");
    button?.addEventListener("click", () => void open(box), { once: true });
  }
}
