// Reads dreamwiki's vaults with an Obsidian-flavoured Markdown toolchain
// that shares no code with dreamwiki: unified/remark with GFM, front
// matter, remark-wiki-link and @r4ai/remark-callout, the plugins
// publishers built on remark use. Each vault must read the same in it as
// in Obsidian and in Quartz (issue #21):
//
//   - every note has a `title:` that is its H1 (when it has one);
//   - aliases are short names, none shared by two notes or equal to a
//     file's name, none a claim's whole text;
//   - every link resolves from the vault root: a bare name only when
//     exactly one file has it (matching case, and ignoring it), else a
//     path from the root (a file at the root is both); a block or
//     heading it names exists;
//   - no link text a publisher shows otherwise: no "#", URL or e-mail in
//     a wikilink's text (Quartz leaves such a link as text), no "/" in the
//     text of the links of claims and reports (Quartz shows only what
//     follows it; the workspace's own link texts are its author's);
//   - no wikilink left as text in prose (Quartz links an escaped one);
//   - a note kept out of publishing says so to Obsidian Publish and to
//     Quartz alike (publish: false and draft: true).
//
// The vaults are folders named in COMPAT_VAULTS, separated by ":";
// scripts/test.sh builds the demo's and a generated workspace's.
import { test } from "node:test"
import assert from "node:assert/strict"
import fs from "node:fs"
import path from "node:path"
import { unified } from "unified"
import remarkParse from "remark-parse"
import remarkGfm from "remark-gfm"
import remarkFrontmatter from "remark-frontmatter"
import remarkWikiLink from "remark-wiki-link"
import remarkCallout from "@r4ai/remark-callout"
import { visit } from "unist-util-visit"
import { toString } from "mdast-util-to-string"
import yaml from "js-yaml"

const vaults = (process.env.COMPAT_VAULTS ?? "").split(":").filter(Boolean)

const parser = unified()
  .use(remarkParse)
  .use(remarkFrontmatter, ["yaml"])
  .use(remarkGfm)
  .use(remarkWikiLink, { aliasDivider: "|" })
  .use(remarkCallout)

function walk(dir, base = dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith(".")) continue
    const p = path.join(dir, e.name)
    if (e.isDirectory()) walk(p, base, out)
    else out.push(path.relative(base, p).split(path.sep).join("/"))
  }
  return out
}

// nameOf is what a bare link calls a file: a note's name without ".md",
// any other file's with its extension.
const nameOf = (f) => path.posix.basename(f).replace(/\.md$/, "")

// urlName is the URL segment Quartz 4.5 makes of a name (its
// slugifyFilePath), which is what its links and pages are matched by.
const urlName = (s) =>
  s
    .trim()
    .replace(/\s/g, "-")
    .replace(/&/g, "-and-")
    .replace(/%/g, "-percent")
    .replace(/[?#]/g, "")

// Vault is one vault as the toolchain reads it.
class Vault {
  constructor(dir) {
    this.dir = dir
    this.files = walk(dir)
    this.notes = new Map() // path -> { props, tree, text, headings, blocks }
    this.byName = new Map() // lower-case URL name -> paths
    for (const f of this.files) {
      const k = urlName(nameOf(f)).toLowerCase()
      this.byName.set(k, [...(this.byName.get(k) ?? []), f])
      if (!f.endsWith(".md")) continue
      const text = fs.readFileSync(path.join(dir, f), "utf8")
      const tree = parser.runSync(parser.parse(text))
      let props = {}
      visit(tree, "yaml", (node) => {
        props = yaml.load(node.value) ?? {}
      })
      const headings = new Set()
      let h1 = null
      visit(tree, "heading", (node) => {
        const t = toString(node).trim()
        headings.add(t.toLowerCase())
        if (node.depth === 1 && h1 === null) h1 = t
      })
      const blocks = new Set([...text.matchAll(/(?:^|\s)\^([A-Za-z0-9-]+)\s*$/gm)].map((m) => m[1]))
      this.notes.set(f, { props, tree, text, headings, blocks, h1 })
    }
  }

  // generated reports a note whose every word the builder wrote: a claim
  // or a report. Other notes carry the workspace's own text (a dream
  // run's note quotes its entry of the dream log).
  generated(f) {
    const p = this.notes.get(f).props
    return p.type === "claim" || p.type === "report"
  }

  // resolve returns the file a link target names, or an error.
  resolve(target, wiki) {
    const t = target.trim()
    if (t.startsWith(".") || t.startsWith("/")) return { error: "relative or rooted with a slash" }
    // A file at the root is named by its path even when its name is not
    // unique: Obsidian and Quartz both try the path from the root first.
    const rooted = [t, t + ".md"].find((f) => this.files.includes(f))
    if (!t.includes("/") && wiki && !rooted) {
      const owners = this.byName.get(urlName(t).toLowerCase()) ?? []
      const exact = owners.filter((f) => urlName(nameOf(f)) === urlName(t))
      if (owners.length !== 1 || exact.length !== 1) {
        return { error: `bare name matches ${owners.length} files (${exact.length} in the same case)` }
      }
      return { file: owners[0] }
    }
    return rooted ? { file: rooted } : { error: "no file at that path from the vault root" }
  }
}

// links lists a note's links as the toolchain reads them.
function linksOf(note) {
  const out = []
  visit(note.tree, (node) => {
    if (node.type === "wikiLink") {
      // In a table row the bar is written \|; the plugin keeps the "\".
      const raw = node.value.replace(/\\$/, "")
      const [target, ...frag] = raw.split("#")
      out.push({ wiki: true, target, fragment: frag.join("#"), text: node.data.alias ?? raw, line: node.position?.start.line })
    } else if ((node.type === "link" || node.type === "image") && !/^[a-z][a-z0-9+.-]*:|^#|^\/\//i.test(node.url)) {
      const url = decodeURI(node.url)
      const [target, ...frag] = url.split("#")
      out.push({ wiki: false, target, fragment: frag.join("#"), text: toString(node), line: node.position?.start.line })
    } else if (node.type === "text") {
      // remark-wiki-link leaves embeds (![[x]]) as text: they are links.
      for (const m of node.value.matchAll(/(!?)\[\[([^\[\]]*)\]\]/g)) {
        const [target, ...frag] = m[2].split("|")[0].split("#")
        out.push({ wiki: true, embed: m[1] === "!", escaped: m[1] !== "!", target, fragment: frag.join("#"), text: m[2], line: node.position?.start.line })
      }
    }
  })
  return out
}

// failures collects what a check found and fails once with a sample.
function failures(t, what) {
  const found = []
  return {
    add: (s) => found.push(s),
    done: () => {
      if (found.length) assert.fail(`${found.length} ${what}:\n  ${found.slice(0, 25).join("\n  ")}`)
    },
  }
}

test("COMPAT_VAULTS names the vaults to read", () => {
  assert.ok(vaults.length > 0, "set COMPAT_VAULTS to one or more vault folders, separated by ':'")
  for (const v of vaults) assert.ok(fs.existsSync(path.join(v, "index.md")), `${v} has no index.md`)
})

for (const dir of vaults) {
  const started = Date.now()
  const v = new Vault(dir)
  const label = `${dir} (${v.notes.size} notes)`

  test(`${label}: every note has a title, its H1`, (t) => {
    const f = failures(t, "notes without the right title")
    for (const [p, n] of v.notes) {
      const title = n.props.title
      if (typeof title !== "string" || title.trim() === "") f.add(`${p}: title ${JSON.stringify(title)}`)
      else if (n.h1 !== null && title !== n.h1) f.add(`${p}: title ${JSON.stringify(title)}, H1 ${JSON.stringify(n.h1)}`)
    }
    f.done()
  })

  test(`${label}: aliases are short names, each naming one note`, (t) => {
    const f = failures(t, "bad aliases")
    const owners = new Map()
    for (const [p, n] of v.notes) {
      const aliases = n.props.aliases ?? []
      if (!Array.isArray(aliases)) {
        f.add(`${p}: aliases is not a list`)
        continue
      }
      for (const a of aliases) {
        if (typeof a !== "string") f.add(`${p}: alias ${JSON.stringify(a)} is not text`)
        else if (a.length > 40 || a.trim().split(/\s+/).length > 5) f.add(`${p}: alias ${JSON.stringify(a)} is not a short name`)
        else if (/[\[\]|#^\\/:*?"<>%]/.test(a)) f.add(`${p}: alias ${JSON.stringify(a)} holds a character links or file names cannot`)
        else if (n.props.type === "claim" && a === n.props.title) f.add(`${p}: alias ${JSON.stringify(a)} is the claim's text`)
        else {
          const k = urlName(a).toLowerCase()
          owners.set(k, [...(owners.get(k) ?? []), p])
          if (v.byName.has(k)) f.add(`${p}: alias ${JSON.stringify(a)} is also the name of ${v.byName.get(k)[0]}`)
        }
      }
    }
    for (const [a, ps] of owners) if (ps.length > 1) f.add(`alias ${JSON.stringify(a)} is shared by ${ps.join(", ")}`)
    f.done()
  })

  test(`${label}: every link resolves from the root to one file, and reads the same everywhere`, (t) => {
    const f = failures(t, "links that do not")
    let count = 0
    let slashed = 0
    for (const [p, n] of v.notes) {
      for (const l of linksOf(n)) {
        count++
        const at = `${p}:${l.line}`
        if (l.escaped) {
          f.add(`${at}: [[${l.text}]] is a wikilink left in the text (Quartz links it)`)
          continue
        }
        if (l.target === "") continue // a heading of the same note
        const r = v.resolve(l.target, l.wiki)
        if (r.error) {
          f.add(`${at}: ${l.wiki ? "[[" + l.target + "]]" : "(" + l.target + ")"}: ${r.error}`)
          continue
        }
        if (l.fragment) {
          const target = v.notes.get(r.file)
          const frag = l.fragment.trim()
          const ok = frag.startsWith("^") ? target?.blocks.has(frag.slice(1)) : target?.headings.has(frag.toLowerCase())
          if (!ok) f.add(`${at}: ${l.target}#${frag}: no such block or heading`)
        }
        if (l.wiki && !l.embed && /[#@]|:\/\/|www\./i.test(l.text)) f.add(`${at}: wikilink text ${JSON.stringify(l.text)} (Quartz leaves the link as text)`)
        if (!l.embed && l.text.includes("/")) {
          if (v.generated(p)) f.add(`${at}: link text ${JSON.stringify(l.text)} holds "/" (Quartz shows only what follows it)`)
          else slashed++
        }
      }
    }
    t.diagnostic(`${count} links; ${slashed} written by the workspace's author have a "/" in their text`)
    assert.ok(count > v.notes.size, `only ${count} links in ${v.notes.size} notes`)
    f.done()
  })

  test(`${label}: each note has its own page name, and unpublished notes say so to every publisher`, (t) => {
    const f = failures(t, "problems")
    const pages = new Map()
    for (const [p, n] of v.notes) {
      const k = p.split("/").map(urlName).join("/").toLowerCase()
      if (pages.has(k)) f.add(`${p} and ${pages.get(k)} make the same page`)
      pages.set(k, p)
      const hidden = n.props.publish === false || n.props.draft === true || n.props.private === true
      if (hidden && !(n.props.publish === false && n.props.draft === true)) f.add(`${p}: unpublished, but not both publish: false and draft: true`)
    }
    f.done()
    t.diagnostic(`read in ${Date.now() - started} ms`)
  })
}
