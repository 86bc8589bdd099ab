// The graph view, bundled separately and loaded on demand by
// ui/graphloader.ts: a force-directed layout drawn on a canvas, global (every
// note) or local (the notes within one or two links of a page). The global
// graph comes laid out by the build, so the browser only draws it; a local
// one is small and laid out here. It stays smooth with thousands of nodes
// by drawing each colour group as one path, drawing only what the viewport
// shows, with less detail when zoomed out, in slices that never hold the
// page for long.

import { GraphData, subgraph, Graph } from "./graph/data";
import { Fixed, Layout, Simulation } from "./graph/layout";
import { View } from "./graph/view";

declare global {
  interface Window {
    dreamwikiGraphData?: GraphData;
    dreamwikiGraph?: { mount(el: HTMLElement, opts: MountOptions): Promise<void> };
    /** Set by mount for tests and tools: the live views. */
    dreamwikiGraphViews?: View[];
  }
}

interface MountOptions { mode: string; page: string; root: string }

/** nextTask lets the page go on (input, painting) before the caller does. */
const nextTask = (): Promise<void> => new Promise((go) => setTimeout(go, 0));

async function mount(el: HTMLElement, opts: MountOptions): Promise<void> {
  const data = window.dreamwikiGraphData;
  if (!data) return;
  const global = opts.mode === "global";
  let depth = Number(el.dataset.depth || "1");
  const build = (): Graph => subgraph(data, global ? "" : opts.page, depth);
  let graph = build();
  el.replaceChildren();
  el.classList.add(global ? "global" : "local");
  const canvas = document.createElement("canvas");
  canvas.setAttribute("role", "img");
  canvas.tabIndex = 0;
  const tools = document.createElement("div");
  tools.className = "graph-tools";
  el.append(canvas, tools);

  const view = new View(canvas, opts.root, global);
  // Sizing the canvas made the browser lay the page out; index the graph
  // in a task of its own.
  await nextTask();
  const label = (): void => {
    canvas.setAttribute("aria-label", global
      ? `Graph of ${graph.nodes.length} notes and ${graph.links.length / 2} links. Click a node to open it.`
      : `Notes within ${depth} link${depth > 1 ? "s" : ""} of this page: ${graph.nodes.length}.`);
  };
  const layout = (g: Graph): Layout => (g.xy ? new Fixed(g.xy) : new Simulation(g));
  let sim = layout(graph);
  await nextTask();
  view.setGraph(graph, sim);
  label();

  if (!global) {
    const sel = document.createElement("select");
    sel.setAttribute("aria-label", "Depth");
    for (const d of [1, 2]) {
      const o = document.createElement("option");
      o.value = String(d);
      o.textContent = `Depth ${d}`;
      o.selected = d === depth;
      sel.append(o);
    }
    sel.addEventListener("change", () => {
      depth = Number(sel.value);
      graph = build();
      sim = layout(graph);
      view.setGraph(graph, sim);
      label();
    });
    tools.append(sel);
  }
  // Search to focus: a note's name takes the view to it.
  const find = document.createElement("input");
  find.type = "search";
  find.placeholder = "Find a note";
  find.setAttribute("aria-label", "Find a note in the graph");
  find.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    const q = find.value.trim().toLowerCase();
    if (!q) return;
    const titles = graph.nodes.map((nd) => nd.title.toLowerCase());
    let i = titles.findIndex((t) => t === q);
    if (i < 0) i = titles.findIndex((t) => t.startsWith(q));
    if (i < 0) i = titles.findIndex((t) => t.includes(q));
    if (i >= 0) view.focus(i);
    find.setCustomValidity(i >= 0 ? "" : "No note is called so");
    find.reportValidity();
  });
  tools.append(find);
  for (const [text, name, f] of [["+", "Zoom in", 1.5], ["−", "Zoom out", 1 / 1.5]] as const) {
    const z = document.createElement("button");
    z.type = "button";
    z.textContent = text;
    z.setAttribute("aria-label", name);
    z.addEventListener("click", () => view.zoomBy(f));
    tools.append(z);
  }
  const reset = document.createElement("button");
  reset.type = "button";
  reset.textContent = "Fit";
  reset.title = "Fit the graph to the view";
  reset.addEventListener("click", () => view.fit());
  tools.append(reset);
  (window.dreamwikiGraphViews ||= []).push(view);
}

window.dreamwikiGraph = { mount };
