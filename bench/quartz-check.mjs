// Reads what Quartz made of a vault and counts what a reader would trip
// over, for bench/quartz.sh:
//
//   node bench/quartz-check.mjs VAULT PUBLIC [--json]
//
// VAULT is the Markdown folder Quartz was given, PUBLIC its output. The
// counts:
//
//   - links: every href of every page that is not a redirect, external
//     (a scheme or "//") or a fragment of the page itself. A link is broken
//     when its path, resolved against the page's URL the way a browser
//     does, names no file of PUBLIC: "x/" needs x/index.html, "x" needs x
//     or x.html. A fragment that names no id of the page it lands on is
//     counted apart (anchors), not as broken.
//   - titles: each published note's `title:` front matter against the
//     title Quartz put on its page (h1.article-title).
//   - redirects: the pages Quartz writes for aliases (a meta refresh),
//     how many sit at the root and how many in folders, and the aliases
//     more than one note claims (Quartz keeps one of them).
//   - private: notes marked `publish: false`, `draft: true` or
//     `private: true` that have a page, or an entry in the search index
//     (static/contentIndex.json).
//
// Quartz's HTML is generated, so attributes are found with regular
// expressions rather than a parser; this script needs nothing but Node.
import fs from "node:fs"
import path from "node:path"

const [vault, pub] = process.argv.slice(2).filter((a) => !a.startsWith("--"))
const asJSON = process.argv.includes("--json")
if (!vault || !pub) {
  console.error("usage: node bench/quartz-check.mjs VAULT PUBLIC [--json]")
  process.exit(2)
}

function walk(dir, base = dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) walk(p, base, out)
    else out.push(path.relative(base, p).split(path.sep).join("/"))
  }
  return out
}

// slug is Quartz 4.5's slugifyFilePath for a note (util/path.ts).
function slug(notePath) {
  return notePath
    .replace(/\.md$/, "")
    .split("/")
    .map((s) =>
      s
        .replace(/\s/g, "-")
        .replace(/&/g, "-and-")
        .replace(/%/g, "-percent")
        .replace(/\?/g, "")
        .replace(/#/g, ""),
    )
    .join("/")
    .replace(/_index$/, "index")
}

// frontMatter reads the flat keys dreamwiki writes: one per line, strings
// plain or double-quoted, lists in flow style.
function frontMatter(text) {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text)
  const props = {}
  if (!m) return props
  for (const line of m[1].split("\n")) {
    const kv = /^([A-Za-z_][\w-]*):\s?(.*)$/.exec(line)
    if (kv) props[kv[1]] = scalar(kv[2])
  }
  return props
}

function scalar(v) {
  v = v.trim()
  if (v.startsWith('"')) {
    try {
      return JSON.parse(v)
    } catch {
      return v
    }
  }
  if (v.startsWith("[") && v.endsWith("]")) {
    const items = []
    const re = /"((?:[^"\\]|\\.)*)"|([^,\s][^,]*)/g
    let g
    const inner = v.slice(1, -1)
    while ((g = re.exec(inner))) items.push(g[1] !== undefined ? JSON.parse(`"${g[1]}"`) : g[2].trim())
    return items
  }
  return v
}

const unescape = (s) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, "&")

const files = new Set(walk(pub))
const pages = [...files].filter((f) => f.endsWith(".html"))
const html = new Map()
const read = (f) => {
  if (!html.has(f)) html.set(f, fs.readFileSync(path.join(pub, f), "utf8"))
  return html.get(f)
}
const isRedirect = (f) => /<meta http-equiv="refresh"/.test(read(f))

// target maps a link's path to the file that serves it, or "".
function target(p) {
  p = p.replace(/^\//, "")
  if (p === "" || p.endsWith("/")) return files.has(p + "index.html") ? p + "index.html" : ""
  if (files.has(p)) return p
  if (files.has(p + ".html")) return p + ".html"
  return ""
}

const ids = new Map()
function idsOf(f) {
  if (!ids.has(f)) ids.set(f, new Set([...read(f).matchAll(/\sid="([^"]*)"/g)].map((g) => unescape(g[1]))))
  return ids.get(f)
}

const result = {
  pages: 0,
  links: 0,
  broken: 0,
  brokenSamples: [],
  anchors: 0,
  anchorSamples: [],
  notes: 0,
  titled: 0,
  titleMismatches: 0,
  titleSamples: [],
  redirects: 0,
  rootRedirects: 0,
  folderRedirects: 0,
  sharedAliases: 0,
  sharedAliasSamples: [],
  private: 0,
  privatePublished: 0,
  privateSamples: [],
}

for (const f of pages) {
  if (isRedirect(f)) {
    result.redirects++
    if (f.includes("/")) result.folderRedirects++
    else result.rootRedirects++
    continue
  }
  result.pages++
  const pageSlug = f.replace(/\.html$/, "")
  const base = new URL(pageSlug, "https://quartz.invalid/")
  for (const a of read(f).matchAll(/<a\b[^>]*?\shref="([^"]*)"/g)) {
    const href = unescape(a[1])
    if (href === "" || href.startsWith("#") || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//")) continue
    result.links++
    const u = new URL(href, base)
    const file = target(decodeURIComponent(u.pathname))
    if (!file) {
      result.broken++
      if (result.brokenSamples.length < 20) result.brokenSamples.push(`${f}: ${href}`)
      continue
    }
    const frag = decodeURIComponent(u.hash.slice(1))
    if (frag && file.endsWith(".html") && !idsOf(file).has(frag)) {
      result.anchors++
      if (result.anchorSamples.length < 10) result.anchorSamples.push(`${f}: ${href}`)
    }
  }
}

const aliasOwners = new Map()
for (const f of walk(vault)) {
  if (!f.endsWith(".md") || f.split("/").some((s) => s.startsWith("."))) continue
  const props = frontMatter(fs.readFileSync(path.join(vault, f), "utf8"))
  const hidden = props.publish === "false" || props.draft === "true" || props.private === "true"
  const page = slug(f) + ".html"
  if (hidden) {
    result.private++
    if (files.has(page)) {
      result.privatePublished++
      if (result.privateSamples.length < 10) result.privateSamples.push(`${f}: page ${page}`)
    }
    continue
  }
  result.notes++
  for (const alias of Array.isArray(props.aliases) ? props.aliases : []) {
    const k = slug(alias)
    aliasOwners.set(k, (aliasOwners.get(k) ?? 0) + 1)
  }
  if (!files.has(page)) continue
  const h1 = /<h1 class="article-title"[^>]*>([\s\S]*?)<\/h1>/.exec(read(page))
  const shown = h1 ? unescape(h1[1].replace(/<[^>]*>/g, "")).trim() : ""
  if (typeof props.title === "string" && props.title !== "") result.titled++
  if (shown !== (props.title ?? "")) {
    result.titleMismatches++
    if (result.titleSamples.length < 10) result.titleSamples.push(`${f}: title ${JSON.stringify(props.title ?? "")}, page shows ${JSON.stringify(shown)}`)
  }
}
for (const [alias, n] of aliasOwners) {
  if (n > 1) {
    result.sharedAliases++
    if (result.sharedAliasSamples.length < 10) result.sharedAliasSamples.push(`${alias} (${n} notes)`)
  }
}

// The search index lists every published page by slug.
const indexFile = path.join(pub, "static", "contentIndex.json")
if (fs.existsSync(indexFile)) {
  const index = JSON.parse(fs.readFileSync(indexFile, "utf8"))
  for (const f of walk(vault)) {
    if (!f.endsWith(".md")) continue
    const props = frontMatter(fs.readFileSync(path.join(vault, f), "utf8"))
    if ((props.publish === "false" || props.draft === "true" || props.private === "true") && index[slug(f)]) {
      result.privatePublished++
      if (result.privateSamples.length < 10) result.privateSamples.push(`${f}: in the search index`)
    }
  }
}

if (asJSON) {
  console.log(JSON.stringify(result, null, 2))
} else {
  const r = result
  console.log(`pages ${r.pages}, internal links ${r.links}, broken ${r.broken}, missing anchors ${r.anchors}`)
  console.log(`notes ${r.notes}, with a title ${r.titled}, page title differs ${r.titleMismatches}`)
  console.log(`redirects ${r.redirects} (root ${r.rootRedirects}, in folders ${r.folderRedirects}), aliases shared by several notes ${r.sharedAliases}`)
  console.log(`private or unpublished notes ${r.private}, published anyway ${r.privatePublished}`)
  for (const [k, label] of [
    ["brokenSamples", "broken"],
    ["anchorSamples", "missing anchor"],
    ["titleSamples", "title"],
    ["sharedAliasSamples", "shared alias"],
    ["privateSamples", "private"],
  ]) {
    for (const s of r[k]) console.log(`  ${label}: ${s}`)
  }
}
