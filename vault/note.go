package vault

import (
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
)

// Kind is what a vault note is; the site picks layouts and the search
// index picks filters by it.
type Kind string

// Note kinds of the vault layout (DESIGN 4.1).
const (
	KindIndex        Kind = "index"        // index.md, from MEMORY.md
	KindClaim        Kind = "claim"        // claims/<slug>.md
	KindTopic        Kind = "topic"        // topics/<topic>.md, from L2 files
	KindDaily        Kind = "daily"        // sources/daily/<date>.md
	KindConversation Kind = "conversation" // sources/conversations/...
	KindDream        Kind = "dream"        // dreams/...
	KindReport       Kind = "report"       // reports/...
	KindArchive      Kind = "archive"      // archive/<month>.md
	KindBootstrap    Kind = "bootstrap"    // profile/USER.md, ...
	KindNote         Kind = "note"         // any other note, at its workspace path
)

// Label is the human name of a kind, as shown on pages.
func (k Kind) Label() string {
	switch k {
	case KindIndex:
		return "Memory index"
	case KindClaim:
		return "Claim"
	case KindTopic:
		return "Topic"
	case KindDaily:
		return "Daily log"
	case KindConversation:
		return "Conversation"
	case KindDream:
		return "Dream"
	case KindReport:
		return "Report"
	case KindArchive:
		return "Archive"
	case KindBootstrap:
		return "Profile"
	default:
		return "Note"
	}
}

// kinds are every kind of note.
var kinds = []Kind{KindIndex, KindClaim, KindTopic, KindDaily, KindConversation, KindDream, KindReport, KindArchive, KindBootstrap, KindNote}

// KindNamed reads a kind: filter's value (kind:conversation,
// kind:Profile): a kind by its name or its label, in any case. The site's search
// (assets/search/query.ts) reads it the same way against the kinds and
// labels its index carries.
func KindNamed(v string) (Kind, bool) {
	for _, k := range kinds {
		if strings.EqualFold(v, string(k)) || strings.EqualFold(v, k.Label()) {
			return k, true
		}
	}
	return "", false
}

// Input is one note to put in the vault, before parsing.
type Input struct {
	// Path is the vault path, forward slashes, ending in ".md".
	Path string
	Kind Kind
	// Source is the workspace path the note comes from; "" for notes the
	// builder generates.
	Source string
	// Text is the whole note as Markdown, front matter included.
	Text string
	// Props are properties the builder sets on top of the note's own front
	// matter (they win over keys of the same name).
	Props Props
	// Date is the note's date (YYYY-MM-DD) when it has one: a daily log's
	// date, a dream's date.
	Date string
	// Private is set on the notes of private files and on claims made
	// from them, in a vault built from a workspace read with its private
	// files ([vault] include_private); they are written with
	// `publish: false`. The site is never given such a vault.
	Private bool
	// From is the workspace path the note's links are resolved from, as if
	// its text were written there; "" means Source. A dream note cut out
	// of memory/dream-log.md resolves [[2026-10-23]] as that file did.
	From string
	// Claim is set on claim notes, Dream on dream-run notes.
	Claim *provenance.Claim
	Dream *provenance.Dream
}

// Note is one parsed vault note.
type Note struct {
	Path    string
	Kind    Kind
	Source  string
	Title   string
	Date    string
	Private bool
	// Props are the normalised front matter written into the vault.
	Props Props
	// Doc is the note's one parse; every output is made from it.
	Doc *markdown.Doc
	// Links are the resolutions of Doc.Links, index for index.
	Links []Resolution
	// Claim is the claim a claims/<slug>.md note shows, nil for other
	// notes: its evidence (with excerpts and the vault block each links
	// to), chain, scores and status, for claim cards and timelines.
	Claim *provenance.Claim
	// Dream is the dream run a dreams/<slug>.md note shows, nil for other
	// notes (including dreams/dream-log.md and dreams/DREAMS.md).
	Dream *provenance.Dream

	from string // see Input.From
}

// linkBase is the path the note's links are resolved from.
func (n *Note) linkBase() string {
	switch {
	case n.from != "":
		return n.from
	case n.Source != "":
		return n.Source
	}
	return n.Path
}

// Resolution is where one link of a note points.
type Resolution struct {
	Link *markdown.Link
	// Note is the note linked to; nil for assets and broken links.
	Note *Note
	// Asset is the file linked to when it is not a note.
	Asset *Asset
	// Anchor is the HTML id of the fragment in the target, "" for none.
	Anchor string
	// Broken is true when nothing by that name exists (or the fragment
	// names no heading or block of the target).
	Broken bool
	// Private is true when the link names a private file left out of the
	// vault: it is shown as its text alone, never as a link.
	Private bool
	// Workspace names the other workspace of a team site a qualified link
	// ([[b:note]]) points into (see LinkWorkspaces); Peer is the note
	// there, nil when the link is Broken or Private. Note stays nil: it
	// is always a note of this vault.
	Workspace string
	Peer      *Note
}

// Target is the note the link points to, in this vault or another
// workspace's; nil for assets, broken and private links.
func (r Resolution) Target() *Note {
	if r.Note != nil {
		return r.Note
	}
	return r.Peer
}

// Asset is a non-Markdown file (image, PDF) published beside the notes.
type Asset struct {
	Path   string // vault path
	Source string // workspace path
	Size   int64
	Hash   string
	// Read returns the bytes; assets are read only when written.
	Read func() ([]byte, error)
}
