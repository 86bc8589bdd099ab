package markdown

import (
	"github.com/yuin/goldmark/ast"

	"github.com/dreamwiki/dreamwiki/internal/diag"
)

// Doc is one parsed note.
type Doc struct {
	// Path is the note's path (vault-relative, forward slashes, with .md).
	Path string
	// Source is the body after the front matter, with line endings
	// normalised to "\n" and %%comments%% cut out (their newlines kept, so
	// line numbers still match the original file). AST segments point into
	// it.
	Source []byte
	// BodyLine is the 1-based line of the original file on which Source
	// starts (1 when there is no front matter).
	BodyLine int
	Meta     FrontMatter
	// Title is the front matter title, else the first H1, else the file
	// name without extension.
	Title    string
	Headings []Heading
	// Links are wikilinks, embeds and Markdown links to non-URL targets, in
	// document order. Links inside code are not links.
	Links []*Link
	// Tags are the note's tags (front matter first, then inline), without
	// '#', deduplicated ignoring case (the first spelling wins), in
	// first-seen order.
	Tags     []string
	BlockIDs []BlockID
	// Diagnostics carry original-file line numbers.
	Diagnostics diag.List

	// Built by Parse and only read afterwards, so that many goroutines can
	// render the same Doc at once.
	syn        *syntax           // the parsed body; nil once released
	released   bool              // Release dropped syn: rendering parses Source again
	keep       bool              // the parse failed: syn is an empty stand-in, never dropped
	plain      string            // PlainText, kept by Release
	blockIDs   map[string]string // lower-case block id -> as written
	lineStarts []int             // byte offsets of line starts in Source
}

// syntax is a parsed body: the AST and the indexes that point into it.
type syntax struct {
	root      ast.Node
	linkAt    map[ast.Node]int    // AST node -> index of its Link in Doc.Links
	headingAt []ast.Node          // parallel to Doc.Headings
	blockAt   map[string]ast.Node // lower-case block id -> the block it names
}

// FrontMatter is the YAML front matter, with the keys dreamwiki understands
// pulled out into typed fields.
type FrontMatter struct {
	// Present is true when the file starts with a front matter block, even
	// if it failed to parse.
	Present bool
	Title   string
	Aliases []string
	Tags    []string
	// Dates are normalised to YYYY-MM-DD; "" when absent or unparseable.
	Date, Created, Updated string
	// Publish is nil when unset. Publish and Private are the keys read
	// leniently (yes and no are booleans too); who may read a note is the
	// workspace's to decide, from Privacy.
	Publish *bool
	Private bool
	// Privacy are the top-level "private" and "publish" keys (any case),
	// in file order, as written, duplicates included, and those a merge
	// key brings in.
	Privacy []PrivacyKey
	// Keys are all top-level keys in file order; Fields their decoded values.
	Keys   []string
	Fields map[string]any
}

// PrivacyKey is a "private" or "publish" key of front matter as written.
type PrivacyKey struct {
	Key string // as written
	// Line is the key's 1-based line in the file.
	Line int
	// Value is the value as written: a scalar's text, "*name" for an
	// alias, "<<: *name" for a key a merge brings in, "" for a list or
	// a mapping.
	Value string
	// Bool is the value when it is a plain YAML boolean (true or false,
	// unquoted, in a case YAML reads as one), else nil.
	Bool *bool
}

// Heading is one heading of the note.
type Heading struct {
	Level int
	Text  string // plain text
	ID    string // HTML id, unique within the note
	Line  int    // original-file line
}

// BlockID is a "^id" marker and the line it sits on.
type BlockID struct {
	ID   string // without '^'
	Line int
}

// Link is one wikilink, embed or local Markdown link.
type Link struct {
	// Target is the note or file named, as written, without fragment; ""
	// for links within the note ([[#Heading]]).
	Target string
	// Fragment is what follows the first '#': "Heading", "H1#H2" or "^id".
	Fragment string
	// Display is the text shown: "|display", else the link text of a
	// Markdown link, else the target as written with each '#' shown as
	// " > " (as Obsidian does: [[note#H]] reads "note > H").
	Display string
	Embed   bool // ![[...]] or ![](...)
	Wiki    bool // [[...]] rather than [..](..)
	// Width and Height come from "|300" or "|300x200" on image embeds.
	Width, Height int
	// Line is the original-file line of the link.
	Line int
	// Start and End are byte offsets of the whole link syntax in Source.
	Start, End int
}

// Target is what a link resolves to, decided by the caller (the site or the
// vault) through RenderContext.
type Target struct {
	// Doc is the note linked to; nil for files that are not notes.
	Doc *Doc
	// Path is the vault path of the note or file; "" when broken.
	Path string
	// Anchor is the HTML id in the target ("" for the top of the page).
	Anchor string
	// Broken marks a link to nothing; it renders as marked text.
	Broken bool
	// Plain renders the link's text without a link (links to private notes).
	Plain bool
}

// RenderContext answers the questions rendering one page raises. The site
// implements it; tests use small fakes. It must be safe for concurrent use
// when pages are rendered concurrently.
//
// When a note is embedded in a page, its links are resolved with from = the
// embedded note (so its relative paths mean what they say), while Href and
// TagHref get the page being rendered (so URLs are relative to that page).
type RenderContext interface {
	// Resolve says what a link from doc points to.
	Resolve(from *Doc, l *Link) Target
	// Href is the URL of a resolved target as seen from from's page,
	// including "#"+t.Anchor when t.Anchor is set.
	Href(from *Doc, t Target) string
	// TagHref is the URL of a tag page as seen from from's page.
	TagHref(from *Doc, tag string) string
}
