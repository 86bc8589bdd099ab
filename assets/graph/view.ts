// Drawing and interaction: the canvas is redrawn only when something
// changed (layout moved, view panned, hover), links and each colour group
// in a few paths, labels only where they fit, nodes too small to see as
// circles as squares. A big picture is drawn in slices of a few
// milliseconds, one per frame, so the page never waits for it. Drag pans,
// the wheel zooms, a click on a node opens its page.

import { Graph } from "./data";
import { Layout } from "./layout";

/** A group's colour is the CSS custom property --g-GROUP (graph.css). */
const groupVar = (group: string): string => "--g-" + group;

/** Label size in CSS pixels, and the zoom past which every node may get one. */
const labelPx = 12;
const labelAllZoom = 1.2;

/** Frame budget for layout ticks, so panning stays smooth while it runs. */
const tickBudgetMs = 8;

/** Time a slice of drawing may take before it lets the page go on (a
 * phone is several times slower than the machine this was tuned on). */
const drawBudgetMs = 6;

/** Links or nodes drawn between looks at the clock. */
const drawBatch = 1024;

export class View {
  private ctx: CanvasRenderingContext2D;
  private graph!: Graph;
  private sim!: Layout;
  private k = 1;
  private tx = 0;
  private ty = 0;
  private width = 0;
  private height = 0;
  private dpr = 1;
  private dirty = true;
  private frame = 0;
  private hover = -1;
  private colours: string[] = [];
  private edge = "#999";
  private text = "#333";
  private bg = "#fff";
  private fitted = false;
  private interacting = false;
  /** Set once the reader pans or zooms: the view stops refitting itself. */
  private userMoved = false;
  private neighbours: Set<number> = new Set();
  private adjacencyOf: number[][] | null = null;
  private byGroup: number[][] = [];
  /** Frames drawn, for tests that measure the frame rate. */
  frames = 0;
  private labelOrder: number[] = [];
  private hubs: Set<number> = new Set();
  private widths: Map<number, number> = new Map();
  /** The nodes labelled in the last frame, for tests. */
  labelled: number[] = [];

  constructor(private canvas: HTMLCanvasElement, private root: string, private global: boolean) {
    this.ctx = canvas.getContext("2d", { alpha: false })!;
    this.readTheme();
    this.resize();
    new ResizeObserver(() => { this.resize(); this.invalidate(); }).observe(canvas);
    document.addEventListener("dreamwiki:theme", () => { this.readTheme(); this.invalidate(); });
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => { this.readTheme(); this.invalidate(); });
    this.bindPointer();
  }

  setGraph(g: Graph, sim: Layout): void {
    this.graph = g;
    this.sim = sim;
    this.hover = -1;
    this.fitted = false;
    this.version++;
    this.byGroup = g.groups.map(() => []);
    g.nodes.forEach((node, i) => this.byGroup[node.group]?.push(i));
    this.adjacencyOf = null;
    // Labels are placed most-linked first; hubs are labelled at any zoom.
    this.labelOrder = g.nodes.map((_, i) => i).sort((a, b) => g.degree[b] - g.degree[a] || a - b);
    const hubCount = Math.min(12, Math.max(3, Math.round(Math.sqrt(g.nodes.length) / 2)));
    this.hubs = new Set(this.labelOrder.slice(0, hubCount).filter((i) => g.degree[i] >= 3));
    this.widths = new Map();
    this.readTheme();
    // Settle small graphs before the first frame; big ones settle live.
    const warm = g.nodes.length <= 300 ? 120 : 0;
    for (let i = 0; i < warm; i++) sim.tick();
    this.fit();
  }

  /** adjacency lists each node's neighbours, made when first needed
   * (on hover), not while the page loads. */
  private get adjacency(): number[][] {
    if (!this.adjacencyOf) {
      const g = this.graph;
      const adj: number[][] = Array.from({ length: g.nodes.length }, () => []);
      for (let i = 0; i + 1 < g.links.length; i += 2) {
        adj[g.links[i]].push(g.links[i + 1]);
        adj[g.links[i + 1]].push(g.links[i]);
      }
      this.adjacencyOf = adj;
    }
    return this.adjacencyOf;
  }

  /** fit scales and centres the view on the whole graph. */
  fit(): void {
    const { x, y, n } = this.sim;
    if (!n) { this.invalidate(); return; }
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      minX = Math.min(minX, x[i]); maxX = Math.max(maxX, x[i]);
      minY = Math.min(minY, y[i]); maxY = Math.max(maxY, y[i]);
    }
    const w = Math.max(maxX - minX, 40), h = Math.max(maxY - minY, 40);
    this.k = Math.min(4, 0.9 * Math.min(this.width / w, this.height / h));
    this.tx = this.width / 2 - ((minX + maxX) / 2) * this.k;
    this.ty = this.height / 2 - ((minY + maxY) / 2) * this.k;
    this.fitted = true;
    this.invalidate();
  }

  private readTheme(): void {
    const css = getComputedStyle(this.canvas);
    const v = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
    this.bg = v("--bg-soft", "#f4f4f1");
    this.edge = v("--border-strong", "#bbb");
    this.text = v("--fg", "#222");
    if (this.graph) this.colours = this.graph.groups.map((g) => v(groupVar(g), v("--fg-soft", "#888")));
    this.version++;
  }

  private resize(): void {
    const r = this.canvas.getBoundingClientRect();
    this.dpr = Math.min(2, window.devicePixelRatio || 1);
    this.width = Math.max(1, r.width);
    this.height = Math.max(1, r.height);
    this.canvas.width = Math.round(this.width * this.dpr);
    this.canvas.height = Math.round(this.height * this.dpr);
  }

  private invalidate(): void {
    this.dirty = true;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.loop());
  }

  private loop(): void {
    this.frame = 0;
    const sim = this.sim;
    // A resize or theme change can ask for a frame before the graph is
    // set (mounting is split into tasks); setGraph asks again.
    if (!sim) return;
    if (sim.running && !this.interacting) {
      const start = performance.now();
      do sim.tick(); while (sim.running && performance.now() - start < tickBudgetMs);
      this.version++;
      if (!this.fitted || (!this.userMoved && sim.alpha > 0.3)) this.fit();
      this.dirty = true;
    }
    if (this.dirty) {
      this.dirty = false;
      this.draw();
    } else if (this.slices) {
      this.continueSlices();
    }
    if (sim.running || this.slices) this.frame = requestAnimationFrame(() => this.loop());
  }

  private radius(i: number): number {
    return 3 + Math.min(9, Math.sqrt(this.graph.degree[i]));
  }

  /** A drawing under way, one slice per frame, and what it labels at the end. */
  private slices: { steps: Generator<void>; visible: (i: number) => boolean } | null = null;

  private draw(): void {
    this.frames++;
    this.slices = null;
    const { ctx, k, dpr } = this;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = this.bg;
    ctx.fillRect(0, 0, this.width, this.height);
    // Visible world rectangle, with a margin for radii.
    const x0 = -this.tx / k - 20, y0 = -this.ty / k - 20;
    const x1 = (this.width - this.tx) / k + 20, y1 = (this.height - this.ty) / k + 20;
    const { x, y } = this.sim;
    const visible = (i: number): boolean => x[i] >= x0 && x[i] <= x1 && y[i] >= y0 && y[i] <= y1;
    // A drag pans a picture of the whole graph (built when the drag
    // starts); otherwise only what is in view is drawn, which is cheaper
    // than a picture of everything the first time, when the page loads.
    const still = !this.sim.running || this.interacting;
    if (this.hover < 0 && still && (this.interacting || this.cacheFits()) && this.blit()) {
      // Drawn from the cached picture.
    } else {
      ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * this.tx, dpr * this.ty);
      const steps = this.drawScene(ctx, visible);
      // While the layout moves, every frame redraws anyway: draw it whole.
      if (this.sim.running) {
        for (const _ of steps);
      } else {
        this.slices = { steps, visible };
        this.continueSlices();
        return;
      }
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.drawLabels(visible);
  }

  /** continueSlices draws for drawBudgetMs, then labels the picture once it is whole. */
  private continueSlices(): void {
    const job = this.slices;
    if (!job) return;
    const { ctx, k, dpr } = this;
    ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * this.tx, dpr * this.ty);
    const end = performance.now() + drawBudgetMs;
    while (!job.steps.next().done) {
      if (performance.now() > end) return; // loop() asks for the next frame
    }
    this.slices = null;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.drawLabels(job.visible);
  }

  /** The whole graph drawn once at the current zoom; panning then only
   * copies it (a blit costs the same for 50 nodes or 50,000). */
  private cache: { canvas: HTMLCanvasElement; version: number; k: number; dpr: number; minX: number; minY: number } | null = null;
  /** Bumped whenever node positions or colours change. */
  private version = 0;

  private cacheFits(): boolean {
    const c = this.cache;
    return !!c && c.version === this.version && c.k === this.k && c.dpr === this.dpr;
  }

  private blit(): boolean {
    const { k, dpr } = this;
    let c = this.cache;
    if (!c || c.version !== this.version || c.k !== k || c.dpr !== dpr) {
      const { x, y, n } = this.sim;
      let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
      for (let i = 0; i < n; i++) {
        if (x[i] < minX) minX = x[i];
        if (x[i] > maxX) maxX = x[i];
        if (y[i] < minY) minY = y[i];
        if (y[i] > maxY) maxY = y[i];
      }
      const pad = 16;
      minX -= pad; minY -= pad; maxX += pad; maxY += pad;
      const w = Math.ceil((maxX - minX) * k * dpr), h = Math.ceil((maxY - minY) * k * dpr);
      // Zoomed far in, the picture would be huge; draw directly instead
      // (few nodes are visible then anyway).
      if (!(w > 0 && h > 0) || w > 4096 || h > 4096 || w * h > 6e6) return false;
      const canvas = c?.canvas || document.createElement("canvas");
      canvas.width = w;
      canvas.height = h;
      const cx = canvas.getContext("2d")!;
      cx.setTransform(dpr * k, 0, 0, dpr * k, -minX * k * dpr, -minY * k * dpr);
      for (const _ of this.drawScene(cx, () => true));
      c = this.cache = { canvas, version: this.version, k, dpr, minX, minY };
    }
    const { ctx } = this;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(c.canvas, Math.round(dpr * (this.tx + c.minX * k)), Math.round(dpr * (this.ty + c.minY * k)));
    return true;
  }

  /** drawScene draws links and nodes in world coordinates (the caller sets
   * the transform), skipping what visible rejects, in batches: it yields
   * after each, with its paths drawn, so a caller can stop there and go
   * on in the next frame. */
  private *drawScene(ctx: CanvasRenderingContext2D, visible: (i: number) => boolean): Generator<void> {
    const { graph, sim, k } = this;
    const { x, y } = sim;
    const links = graph.links;
    const lineWidth = 1 / k;
    const linkAlpha = this.hover >= 0 ? 0.25 : 0.6;
    for (let start = 0; start < links.length; start += 2 * drawBatch) {
      ctx.lineWidth = lineWidth;
      ctx.strokeStyle = this.edge;
      ctx.globalAlpha = linkAlpha;
      ctx.beginPath();
      const end = Math.min(links.length, start + 2 * drawBatch);
      for (let i = start; i + 1 < end; i += 2) {
        const a = links[i], b = links[i + 1];
        if (!visible(a) && !visible(b)) continue;
        ctx.moveTo(x[a], y[a]);
        ctx.lineTo(x[b], y[b]);
      }
      ctx.stroke();
      yield;
    }
    if (this.hover >= 0) {
      ctx.globalAlpha = 1;
      ctx.strokeStyle = this.colours[graph.nodes[this.hover].group] || this.text;
      ctx.lineWidth = 1.5 / k;
      ctx.beginPath();
      for (const j of this.adjacency[this.hover]) {
        ctx.moveTo(x[this.hover], y[this.hover]);
        ctx.lineTo(x[j], y[j]);
      }
      ctx.stroke();
    }
    ctx.globalAlpha = 1;

    // One path per colour group (and batch); with a hovered node, the
    // others fade. A node under about a device pixel across is a square:
    // it looks the same and costs a fraction of a circle.
    const dim = this.hover >= 0;
    const tiny = 1.5 / (k * this.dpr);
    for (const faded of dim ? [false, true] : [false]) {
      for (let g = 0; g < graph.groups.length; g++) {
        const members = this.byGroup[g];
        for (let start = 0; start < members.length; start += drawBatch) {
          ctx.globalAlpha = faded ? 0.25 : 1;
          ctx.fillStyle = this.colours[g] || "#888";
          ctx.beginPath();
          let any = false;
          const end = Math.min(members.length, start + drawBatch);
          for (let m = start; m < end; m++) {
            const i = members[m];
            if (!visible(i)) continue;
            if (dim && (i === this.hover || this.neighbours.has(i)) === faded) continue;
            const r = this.radius(i);
            if (r <= tiny) {
              ctx.rect(x[i] - r, y[i] - r, 2 * r, 2 * r);
            } else {
              ctx.moveTo(x[i] + r, y[i]);
              ctx.arc(x[i], y[i], r, 0, 2 * Math.PI);
            }
            any = true;
          }
          if (any) ctx.fill();
          yield;
        }
      }
    }
    ctx.globalAlpha = 1;
    if (graph.center >= 0) {
      const c = graph.center;
      ctx.strokeStyle = this.text;
      ctx.lineWidth = 2 / k;
      ctx.beginPath();
      ctx.arc(x[c], y[c], this.radius(c) + 3 / k, 0, 2 * Math.PI);
      ctx.stroke();
    }
  }

  /**
   * drawLabels names nodes in screen space, never two labels on top of
   * each other: the hovered node and its neighbours first, then the
   * centre of a local graph and the hubs (at any zoom), then, once zoomed
   * in (or for small graphs), every visible node, most-linked first.
   */
  private drawLabels(visible: (i: number) => boolean): void {
    const { ctx, graph, k } = this;
    const { x, y } = this.sim;
    const n = graph.nodes.length;
    ctx.font = `${labelPx}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.lineJoin = "round";
    ctx.lineWidth = 3;
    ctx.strokeStyle = this.bg;
    ctx.fillStyle = this.text;
    const placed: number[] = []; // x0, y0, x1, y1 of each label drawn
    const done = new Set<number>();
    this.labelled = [];
    let budget = 300;
    const title = (i: number): string => {
      const t = graph.nodes[i].title;
      return t.length > 32 ? t.slice(0, 31) + "…" : t;
    };
    const label = (i: number, force: boolean): void => {
      if (done.has(i) || budget <= 0 || !visible(i)) return;
      const t = title(i);
      let w = this.widths.get(i);
      if (w === undefined) {
        w = ctx.measureText(t).width;
        this.widths.set(i, w);
      }
      const sx = x[i] * k + this.tx;
      const sy = y[i] * k + this.ty + this.radius(i) * k + 2;
      const r = [sx - w / 2 - 2, sy - 1, sx + w / 2 + 2, sy + labelPx + 2];
      if (!force) {
        for (let p = 0; p < placed.length; p += 4) {
          if (r[0] < placed[p + 2] && r[2] > placed[p] && r[1] < placed[p + 3] && r[3] > placed[p + 1]) return;
        }
      }
      placed.push(r[0], r[1], r[2], r[3]);
      done.add(i);
      budget--;
      this.labelled.push(i);
      ctx.strokeText(t, sx, sy);
      ctx.fillText(t, sx, sy);
    };
    if (this.hover >= 0) {
      label(this.hover, true);
      for (const j of this.neighbours) label(j, false);
      return;
    }
    if (graph.center >= 0) label(graph.center, true);
    for (const i of this.labelOrder) if (this.hubs.has(i)) label(i, false);
    if (n <= 40 || k >= labelAllZoom) for (const i of this.labelOrder) label(i, false);
  }

  /** focus centres the view on node i, zoomed in enough to name its neighbours, and highlights it. */
  focus(i: number): void {
    if (i < 0 || i >= this.sim.n) return;
    this.userMoved = true;
    this.k = Math.max(this.k, 2 * labelAllZoom);
    this.tx = this.width / 2 - this.sim.x[i] * this.k;
    this.ty = this.height / 2 - this.sim.y[i] * this.k;
    this.setHover(-1);
    this.setHover(i);
  }

  /** zoomBy zooms about the centre of the view. */
  zoomBy(f: number): void {
    const k = Math.min(12, Math.max(0.02, this.k * f));
    this.tx = this.width / 2 - ((this.width / 2 - this.tx) * k) / this.k;
    this.ty = this.height / 2 - ((this.height / 2 - this.ty) * k) / this.k;
    this.k = k;
    this.userMoved = true;
    this.invalidate();
  }

  /** nodeCount and nodeScreen let tests and tools find nodes on screen. */
  nodeCount(): number { return this.graph.nodes.length; }

  /** graphTitle is node i's title (labelled holds node numbers). */
  graphTitle(i: number): string { return this.graph.nodes[i].title; }

  /** nodeScreen is where node i is drawn, in CSS pixels of the canvas. */
  nodeScreen(i: number): [number, number] {
    return [this.sim.x[i] * this.k + this.tx, this.sim.y[i] * this.k + this.ty];
  }

  /** settled reports whether the layout has stopped moving. */
  settled(): boolean { return !this.sim.running && !this.slices && !this.dirty; }

  private nodeAt(px: number, py: number): number {
    if (!this.sim) return -1; // the pointer moved before the graph was set
    const { x, y, n } = this.sim;
    const wx = (px - this.tx) / this.k, wy = (py - this.ty) / this.k;
    let best = -1;
    let bestD = Infinity;
    for (let i = 0; i < n; i++) {
      const dx = x[i] - wx, dy = y[i] - wy;
      const d = dx * dx + dy * dy;
      const r = this.radius(i) + 4 / this.k;
      if (d <= r * r && d < bestD) { best = i; bestD = d; }
    }
    return best;
  }

  private setHover(i: number): void {
    if (i === this.hover) return;
    this.hover = i;
    this.neighbours = new Set(i >= 0 ? this.adjacency[i] : []);
    this.canvas.style.cursor = i >= 0 ? "pointer" : "";
    this.canvas.title = i >= 0 ? this.graph.nodes[i].title : "";
    this.invalidate();
  }

  private open(i: number): void {
    location.href = this.root + this.graph.nodes[i].url;
  }

  private bindPointer(): void {
    const c = this.canvas;
    let down: { x: number; y: number; tx: number; ty: number; moved: boolean; id: number } | null = null;
    const pos = (e: PointerEvent | WheelEvent): [number, number] => {
      const r = c.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    };
    c.addEventListener("pointerdown", (e) => {
      const [px, py] = pos(e);
      down = { x: px, y: py, tx: this.tx, ty: this.ty, moved: false, id: e.pointerId };
      this.userMoved = true;
      this.interacting = true;
      c.setPointerCapture(e.pointerId);
      c.classList.add("dragging");
    });
    c.addEventListener("pointermove", (e) => {
      const [px, py] = pos(e);
      if (down && down.id === e.pointerId) {
        if (Math.abs(px - down.x) + Math.abs(py - down.y) > 4) down.moved = true;
        this.tx = down.tx + px - down.x;
        this.ty = down.ty + py - down.y;
        this.invalidate();
        return;
      }
      this.setHover(this.nodeAt(px, py));
    });
    const up = (e: PointerEvent): void => {
      if (!down || down.id !== e.pointerId) return;
      const wasClick = !down.moved;
      down = null;
      this.interacting = false;
      c.classList.remove("dragging");
      if (wasClick) {
        const [px, py] = pos(e);
        const i = this.nodeAt(px, py);
        if (i >= 0) this.open(i);
      }
      this.invalidate();
    };
    c.addEventListener("pointerup", up);
    c.addEventListener("pointercancel", up);
    c.addEventListener("pointerleave", () => { if (!down) this.setHover(-1); });
    c.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.userMoved = true;
      const [px, py] = pos(e);
      const f = Math.exp(-e.deltaY * 0.0015);
      const k = Math.min(12, Math.max(0.02, this.k * f));
      this.tx = px - ((px - this.tx) * k) / this.k;
      this.ty = py - ((py - this.ty) * k) / this.k;
      this.k = k;
      this.invalidate();
    }, { passive: false });
    c.addEventListener("keydown", (e) => {
      const step = 40;
      const moves: Record<string, [number, number]> = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
      if (moves[e.key]) { this.tx += moves[e.key][0]; this.ty += moves[e.key][1]; }
      else if (e.key === "+" || e.key === "=") this.k = Math.min(12, this.k * 1.2);
      else if (e.key === "-") this.k = Math.max(0.02, this.k / 1.2);
      else if (e.key === "Enter" && this.graph.center >= 0) this.open(this.graph.center);
      else return;
      e.preventDefault();
      this.userMoved = true;
      this.invalidate();
    });
  }
}
