package vault

import (
	"fmt"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/parallel"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
)

// Vault is the parsed, link-resolved set of notes.
type Vault struct {
	// Notes are sorted by Path.
	Notes []*Note
	// Assets are sorted by Path.
	Assets []*Asset
	// Names resolves link targets by Obsidian's rules, as their authors
	// wrote them: a note is also known by its workspace path.
	Names *markdown.NameIndex
	// Provenance is what the provenance stage found: every claim with its
	// evidence, chains, contests, dream runs, the MEMORY.md budget and the
	// lint findings. Nil when the vault was built without it.
	Provenance *provenance.Result

	byPath map[string]*Note
	byDoc  map[*markdown.Doc]*Note
	assets map[string]*Asset
	// withheld are the workspace paths of the private files left out
	// (see Build).
	withheld  map[string]bool
	backlinks map[*Note][]*Note
	links     map[*markdown.Link]*Resolution
	// pub is how the written vault names notes (publishing), made on
	// first use.
	pubOnce sync.Once
	pub     *publishing
	// inc is what Update needs to tell which notes changed.
	inc *incState

	// Diagnostics holds the problems found while parsing and resolving
	// (broken links, bad front matter), with workspace file and line.
	Diagnostics diag.List
}

// Note returns the note at a vault path, nil when there is none.
func (v *Vault) Note(p string) *Note { return v.byPath[p] }

// NoteOf returns the note a parsed document belongs to.
func (v *Vault) NoteOf(d *markdown.Doc) *Note { return v.byDoc[d] }

// Resolution returns where a link of some note points; ok is false for a
// link that is not part of the vault.
func (v *Vault) Resolution(l *markdown.Link) (Resolution, bool) {
	r, ok := v.links[l]
	if !ok {
		return Resolution{}, false
	}
	return *r, true
}

// Backlinks returns the notes that link to or embed n, sorted by path.
func (v *Vault) Backlinks(n *Note) []*Note { return v.backlinks[n] }

// Build parses every input once and resolves every link. Inputs with the
// same path are disambiguated with a numeric suffix and reported.
// withheld are the workspace paths of the private files left out of the
// workspace (Withheld): a link to one resolves, as Private, so that it
// is shown as plain text rather than reported as broken.
func Build(eng *markdown.Engine, inputs []Input, assets []*Asset, withheld []string) *Vault {
	v := &Vault{
		byPath:    make(map[string]*Note, len(inputs)),
		byDoc:     make(map[*markdown.Doc]*Note, len(inputs)),
		assets:    make(map[string]*Asset, len(assets)),
		withheld:  withheldSet(withheld),
		backlinks: map[*Note][]*Note{},
		links:     map[*markdown.Link]*Resolution{},
	}
	given := givenPaths(inputs)
	inputs = uniquePaths(inputs, &v.Diagnostics)
	v.inc = &incState{given: given, inputs: inputs, dups: append(diag.List(nil), v.Diagnostics...), linkDiags: map[*Note]diag.List{}}
	v.Notes = parseAll(eng, inputs)
	sort.Slice(v.Notes, func(i, j int) bool { return v.Notes[i].Path < v.Notes[j].Path })

	v.Assets = append(v.Assets, assets...)
	sort.Slice(v.Assets, func(i, j int) bool { return v.Assets[i].Path < v.Assets[j].Path })

	for _, n := range v.Notes {
		v.byPath[n.Path] = n
		v.byDoc[n.Doc] = n
		v.Diagnostics = append(v.Diagnostics, n.Doc.Diagnostics...)
	}
	for _, a := range v.Assets {
		v.assets[a.Path] = a
	}
	v.Names = nameIndex(v.Notes, v.Assets, v.withheld)
	v.resolveAll()
	v.Diagnostics.Sort()
	return v
}

// uniquePaths gives every input its own path: a later input whose path is
// taken gets "-2", "-3"... before ".md".
func uniquePaths(inputs []Input, diags *diag.List) []Input {
	seen := make(map[string]bool, len(inputs))
	out := make([]Input, 0, len(inputs))
	for _, in := range inputs {
		p := in.Path
		for i := 2; seen[strings.ToLower(p)]; i++ {
			p = fmt.Sprintf("%s-%d.md", strings.TrimSuffix(in.Path, ".md"), i)
		}
		if p != in.Path {
			diags.Add(diag.Diagnostic{Severity: diag.Info, Code: "duplicate-path", File: in.Source,
				Message: fmt.Sprintf("vault path %s is taken; this note is written as %s", in.Path, p)})
			in.Path = p
		}
		seen[strings.ToLower(p)] = true
		out = append(out, in)
	}
	return out
}

// parseAll parses inputs on every core; the result is in input order.
func parseAll(eng *markdown.Engine, inputs []Input) []*Note {
	notes := make([]*Note, len(inputs))
	parallel.For(len(inputs), runtime.GOMAXPROCS(0), func(i int) {
		notes[i] = newNote(eng, inputs[i])
	})
	return notes
}

func newNote(eng *markdown.Engine, in Input) *Note { return noteOf(in, parseInput(eng, in)) }

// parseInput parses an input's text; diagnostics name its workspace file.
func parseInput(eng *markdown.Engine, in Input) *markdown.Doc {
	file := in.Source
	if file == "" {
		file = in.Path
	}
	doc := eng.ParseText(file, in.Text)
	doc.Path = in.Path
	// Everything the vault needs is indexed; the site parses each note
	// again as it renders it, so the whole vault's ASTs are never alive
	// at once (they were most of a build's memory).
	doc.Release()
	return doc
}

// noteOf makes the note of an input from its parse.
func noteOf(in Input, doc *markdown.Doc) *Note {
	n := &Note{
		Path:    in.Path,
		Kind:    in.Kind,
		Source:  in.Source,
		Title:   doc.Title,
		Date:    in.Date,
		Private: in.Private,
		Doc:     doc,
		Claim:   in.Claim,
		Dream:   in.Dream,
		from:    in.From,
	}
	if n.Date == "" {
		n.Date = firstNonEmpty(doc.Meta.Updated, doc.Meta.Date, doc.Meta.Created)
	}
	n.Props = normaliseProps(n, in.Props)
	return n
}

// normaliseProps builds the front matter written into the vault: the
// note's title first (publishers title pages by it, and would otherwise
// use the file name), then the builder's own keys, then the note's keys
// in their original order.
func normaliseProps(n *Note, extra Props) Props {
	p := Props{{Key: "title", Value: n.Title}}
	if n.Source == "" && len(extra) > 0 {
		// A generated note's properties are written as given, in order.
		for _, kv := range extra {
			p.Set(kv.Key, kv.Value)
		}
		if p.Get("type") == nil {
			p.Set("type", string(n.Kind))
		}
		markPrivate(n, &p)
		return p
	}
	m := n.Doc.Meta
	p.Set("type", string(n.Kind))
	if len(m.Aliases) > 0 {
		p.Set("aliases", m.Aliases)
	}
	if len(n.Doc.Tags) > 0 {
		p.Set("tags", n.Doc.Tags)
	}
	if n.Date != "" {
		p.Set("date", n.Date)
	}
	if n.Source != "" {
		p.Set("source", n.Source)
	}
	handled := map[string]bool{"title": true, "aliases": true, "alias": true, "tags": true, "tag": true, "type": true, "source": true}
	for _, k := range m.Keys {
		if handled[k] {
			continue
		}
		if k == "date" && n.Date != "" {
			continue
		}
		p.Set(k, m.Fields[k])
	}
	for _, kv := range extra {
		p.Set(kv.Key, kv.Value)
	}
	markPrivate(n, &p)
	return p
}

// markPrivate marks a private note, in a vault kept with its private
// notes ([vault] include_private), so that no publisher publishes it:
// `publish: false` is what Obsidian Publish reads, `draft: true` what
// Quartz's default filter (RemoveDrafts) reads.
func markPrivate(n *Note, p *Props) {
	if n.Private {
		p.Set("publish", false)
		p.Set("draft", true)
	}
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// resolveAll resolves every link of every note, records backlinks and
// reports broken links and anchors.
func (v *Vault) resolveAll() {
	// Resolving only reads the vault, so it runs on every core; the maps
	// are filled after, in note order.
	parallel.For(len(v.Notes), runtime.GOMAXPROCS(0), func(i int) { v.resolveLinks(v.Notes[i]) })
	for _, n := range v.Notes {
		v.recordLinks(n)
		for _, r := range n.Links {
			if r.Note != nil && r.Note != n {
				v.backlinks[r.Note] = append(v.backlinks[r.Note], n)
			}
		}
	}
	for target, srcs := range v.backlinks {
		v.backlinks[target] = uniqueNotes(srcs)
	}
	v.Diagnostics = append(v.Diagnostics, v.linkDiagnostics()...)
}

// resolveNote resolves the links of one note.
func (v *Vault) resolveNote(n *Note) {
	v.resolveLinks(n)
	v.recordLinks(n)
}

// resolveLinks fills n.Links; it changes nothing but n.
func (v *Vault) resolveLinks(n *Note) {
	n.Links = make([]Resolution, len(n.Doc.Links))
	for i, l := range n.Doc.Links {
		n.Links[i] = v.resolve(n, l)
	}
}

// recordLinks indexes n's resolved links by link.
func (v *Vault) recordLinks(n *Note) {
	for i, l := range n.Doc.Links {
		v.links[l] = &n.Links[i]
	}
}

// linkDiagnostics reports every broken link and anchor, note by note,
// and keeps each note's report for Update.
func (v *Vault) linkDiagnostics() diag.List {
	var out diag.List
	for _, n := range v.Notes {
		ds := noteLinkDiagnostics(n)
		if v.inc != nil {
			if len(ds) > 0 {
				v.inc.linkDiags[n] = ds
			} else {
				delete(v.inc.linkDiags, n)
			}
		}
		out = append(out, ds...)
	}
	return out
}

// noteLinkDiagnostics reports the broken links and anchors of one note.
func noteLinkDiagnostics(n *Note) diag.List {
	var out diag.List
	for i, l := range n.Doc.Links {
		r := n.Links[i]
		switch {
		case r.Broken:
			out.Add(diag.Diagnostic{Severity: diag.Warning, Code: "broken-link",
				File: fileOf(n), Line: l.Line,
				Message: fmt.Sprintf("link %s points to nothing", linkText(l)),
				Hint:    "create the note or fix the name"})
		case r.Private:
			out.Add(diag.Diagnostic{Severity: diag.Info, Code: "private-link",
				File: fileOf(n), Line: l.Line,
				Message: "link to a private note; it is published as plain text"})
		case l.Fragment != "" && r.Target() != nil:
			if _, ok := r.Target().Doc.Anchor(l.Fragment); !ok {
				out.Add(diag.Diagnostic{Severity: diag.Warning, Code: "broken-anchor",
					File: fileOf(n), Line: l.Line,
					Message: fmt.Sprintf("link %s: %s has no heading or block %q", linkText(l), r.Target().Path, l.Fragment),
					Hint:    "the link goes to the top of the note"})
			}
		}
	}
	return out
}

// resolve finds where one link points. Relative targets are resolved from
// the note's workspace path (that is where its author wrote them).
func (v *Vault) resolve(n *Note, l *markdown.Link) Resolution {
	if l.Target == "" {
		r := Resolution{Link: l, Note: n}
		if l.Fragment != "" {
			r.Anchor, _ = n.Doc.Anchor(l.Fragment) // linkDiagnostics reports a missing one
		}
		return r
	}
	return v.resolveTarget(n.linkBase(), l, l.Target)
}

// resolveTarget finds where target, written in l in a note whose links
// start from the path from, points in v.
func (v *Vault) resolveTarget(from string, l *markdown.Link, target string) Resolution {
	r := Resolution{Link: l}
	p, ok := v.Names.Lookup(from, target)
	if !ok {
		r.Broken = true
		return r
	}
	switch {
	case v.byPath[p] != nil:
		r.Note = v.byPath[p]
	case v.assets[p] != nil:
		r.Asset = v.assets[p]
	case v.withheld[p]:
		r.Private = true
		return r
	default:
		r.Broken = true
		return r
	}
	if l.Fragment != "" && r.Note != nil {
		r.Anchor, _ = r.Note.Doc.Anchor(l.Fragment) // linkDiagnostics reports a missing one
	}
	return r
}

func fileOf(n *Note) string {
	if n.Source != "" {
		return n.Source
	}
	return n.Path
}

func linkText(l *markdown.Link) string {
	t := l.Target
	if l.Fragment != "" {
		t += "#" + l.Fragment
	}
	if l.Wiki {
		if l.Embed {
			return "![[" + t + "]]"
		}
		return "[[" + t + "]]"
	}
	return "(" + t + ")"
}

func uniqueNotes(ns []*Note) []*Note {
	sort.Slice(ns, func(i, j int) bool { return ns[i].Path < ns[j].Path })
	out := ns[:0]
	for i, n := range ns {
		if i == 0 || n != ns[i-1] {
			out = append(out, n)
		}
	}
	return out
}

// Folder returns the vault folder of a path ("" for the root).
func Folder(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}
