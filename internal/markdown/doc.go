// Package markdown is dreamwiki's Markdown engine: goldmark with GFM,
// footnotes and the Obsidian dialect (wikilinks, embeds, callouts,
// highlights, comments, tags, block ids, YAML front matter).
//
// One parse of a note (Parse) serves every output: the vault writer reads
// Doc's front matter and links, the site renders Doc's AST to HTML
// (RenderHTML), the Markdown twin rewrites its links (RewriteLinks) and the
// search index takes its text (PlainText). The engine never reads files and
// never fails: problems become diagnostics on the Doc. Link targets are
// only strings to it; what they name is decided by the caller, through a
// RenderContext and, for Obsidian's rules, a NameIndex.
//
// # HTML
//
// The HTML is what the site's CSS and scripts target:
//
//	<a class="internal" href="…" data-path="notes/x.md">text</a>   resolved link
//	<span class="broken-link" title="No note named “x”">text</span> broken link
//	<a class="external" href="https://…">text</a>                   URL with a scheme
//	<a class="tag" href="…">#tag</a>                                 tag
//	<mark>text</mark>                                                ==highlight==
//	<img src="…" alt="…" width="300" height="200" loading="lazy">  image embed
//	<audio controls …>, <video controls …>                          media embeds
//	<div class="embed" data-path="…">                                note embed
//	  <div class="embed-title"><a class="internal" …>Title</a></div>
//	  <div class="embed-content">…the note, section or block…</div>
//	</div>
//	<div class="embed embed-cycle" …>, <div class="embed embed-too-deep" …>
//	<div class="callout" data-callout="tip">                          callout
//	  <div class="callout-title">…</div><div class="callout-content">…</div>
//	</div>
//	<details class="callout" data-callout="tip" open>                foldable
//	  <summary class="callout-title">…</summary><div class="callout-content">…</div>
//	</details>
//	<p id="^id">, <li id="^id">, <table id="^id"> …                 block ids
//	<span class="block-anchor" id="^id"></span>                      block id on a code block or heading
//	<pre class="raw-html"><code>&lt;div&gt;…</code></pre>            raw HTML block, escaped
//	<pre class="chroma"><code><span class="line">…                  highlighted code (see HighlightCSS)
//
// Headings carry GitHub-style ids, unique within the note. Inside an
// embedded note, headings, paragraphs, callouts and block anchors carry no
// ids, so a page embedding a section of itself does not repeat them. A paragraph holding a note embed
// renders without its <p>, which could not contain the embed's <div>.
// Soft line breaks render as <br>, as in Obsidian.
//
// # Safety
//
// Raw HTML is escaped, never passed through; HTML comments are dropped.
// javascript:, vbscript:, data: and file: URLs, however spelled, become
// "#" in links and are dropped from images. Every URL a RenderContext
// returns is checked the same way.
package markdown
