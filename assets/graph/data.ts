// The graph's data: what the build writes (compact arrays) and the
// subgraph a view shows.

/** GraphData is assets/graph-data.js: groups by name, nodes as
 * [title, root-relative URL, group index], links as flat index pairs,
 * and the build's layout of the whole graph as flat x, y pairs. */
export interface GraphData {
  groups: string[];
  nodes: [string, string, number][];
  links: number[];
  xy?: number[];
}

/** Graph is what a view draws: nodes renumbered from 0, links as flat
 * index pairs into nodes, degree per node, the page's own node, and the
 * build's positions when the graph is the whole one (else null). */
export interface Graph {
  groups: string[];
  nodes: { title: string; url: string; group: number }[];
  links: Int32Array;
  degree: Int32Array;
  center: number;
  xy: Float64Array | null;
}

/** subgraph returns every node when page is "", else the nodes within
 * depth links of page (in either direction). */
export function subgraph(d: GraphData, page: string, depth: number): Graph {
  const n = d.nodes.length;
  let keep: Int32Array; // old index -> new index + 1 (0 = dropped)
  let center = -1;
  if (!page) {
    keep = new Int32Array(n);
    for (let i = 0; i < n; i++) keep[i] = i + 1;
  } else {
    const start = d.nodes.findIndex((x) => x[1] === page);
    keep = new Int32Array(n);
    if (start >= 0) {
      const adj: number[][] = Array.from({ length: n }, () => []);
      for (let i = 0; i + 1 < d.links.length; i += 2) {
        adj[d.links[i]].push(d.links[i + 1]);
        adj[d.links[i + 1]].push(d.links[i]);
      }
      let frontier = [start];
      let count = 1;
      keep[start] = count;
      for (let level = 0; level < depth; level++) {
        const next: number[] = [];
        for (const u of frontier) {
          for (const v of adj[u]) {
            if (!keep[v]) { keep[v] = ++count; next.push(v); }
          }
        }
        frontier = next;
      }
    }
  }
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) order[keep[i] - 1] = i;
  const nodes = order.map((i) => ({ title: d.nodes[i][0], url: d.nodes[i][1], group: d.nodes[i][2] }));
  if (page) center = nodes.length ? 0 : -1;
  const links: number[] = [];
  for (let i = 0; i + 1 < d.links.length; i += 2) {
    const a = keep[d.links[i]];
    const b = keep[d.links[i + 1]];
    if (a && b) links.push(a - 1, b - 1);
  }
  const degree = new Int32Array(nodes.length);
  for (const x of links) degree[x]++;
  const xy = !page && d.xy && d.xy.length === 2 * n ? Float64Array.from(d.xy) : null;
  return { groups: d.groups, nodes, links: Int32Array.from(links), degree, center, xy };
}
