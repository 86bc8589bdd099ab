package site

import (
	"hash/maphash"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dreamwiki/dreamwiki/vault"
)

// Dependency tracking for serve mode, after Hugo's identity package: every
// page records what it read of the site while it rendered (the notes it
// shows, the links it resolved, the titles and URLs of the notes it lists,
// the explorer of its folder), and an update renders again exactly the
// pages that read something whose value changed. Nothing here knows which
// page shows what: the renderers say it as they read, and the values
// decide.

// depKind is one kind of thing a page can read.
type depKind uint8

const (
	// Reads of a note's own value, keyed by the note's vault path. A note
	// is never changed once made (vault.Update makes a new value), so these
	// are checked only when a path holds another note than before.

	// depContent is a note shown whole: its own page, an embed.
	depContent depKind = iota
	// depLinks is where a note's links resolve (targets and anchors); it
	// changes without the note when a target moves.
	depLinks
	// depAnchor is the HTML id a fragment ("^e4", "Section") of a note
	// resolves to, keyed by path and fragment.
	depAnchor
	// depTitle is a note's title (backlinks, timelines, journals).
	depTitle
	// depListing is what lists show of a note: its title, date and kind.
	depListing
	// depCard is what other pages show of a claim: its text, type, tier,
	// status, decay and lapse.
	depCard
	// depBacking is the evidence marker lists show beside a claim: how
	// well its evidence backs it.
	depBacking
	// depWords is a daily log's size in words (the dashboard's calendar).
	depWords
	// depRun is a dream run as the journal and dashboard show it.
	depRun
	// depTargets are the notes a note links to (the graph's edges).
	depTargets

	// Reads of what the site makes of many notes, checked on every update.

	// depURL is the page of the note at a vault path, "" when there is none.
	depURL
	// depBacklinks are the notes linking to a note; checked at the paths
	// the vault's delta names (vault.Delta.Backlinked and the notes that
	// changed or went), not on every update.
	depBacklinks
	// depSource is the vault path of the note made from a workspace path.
	depSource
	// depLapsed are the blocks of a workspace file whose claims lapsed.
	depLapsed
	// depChrome is what every page of a folder shares (explorer, header,
	// footer with the note count).
	depChrome
	// depFolder is a folder's listing: its sub-folders with their titles
	// and counts, and its notes in order.
	depFolder
	// depFolderTitle is a folder's title (breadcrumbs).
	depFolderTitle
	// depTag is the notes carrying a tag (or a sub-tag), in order.
	depTag
	// depTags are the tags with their counts.
	depTags
	// depNotes are the published notes: their number and kinds.
	depNotes
	// depClaims are the published claims, in order.
	depClaims
	// depRuns are the dream runs and other dream notes, in order.
	depRuns
	// depDaily are the daily logs, in order.
	depDaily
	// depBudget is MEMORY.md's budget and the chains of the provenance
	// result.
	depBudget
)

// shows reports the kinds of reads that make a page show the thing itself
// (a note's text, where its links go): a page that read one that changed
// is rendered again at once. Pages that only list, count or name what
// changed follow when changes pause (Incremental.Finish), as Hugo's fast
// render mode renders the pages being looked at first.
func (k depKind) shows() bool {
	switch k {
	case depContent, depLinks, depAnchor, depURL, depLapsed:
		return true
	}
	return false
}

// ofNote reports the kinds whose value is a function of one note's value
// (and, for depLinks, of its resolved links).
func (k depKind) ofNote() bool { return k <= depTargets }

// dep is one thing read: a kind and what it is about (a vault path, a
// workspace path, a folder, a tag; for an anchor, path and fragment
// joined by "#").
type dep struct {
	kind depKind
	name string
}

// reads records what one page read while it rendered, and the files it
// wrote. A nil *reads records nothing: plain builds render without one.
type reads struct {
	deps  []dep
	files []string
}

// file records that the page wrote the file name.
func (r *reads) file(name string) {
	if r != nil {
		r.files = append(r.files, name)
	}
}

func (r *reads) add(k depKind, name string) {
	if r != nil {
		r.deps = append(r.deps, dep{k, name})
	}
}

// note records a read of kind k about note n (nil: nothing).
func (r *reads) note(k depKind, n *vault.Note) {
	if r != nil && n != nil {
		r.deps = append(r.deps, dep{k, n.Path})
	}
}

// anchor records the resolution of fragment in the note at path.
func (r *reads) anchor(path, fragment string) {
	if r != nil {
		r.deps = append(r.deps, dep{depAnchor, path + "#" + fragment})
	}
}

// sorted returns the reads without repeats, sorted.
func (r *reads) sorted() []dep {
	if r == nil {
		return nil
	}
	slices.SortFunc(r.deps, compareDeps)
	return slices.Compact(r.deps)
}

func compareDeps(a, b dep) int {
	if a.kind != b.kind {
		return int(a.kind) - int(b.kind)
	}
	return strings.Compare(a.name, b.name)
}

// pageKey names a page of the site independently of its URL: "n:" and a
// vault path for a note's page (the home page for the memory index), or
// the name of a list page ("folder:" dir, "tag:" name, "graph", ...).
type pageKey string

// page is one page as the graph knows it: what it read the last time it
// rendered.
type page struct {
	key  pageKey
	deps []dep
}

// keyState is one thing some pages read: the fingerprint of the value
// they read, and who they are.
type keyState struct {
	dep     dep
	fp      uint64
	readers map[*page]struct{}
	// ident is what the value was computed from, when that tells without
	// computing it that it is the same: the note for kinds of one note,
	// the backlink list for depBacklinks.
	note  *vault.Note
	links *vault.Note // the note whose links were last seen (see linksOf)
	list  []*vault.Note
}

// subject is everything read about one vault path's note: its keys of
// kinds ofNote, checked together when the path holds another value.
type subject struct {
	note  *vault.Note
	links *vault.Resolution // first element of note.Links, which vault.Update replaces when it resolves them again
	keys  []*keyState
}

// depGraph is who read what, and what they read.
type depGraph struct {
	seed     maphash.Seed
	pages    map[pageKey]*page
	keys     map[dep]*keyState
	subjects map[string]*subject
	// derived are the keys not of one note, checked on every update.
	derived map[depKind]map[string]*keyState
}

func newDepGraph() *depGraph {
	return &depGraph{seed: maphash.MakeSeed(), pages: map[pageKey]*page{}, keys: map[dep]*keyState{},
		subjects: map[string]*subject{}, derived: map[depKind]map[string]*keyState{}}
}

// record replaces what page key read with deps (sorted, without repeats);
// s is the site the page rendered from.
func (g *depGraph) record(s *site, key pageKey, deps []dep) {
	p := g.pages[key]
	if p == nil {
		p = &page{key: key}
		g.pages[key] = p
	}
	old := p.deps
	p.deps = deps
	// Both lists are sorted: walk them side by side, so a page that read
	// what it read before costs no map writes.
	i, j := 0, 0
	for i < len(old) || j < len(deps) {
		switch c := cmpAt(old, i, deps, j); {
		case c == 0:
			i++
			j++
		case c < 0:
			g.unread(p, old[i])
			i++
		default:
			g.read(s, p, deps[j])
			j++
		}
	}
}

// cmpAt compares a[i] with b[j]; past the end of a list counts as greater.
func cmpAt(a []dep, i int, b []dep, j int) int {
	switch {
	case i == len(a):
		return 1
	case j == len(b):
		return -1
	}
	return compareDeps(a[i], b[j])
}

// forget drops a page that no longer exists.
func (g *depGraph) forget(key pageKey) {
	p := g.pages[key]
	if p == nil {
		return
	}
	for _, d := range p.deps {
		g.unread(p, d)
	}
	delete(g.pages, key)
}

func (g *depGraph) read(s *site, p *page, d dep) {
	ks := g.keys[d]
	if ks == nil {
		ks = &keyState{dep: d, readers: map[*page]struct{}{}}
		g.keys[d] = ks
		if d.kind.ofNote() {
			path := d.name
			if d.kind == depAnchor {
				path, _, _ = strings.Cut(d.name, "#")
			}
			sub := g.subjects[path]
			if sub == nil {
				n := s.v.Note(path)
				sub = &subject{note: n, links: linksOf(n)}
				g.subjects[path] = sub
			}
			sub.keys = append(sub.keys, ks)
		} else {
			m := g.derived[d.kind]
			if m == nil {
				m = map[string]*keyState{}
				g.derived[d.kind] = m
			}
			m[d.name] = ks
		}
		g.refresh(s, ks)
	}
	ks.readers[p] = struct{}{}
}

func (g *depGraph) unread(p *page, d dep) {
	ks := g.keys[d]
	if ks == nil {
		return
	}
	delete(ks.readers, p)
	if len(ks.readers) > 0 {
		return
	}
	delete(g.keys, d)
	if d.kind.ofNote() {
		path := d.name
		if d.kind == depAnchor {
			path, _, _ = strings.Cut(d.name, "#")
		}
		if sub := g.subjects[path]; sub != nil {
			sub.keys = slices.DeleteFunc(sub.keys, func(k *keyState) bool { return k == ks })
			if len(sub.keys) == 0 {
				delete(g.subjects, path)
			}
		}
		return
	}
	delete(g.derived[d.kind], d.name)
}

// linksOf identifies a note's resolved links: vault.Update resolves a
// note's links again into a new slice, so the same first element means
// the same resolutions.
func linksOf(n *vault.Note) *vault.Resolution {
	if n == nil || len(n.Links) == 0 {
		return nil
	}
	return &n.Links[0]
}

// refresh brings ks up to date with s and reports whether its value
// changed.
func (g *depGraph) refresh(s *site, ks *keyState) bool {
	d := ks.dep
	switch d.kind {
	case depContent:
		n := s.v.Note(d.name)
		changed := n != ks.note
		ks.note = n
		return changed
	case depBacklinks:
		n := s.v.Note(d.name)
		var list []*vault.Note
		if n != nil {
			list = s.v.Backlinks(n)
		}
		if sameList(list, ks.list) && ks.note != nil && ks.note.Path == d.name {
			ks.note = n
			return false
		}
		ks.note, ks.list = n, list
	}
	fp := g.fingerprint(s, d)
	changed := fp != ks.fp
	ks.fp = fp
	return changed
}

// sameList reports whether two backlink lists are the very same slice
// (vault.Update copies a list before it changes it).
func sameList(a, b []*vault.Note) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// fingerprint hashes the current value of d.
func (g *depGraph) fingerprint(s *site, d dep) uint64 {
	var h maphash.Hash
	h.SetSeed(g.seed)
	str := func(ss ...string) {
		for _, x := range ss {
			h.WriteString(x)
			h.WriteByte(0)
		}
	}
	num := func(n int) { str(strconv.Itoa(n)) }
	switch d.kind {
	case depLinks:
		if n := s.v.Note(d.name); n != nil {
			for _, r := range n.Links {
				switch {
				case r.Broken:
					str("!")
				case r.Private:
					str("?")
				case r.Note != nil:
					str(r.Note.Path)
				case r.Asset != nil:
					str(r.Asset.Path)
				}
				str(r.Anchor)
			}
		}
	case depAnchor:
		path, frag, _ := strings.Cut(d.name, "#")
		if n := s.v.Note(path); n != nil {
			if id, ok := n.Doc.Anchor(frag); ok {
				str("+", id)
			}
		}
	case depTitle:
		if n := s.v.Note(d.name); n != nil {
			str("+", n.Title)
		}
	case depListing:
		if n := s.v.Note(d.name); n != nil {
			str("+", n.Title, n.Date, string(n.Kind))
		}
	case depCard:
		if ci := s.mem.byNote[s.v.Note(d.name)]; ci != nil {
			str("+", ci.ID, ci.Text, ci.Type, ci.Tier, ci.Status, strconv.FormatFloat(ci.Decay, 'g', -1, 64),
				strconv.FormatBool(ci.Lapsed), ci.Created, ci.c.File)
		}
	case depBacking:
		if ci := s.mem.byNote[s.v.Note(d.name)]; ci != nil {
			str("+", string(ci.c.Backing()))
		}
	case depWords:
		if n := s.v.Note(d.name); n != nil {
			num(countWords(n.Doc.Source))
		}
	case depRun:
		if n := s.v.Note(d.name); n != nil && n.Dream != nil {
			dr := n.Dream
			str("+", n.Title, dr.Slug, dr.Date.String(), dr.ConsolidatedThrough.String(), strconv.Itoa(len(dr.Logs)))
			for _, k := range slices.Sorted(maps.Keys(dr.Fields)) {
				str(k, dr.Fields[k])
			}
			for _, ids := range [][]string{dr.Promoted, dr.Superseded, dr.Archived} {
				str(ids...)
				str("|")
			}
			for _, it := range dr.Items {
				str(it.Text, it.Status, it.Claim)
			}
		}
	case depTargets:
		if n := s.v.Note(d.name); n != nil {
			for _, r := range n.Links {
				if r.Note != nil {
					str(r.Note.Path)
				}
			}
		}
	case depURL:
		if n := s.v.Note(d.name); n != nil {
			str(s.pages[n])
		}
	case depBacklinks:
		if n := s.v.Note(d.name); n != nil {
			for _, b := range s.v.Backlinks(n) {
				str(b.Path)
			}
		}
	case depSource:
		if n := s.mem.bySource[d.name]; n != nil {
			h.WriteString(n.Path)
		}
	case depLapsed:
		str(s.lapsedBlocks(d.name)...)
	case depChrome:
		c := s.chromeByDir[d.name]
		str(string(c.Head), string(c.Header), string(c.Left), string(c.Footer), string(c.BodyAttrs))
	case depFolder:
		if f := s.folders[d.name]; f != nil {
			str("+", f.Title)
			for _, sub := range f.Folders {
				if sf := s.folders[sub]; sf != nil {
					str(sub, sf.Title)
					num(sf.Count)
				}
			}
			str("|")
			for _, n := range f.Notes {
				str(n.Path)
			}
		}
	case depFolderTitle:
		if f := s.folders[d.name]; f != nil {
			str("+", f.Title)
		}
	case depTag:
		for _, n := range s.tags[d.name] {
			str(n.Path)
		}
	case depTags:
		for _, t := range s.sortedTags() {
			str(t)
			num(len(s.tags[t]))
		}
	case depNotes:
		for _, n := range s.notes {
			str(n.Path, string(n.Kind))
		}
	// Claims and daily logs are read each with its card or listing, whose
	// keys change when it goes or changes: the lists' own values are their
	// sizes.
	case depClaims:
		num(len(s.mem.claims))
	case depDaily:
		num(len(s.mem.daily))
	case depRuns:
		for _, n := range s.mem.runs {
			str(n.Path)
		}
		str("|")
		for _, n := range s.mem.dreams {
			str(n.Path)
		}
	case depBudget:
		if res := s.mem.result; res != nil {
			if b := res.Budget; b != nil {
				str("+", b.File)
				for _, x := range []int{b.Chars, b.Lines, b.Bytes, b.MaxChars, b.TargetChars, b.MaxLines, b.MaxBytes} {
					num(x)
				}
			}
			for _, ch := range res.Chains {
				str(ch.Claims...)
				for _, t := range ch.Dates {
					str(t.String())
				}
				str("|")
			}
		}
	}
	return h.Sum64()
}

// dirty are the pages an update reaches: shown are those that read
// something they show (depKind.shows) that changed, listed those that
// only read summaries of it.
type dirty struct {
	shown, listed map[pageKey]bool
}

// invalidate brings every key up to date with s after d and returns the
// pages that read a value that changed. moved are the vault paths whose URL may
// have changed, allMoved says every URL may have: the URL keys of other
// notes are not checked (a URL is made only when notes come or go).
// notes says whether the published notes or their kinds may have changed
// (depNotes is checked then only).
func (g *depGraph) invalidate(s *site, d vault.Delta, moved []string, allMoved, notes bool) dirty {
	dt := dirty{shown: map[pageKey]bool{}, listed: map[pageKey]bool{}}
	mark := func(ks *keyState) {
		for p := range ks.readers {
			if ks.dep.kind.shows() {
				dt.shown[p.key] = true
			} else {
				dt.listed[p.key] = true
			}
		}
	}
	// Only a path d names can hold another note or links resolved anew
	// (a note resolved again to the same targets is not listed, and
	// reads the same). At 10,000 notes, asking every subject costs more
	// than the rest of a small edit's update.
	for _, n := range slices.Concat(d.Changed, d.Removed, d.Relinked) {
		path := n.Path
		sub := g.subjects[path]
		if sub == nil {
			continue
		}
		n := s.v.Note(path)
		if n == sub.note && linksOf(n) == sub.links {
			continue
		}
		sub.note, sub.links = n, linksOf(n)
		for _, ks := range sub.keys {
			if g.refresh(s, ks) {
				mark(ks)
			}
		}
	}
	for _, p := range moved {
		if ks := g.derived[depURL][p]; ks != nil && g.refresh(s, ks) {
			mark(ks)
		}
	}
	// A note's backlinks change only where the vault says so: at the
	// paths of notes that changed or went, and of those it lists as
	// Backlinked. Asking each note's, 10,000 of them, cost more than the
	// rest of a small edit's check.
	for _, n := range slices.Concat(d.Changed, d.Removed, d.Backlinked) {
		if ks := g.derived[depBacklinks][n.Path]; ks != nil && g.refresh(s, ks) {
			mark(ks)
		}
	}
	// A folder's listing and the note made from a workspace path change
	// only where the update patched them, when it did.
	for _, c := range []struct {
		kind    depKind
		patched map[string]bool
	}{{depFolder, s.patchedFolders}, {depSource, s.mem.resourced}} {
		if c.patched == nil {
			continue
		}
		for p := range c.patched {
			if ks := g.derived[c.kind][p]; ks != nil && g.refresh(s, ks) {
				mark(ks)
			}
		}
	}
	for kind, m := range g.derived {
		if kind == depURL && !allMoved || kind == depNotes && !notes || kind == depBacklinks ||
			kind == depFolder && s.patchedFolders != nil || kind == depSource && s.mem.resourced != nil {
			continue
		}
		for _, ks := range m {
			if g.refresh(s, ks) {
				mark(ks)
			}
		}
	}
	for k := range dt.shown {
		delete(dt.listed, k)
	}
	return dt
}
