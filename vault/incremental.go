package vault

import (
	"maps"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/parallel"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Delta is what Update changed, for stages that update incrementally too
// (the site re-renders what depends on it).
type Delta struct {
	// Changed are the notes of the new vault that are new values: added,
	// or made again from a changed input. Sorted by path.
	Changed []*Note
	// Replaced maps each changed note that had an earlier value at the
	// same path to that earlier value.
	Replaced map[*Note]*Note
	// Removed are the earlier notes whose path is gone, sorted by path.
	Removed []*Note
	// Relinked are notes kept from the earlier vault whose links resolve
	// differently now that a note they point to changed (an anchor that
	// moved or broke). Only the notes linking to a changed note are
	// resolved again, and only those whose resolutions differ are listed.
	Relinked []*Note
	// Backlinked are the notes of the new vault, changed or kept, whose
	// backlinks (Vault.Backlinks) are not what the earlier vault gave for
	// the note at their path, besides the changed ones: a note linking to
	// them came, went or now links elsewhere. Sorted by path.
	Backlinked []*Note
	// Names is true when the set of names links resolve against (paths,
	// aliases, workspace paths, assets, private files) changed: the name
	// indexes were made again, and every link that can name what came,
	// went or changed was resolved again (listed in Relinked when it now
	// resolves elsewhere).
	Names bool
}

// incState is what a vault keeps of the inputs it was made from, so that
// Update can tell which notes changed and patch the rest in place.
type incState struct {
	given  []string  // the inputs' paths as given, before uniquePaths
	inputs []Input   // the inputs as parsed (unique paths), in input order
	dups   diag.List // what uniquePaths reported
	// pos[i] is the index in Notes of inputs[i]; nil until an Update needs it.
	pos []int
	// linkDiags are each note's broken links and anchors.
	linkDiags map[*Note]diag.List
	// links indexes the notes by the keys of their links' targets, made
	// when names first change.
	links *linkIndex
}

// givenPaths lists the paths of inputs.
func givenPaths(inputs []Input) []string {
	out := make([]string, len(inputs))
	for i, in := range inputs {
		out[i] = in.Path
	}
	return out
}

// Update returns the vault that Build(eng, inputs, assets, withheld) returns, made
// from v with as little work as the change needs: a note whose input is
// unchanged is kept (the same *Note), only changed inputs are parsed, and
// when no name changed only the links of changed notes and of the notes
// linking to them are resolved again. When the inputs have the same paths
// as before (an edit), v's indexes are patched in place rather than made
// again. A test holds the result to Build's.
//
// Update takes v over: v and the Delta's earlier notes must not be used
// afterwards except to read what they held. Notes themselves are never
// changed, except for the Links of notes resolved again: another goroutine
// may keep reading v.Notes (and every field of a note but Links) while
// Update runs.
func (v *Vault) Update(eng *markdown.Engine, inputs []Input, assets []*Asset, withheld []string) (*Vault, Delta) {
	set := withheldSet(withheld)
	// A file that became private or public changes what names resolve
	// to: that is for updateAll.
	if st := v.inc; st != nil && len(st.given) == len(inputs) && sameSet(set, v.withheld) {
		same := true
		for i := range inputs {
			if inputs[i].Path != st.given[i] {
				same = false
				break
			}
		}
		if same {
			return v.updateInPlace(eng, inputs, assets)
		}
	}
	return v.updateAll(eng, inputs, assets, set)
}

// updateInPlace is Update when every input has the path it had: the same
// notes in the same order, some of them new values.
func (v *Vault) updateInPlace(eng *markdown.Engine, inputs []Input, assets []*Asset) (*Vault, Delta) {
	st := v.inc
	if st.pos == nil {
		st.pos = positions(v.Notes, st.inputs)
	}
	d := Delta{Replaced: map[*Note]*Note{}}
	notes := append([]*Note(nil), v.Notes...)
	var parse []int
	for i := range inputs {
		in := &inputs[i]
		prev := &st.inputs[i]
		if in.Text == prev.Text && in.Claim == prev.Claim && in.Dream == prev.Dream && in.Source == prev.Source &&
			in.Kind == prev.Kind && in.Date == prev.Date && in.Private == prev.Private && in.From == prev.From &&
			sameProps(in.Props, prev.Props) {
			continue // the very same input: nothing to compare further
		}
		next := *in
		next.Path = prev.Path
		old := notes[st.pos[i]]
		switch {
		case sameNote(*prev, next):
			// The note is kept as it is, with its earlier (equal) claim
			// and dream values: notes are never changed once made, except
			// for their links, so other goroutines may read them.
			st.inputs[i] = next
			continue
		case sameParse(*prev, next):
			notes[st.pos[i]] = noteOf(next, old.Doc)
		default:
			parse = append(parse, i)
		}
		st.inputs[i] = next
	}
	parsed := make([]*Note, len(st.inputs))
	parseSome(eng, st.inputs, parse, parsed)
	for _, i := range parse {
		notes[st.pos[i]] = parsed[i]
	}
	nv := &Vault{Notes: notes, Names: v.Names, byPath: v.byPath, byDoc: v.byDoc,
		assets: make(map[string]*Asset, len(assets)), withheld: v.withheld, backlinks: v.backlinks, links: v.links, inc: st}
	for k, n := range notes {
		if prev := v.Notes[k]; prev != n {
			d.Changed = append(d.Changed, n)
			d.Replaced[n] = prev
			nv.byPath[n.Path] = n
			if prev.Doc != n.Doc {
				delete(nv.byDoc, prev.Doc)
			}
			nv.byDoc[n.Doc] = n
		}
	}
	nv.Assets = append(nv.Assets, assets...)
	sort.Slice(nv.Assets, func(i, j int) bool { return nv.Assets[i].Path < nv.Assets[j].Path })
	for _, a := range nv.Assets {
		nv.assets[a.Path] = a
	}
	nv.Diagnostics = append(nv.Diagnostics, st.dups...)
	for _, n := range notes {
		nv.Diagnostics = append(nv.Diagnostics, n.Doc.Diagnostics...)
	}

	d.Names = !sameAssets(v.Assets, nv.Assets)
	for _, n := range d.Changed {
		prev := d.Replaced[n]
		if prev.Doc != n.Doc && !reflect.DeepEqual(prev.Doc.Meta.Aliases, n.Doc.Meta.Aliases) || prev.Source != n.Source {
			d.Names = true
		}
	}
	nv.relinkChanged(v, &d)
	return nv, d
}

// updateAll is Update when notes were added, removed or renamed: the
// vault's indexes are made again, reusing every note it can.
func (v *Vault) updateAll(eng *markdown.Engine, inputs []Input, assets []*Asset, withheld map[string]bool) (*Vault, Delta) {
	var d Delta
	nv := &Vault{
		byPath:   make(map[string]*Note, len(inputs)),
		byDoc:    make(map[*markdown.Doc]*Note, len(inputs)),
		assets:   make(map[string]*Asset, len(assets)),
		withheld: withheld,
		links:    v.links,
		Names:    v.Names,
	}
	given := givenPaths(inputs)
	inputs = uniquePaths(inputs, &nv.Diagnostics)
	nv.inc = &incState{given: given, inputs: inputs, dups: append(diag.List(nil), nv.Diagnostics...), linkDiags: map[*Note]diag.List{}}
	if v.inc != nil {
		nv.inc.linkDiags, nv.inc.links = v.inc.linkDiags, v.inc.links
	}
	var prevInputs map[string]Input
	if v.inc != nil {
		prevInputs = make(map[string]Input, len(v.inc.inputs))
		for _, in := range v.inc.inputs {
			prevInputs[in.Path] = in
		}
	}

	notes := make([]*Note, len(inputs))
	var parse []int
	for i, in := range inputs {
		old := v.byPath[in.Path]
		prev, known := prevInputs[in.Path]
		switch {
		case old == nil || !known:
			parse = append(parse, i)
		case sameNote(prev, in):
			// Claims and dreams are compared by value; the kept note
			// keeps its earlier, equal values.
			notes[i] = old
		case sameParse(prev, in):
			notes[i] = noteOf(in, old.Doc)
		default:
			parse = append(parse, i)
		}
	}
	parseSome(eng, inputs, parse, notes)
	sort.Slice(notes, func(i, j int) bool { return notes[i].Path < notes[j].Path })
	nv.Notes = notes

	nv.Assets = append(nv.Assets, assets...)
	sort.Slice(nv.Assets, func(i, j int) bool { return nv.Assets[i].Path < nv.Assets[j].Path })

	d.Replaced = map[*Note]*Note{}
	for _, n := range notes {
		nv.byPath[n.Path] = n
		nv.byDoc[n.Doc] = n
		nv.Diagnostics = append(nv.Diagnostics, n.Doc.Diagnostics...)
		old := v.byPath[n.Path]
		if old == n {
			continue
		}
		d.Changed = append(d.Changed, n)
		if old != nil {
			d.Replaced[n] = old
		}
	}
	for _, n := range v.Notes {
		if nv.byPath[n.Path] == nil {
			d.Removed = append(d.Removed, n)
		}
	}
	for _, a := range nv.Assets {
		nv.assets[a.Path] = a
	}

	d.Names = !sameNames(v, nv)
	nv.backlinks = v.backlinks
	nv.relinkChanged(v, &d)
	return nv, d
}

// relinkChanged resolves again the links a delta can change, from old
// (taken over): the changed notes', those of the notes linking to a
// changed or removed note, and, when names changed (d.Names), those whose
// target can name an entry that came, went or changed (markdown.LinkKeys)
// after the name indexes are made again. It keeps each note's link
// diagnostics and adds every diagnostic of the vault, sorted.
func (nv *Vault) relinkChanged(old *Vault, d *Delta) {
	st := nv.inc
	st.reindex(nv, d)
	var also []*Note
	if d.Names {
		gone, came := nameChanges(old, nv, d)
		if ix, ok := old.Names.Patch(gone, came); ok {
			nv.Names = ix
		} else {
			nv.Names = nameIndex(nv.Notes, nv.Assets, nv.withheld)
		}
		also = nv.renamed(d, slices.Concat(gone, came))
	}
	for _, n := range nv.relink(old, d, also) {
		if ds := noteLinkDiagnostics(n); len(ds) > 0 {
			st.linkDiags[n] = ds
		} else {
			delete(st.linkDiags, n)
		}
	}
	for _, prev := range d.Replaced {
		delete(st.linkDiags, prev)
	}
	for _, n := range d.Removed {
		delete(st.linkDiags, n)
	}
	for _, n := range nv.Notes {
		nv.Diagnostics = append(nv.Diagnostics, st.linkDiags[n]...)
	}
	nv.Diagnostics.Sort()
}

// linkIndex finds the notes holding links under a key of
// markdown.LinkKeys.
type linkIndex struct {
	byName, byAlias map[string]map[*Note]struct{}
}

func (ix *linkIndex) update(n *Note, add bool) {
	put := func(m map[string]map[*Note]struct{}, k string) {
		if add {
			if m[k] == nil {
				m[k] = map[*Note]struct{}{}
			}
			m[k][n] = struct{}{}
			return
		}
		delete(m[k], n)
		if len(m[k]) == 0 {
			delete(m, k)
		}
	}
	for _, l := range n.Doc.Links {
		names, alias := markdown.LinkKeys(l.Target)
		for _, k := range names {
			put(ix.byName, k)
		}
		if alias != "" {
			put(ix.byAlias, alias)
		}
	}
}

// reindex brings the link index (when there is one) up to date with d.
func (st *incState) reindex(nv *Vault, d *Delta) {
	if st.links == nil {
		return
	}
	for _, n := range d.Changed {
		if prev := d.Replaced[n]; prev != nil {
			st.links.update(prev, false)
		}
		st.links.update(n, true)
	}
	for _, n := range d.Removed {
		st.links.update(n, false)
	}
}

// nameChanges lists the name index entries d changes, from old to nv:
// gone are the earlier entries of notes, assets and private files that
// went or changed, came the entries that came or changed.
func nameChanges(old, nv *Vault, d *Delta) (gone, came []markdown.IndexEntry) {
	for _, n := range d.Changed {
		prev := d.Replaced[n]
		if prev == nil || prev.Source != n.Source || !reflect.DeepEqual(prev.Doc.Meta.Aliases, n.Doc.Meta.Aliases) {
			came = append(came, noteEntry(n))
			if prev != nil {
				gone = append(gone, noteEntry(prev))
			}
		}
	}
	for _, n := range d.Removed {
		gone = append(gone, noteEntry(n))
	}
	assets := map[string]*Asset{}
	for _, a := range old.Assets {
		assets[a.Path] = a
	}
	for _, a := range nv.Assets {
		if o := assets[a.Path]; o == nil || o.Source != a.Source {
			came = append(came, assetEntry(a))
			if o != nil {
				gone = append(gone, assetEntry(o))
			}
		}
		delete(assets, a.Path)
	}
	for _, p := range slices.Sorted(maps.Keys(assets)) {
		gone = append(gone, assetEntry(assets[p]))
	}
	for _, p := range slices.Sorted(maps.Keys(old.withheld)) {
		if !nv.withheld[p] {
			gone = append(gone, markdown.IndexEntry{Path: p})
		}
	}
	for _, p := range slices.Sorted(maps.Keys(nv.withheld)) {
		if !old.withheld[p] {
			came = append(came, markdown.IndexEntry{Path: p})
		}
	}
	return gone, came
}

// renamed returns the notes, other than changed ones, with a link whose
// keys are those of one of the entries (nameChanges): a name that came,
// went or changed.
func (nv *Vault) renamed(d *Delta, entries []markdown.IndexEntry) []*Note {
	st := nv.inc
	if st.links == nil {
		st.links = &linkIndex{byName: map[string]map[*Note]struct{}{}, byAlias: map[string]map[*Note]struct{}{}}
		for _, n := range nv.Notes {
			st.links.update(n, true)
		}
	}
	names, aliases := map[string]bool{markdown.AnyName: true}, map[string]bool{}
	for _, e := range entries {
		ns, as := markdown.EntryKeys(e)
		for _, k := range ns {
			names[k] = true
		}
		for _, k := range as {
			aliases[k] = true
		}
	}
	changed := make(map[*Note]bool, len(d.Changed))
	for _, n := range d.Changed {
		changed[n] = true
	}
	found := map[*Note]bool{}
	for _, m := range []struct {
		keys  map[string]bool
		index map[string]map[*Note]struct{}
	}{{names, st.links.byName}, {aliases, st.links.byAlias}} {
		for k := range m.keys {
			for n := range m.index[k] {
				if !changed[n] && nv.byPath[n.Path] == n {
					found[n] = true
				}
			}
		}
	}
	out := make([]*Note, 0, len(found))
	for n := range found {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// noteEntry is a note as the name index holds it (see nameIndex).
func noteEntry(n *Note) markdown.IndexEntry {
	e := markdown.IndexEntry{Path: n.Path, Aliases: n.Doc.Meta.Aliases}
	if n.Source != "" && n.Source != n.Path {
		e.AltPaths = []string{n.Source}
	}
	return e
}

// assetEntry is an asset as the name index holds it.
func assetEntry(a *Asset) markdown.IndexEntry {
	e := markdown.IndexEntry{Path: a.Path}
	if a.Source != "" && a.Source != a.Path {
		e.AltPaths = []string{a.Source}
	}
	return e
}

// positions finds where each input's note sits in notes (sorted by path).
func positions(notes []*Note, inputs []Input) []int {
	pos := make([]int, len(inputs))
	for i, in := range inputs {
		pos[i] = sort.Search(len(notes), func(k int) bool { return notes[k].Path >= in.Path })
	}
	return pos
}

// sameAssets reports whether two sorted asset lists name the same files.
func sameAssets(a, b []*Asset) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Path != b[i].Path || a[i].Source != b[i].Source {
			return false
		}
	}
	return true
}

// relink resolves again the links of changed notes, of the notes linking
// to a changed or removed note and of the notes also, patches the
// backlinks (taking the map over) and returns every note it resolved
// again. No other link can resolve differently (see relinkChanged).
func (v *Vault) relink(old *Vault, d *Delta, also []*Note) []*Note {
	gone := map[*Note]bool{} // earlier values no longer in the vault
	for _, n := range d.Replaced {
		gone[n] = true
	}
	for _, n := range d.Removed {
		gone[n] = true
	}
	relink := map[*Note]bool{}
	for n := range gone {
		for _, src := range old.backlinks[n] {
			if v.byPath[src.Path] == src {
				relink[src] = true
			}
		}
	}
	for _, n := range also {
		relink[n] = true
	}
	for _, n := range d.Changed {
		delete(relink, n)
	}
	relinked := make([]*Note, 0, len(relink))
	for n := range relink {
		relinked = append(relinked, n)
	}
	sort.Slice(relinked, func(i, j int) bool { return relinked[i].Path < relinked[j].Path })
	before := make(map[*Note]string, len(relinked))
	for _, n := range relinked {
		before[n] = resolved(n)
	}

	// Backlinks: the lists of gone notes go; every list about to change
	// is copied first, so a list the earlier vault shares is never written.
	bl := old.backlinks
	for n := range gone {
		delete(bl, n)
	}
	touched := map[*Note]bool{}
	drop := func(src *Note, links []Resolution) {
		for _, r := range links {
			t := r.Note
			if t == nil || t == src || gone[t] || touched[t] {
				continue
			}
			touched[t] = true
			bl[t] = append([]*Note(nil), bl[t]...)
		}
	}
	// The earlier contributions of everything re-resolved go first.
	for n := range gone {
		drop(n, n.Links)
	}
	for _, n := range relinked {
		drop(n, n.Links)
	}
	for _, n := range d.Removed {
		for _, l := range n.Doc.Links {
			delete(v.links, l)
		}
	}
	for _, n := range d.Changed {
		if prev := d.Replaced[n]; prev != nil && prev.Doc != n.Doc {
			for _, l := range prev.Doc.Links {
				delete(v.links, l)
			}
		}
	}
	remove := map[*Note]bool{}
	for n := range gone {
		remove[n] = true
	}
	for _, n := range relinked {
		remove[n] = true
	}
	for t := range touched {
		kept := bl[t][:0]
		for _, s := range bl[t] {
			if !remove[s] {
				kept = append(kept, s)
			}
		}
		bl[t] = kept
	}
	add := func(n *Note) {
		v.resolveNote(n)
		for _, r := range n.Links {
			if r.Note == nil || r.Note == n {
				continue
			}
			if !touched[r.Note] {
				touched[r.Note] = true
				bl[r.Note] = append([]*Note(nil), bl[r.Note]...)
			}
			bl[r.Note] = append(bl[r.Note], n)
		}
	}
	for _, n := range d.Changed {
		add(n)
	}
	for _, n := range relinked {
		add(n)
		if resolved(n) != before[n] {
			d.Relinked = append(d.Relinked, n)
		}
	}
	changed := make(map[*Note]bool, len(d.Changed))
	for _, n := range d.Changed {
		changed[n] = true
	}
	for t := range touched {
		if v.byPath[t.Path] == t && !changed[t] {
			d.Backlinked = append(d.Backlinked, t)
		}
		if len(bl[t]) == 0 {
			delete(bl, t)
			continue
		}
		bl[t] = uniqueNotes(bl[t])
	}
	sort.Slice(d.Backlinked, func(i, j int) bool { return d.Backlinked[i].Path < d.Backlinked[j].Path })
	v.backlinks = bl
	return append(append([]*Note(nil), d.Changed...), relinked...)
}

// resolved describes where a note's links point, for comparisons.
func resolved(n *Note) string {
	var b strings.Builder
	for _, r := range n.Links {
		switch {
		case r.Broken:
			b.WriteString("!")
		case r.Private:
			b.WriteString("?")
		case r.Note != nil:
			b.WriteString(r.Note.Path)
		case r.Asset != nil:
			b.WriteString(r.Asset.Path)
		}
		b.WriteString("#")
		b.WriteString(r.Anchor)
		b.WriteString("\n")
	}
	return b.String()
}

// sameNote reports whether a note made from b would equal the one made
// from a, so the earlier note can be kept.
func sameNote(a, b Input) bool {
	return sameParse(a, b) && a.Kind == b.Kind && a.Date == b.Date && a.Private == b.Private && a.From == b.From &&
		reflect.DeepEqual(a.Props, b.Props) &&
		sameClaim(a.Claim, b.Claim) &&
		(a.Dream == b.Dream || a.Dream != nil && b.Dream != nil && reflect.DeepEqual(*a.Dream, *b.Dream))
}

// sameClaim compares two claims by value. Their workspace entries are
// left out: an entry points into its file's parse, which is new whenever
// the file changed, while every fact a note shows of it is a field of the
// claim itself.
func sameClaim(a, b *provenance.Claim) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	x, y := *a, *b
	x.Entry, y.Entry = nil, nil
	return reflect.DeepEqual(x, y)
}

// sameProps reports whether two property lists are the same slice, or
// equal.
func sameProps(a, b Props) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	return &a[0] == &b[0] && len(a) == len(b) || reflect.DeepEqual(a, b)
}

// sameParse reports whether b parses to what a parsed to. Text that is
// the same string is compared in constant time.
func sameParse(a, b Input) bool {
	return a.Path == b.Path && a.Source == b.Source && a.Text == b.Text
}

// sameNames reports whether the two vaults resolve names alike: the same
// notes by path with the same aliases and workspace paths, the same
// assets and the same private files. Notes are sorted by path in both.
func sameNames(a, b *Vault) bool {
	if len(a.Notes) != len(b.Notes) || len(a.Assets) != len(b.Assets) || !sameSet(a.withheld, b.withheld) {
		return false
	}
	for i, n := range b.Notes {
		o := a.Notes[i]
		if o.Path != n.Path {
			return false
		}
		if o == n || o.Doc == n.Doc {
			continue
		}
		if o.Source != n.Source || !reflect.DeepEqual(o.Doc.Meta.Aliases, n.Doc.Meta.Aliases) {
			return false
		}
	}
	for i, x := range b.Assets {
		if y := a.Assets[i]; x.Path != y.Path || x.Source != y.Source {
			return false
		}
	}
	return true
}

// nameIndex builds the name index of a vault (see Build): links resolve
// to private files too, as Obsidian would resolve them, and are then
// shown as plain text.
func nameIndex(notes []*Note, assets []*Asset, withheld map[string]bool) *markdown.NameIndex {
	entries := make([]markdown.IndexEntry, 0, len(notes)+len(assets)+len(withheld))
	for _, n := range notes {
		entries = append(entries, noteEntry(n))
	}
	for _, a := range assets {
		entries = append(entries, assetEntry(a))
	}
	private := make([]string, 0, len(withheld))
	for p := range withheld {
		private = append(private, p)
	}
	sort.Strings(private)
	for _, p := range private {
		entries = append(entries, markdown.IndexEntry{Path: p})
	}
	return markdown.NewNameIndex(entries)
}

// sameSet reports whether two sets hold the same members.
func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// withheldSet is the set of the paths withheld.
func withheldSet(withheld []string) map[string]bool {
	set := make(map[string]bool, len(withheld))
	for _, p := range withheld {
		set[p] = true
	}
	return set
}

// parseSome parses inputs[i] for each i in idx into notes[i], on every core.
func parseSome(eng *markdown.Engine, inputs []Input, idx []int, notes []*Note) {
	parallel.For(len(idx), runtime.GOMAXPROCS(0), func(k int) {
		i := idx[k]
		notes[i] = newNote(eng, inputs[i])
	})
}

// Assembly is what Assemble made of a workspace and a provenance result,
// kept so that the inputs of the next state can be made from it (Next)
// with only the work the change needs: a file's input is made again when
// the file or the claim links and block ids provenance adds to it
// changed, a claim's when the claim (provenance gives an unchanged claim
// back as the same value) or a claim its note links to changed. Dreams
// and reports, made of many claims, are made again each time.
type Assembly struct {
	ws     *workspace.Workspace
	res    *provenance.Result
	inputs []Input
	assets []*Asset
	edits  map[string]map[int]*lineEdit
	// base is the read of the workspace whose line numbers edits are in:
	// the one res was made of. shifted holds, for each file edited since
	// (rendered before provenance runs again), the edits moved to its
	// lines now.
	base    *workspace.Workspace
	shifted map[string]map[int]*lineEdit
	// files are the indexes in inputs of each file's input, by workspace
	// path; claims those of each claim's.
	files  map[string]int
	claims map[*provenance.Claim]int
	// made is the index in inputs of the first input made of the result
	// (claims, then dreams and reports) rather than of a file.
	made int
}

// NewAssembly is Assemble(ws, res), kept for Next.
func NewAssembly(ws *workspace.Workspace, res *provenance.Result) *Assembly {
	return (*Assembly)(nil).Next(ws, res)
}

// Inputs returns the inputs and assets, as Assemble returns them. They
// belong to the Assembly: the caller must not change them.
func (a *Assembly) Inputs() ([]Input, []*Asset) { return a.inputs, a.assets }

// Next returns the Assembly of ws and res, reusing what a (nil: nothing)
// made that the change leaves as it was. Its inputs are the ones
// Assemble(ws, res) returns.
func (a *Assembly) Next(ws *workspace.Workspace, res *provenance.Result) *Assembly {
	n := &Assembly{ws: ws, res: res}
	// The same file paths locate every note where they did, and put each
	// file's input where it was: the index of the files is a's.
	samePaths := a != nil && samePathsAs(a.ws, ws)
	switch {
	case samePaths:
		n.inputs = make([]Input, 0, len(a.inputs)+16)
		n.files, n.claims = a.files, make(map[*provenance.Claim]int, len(a.claims))
	case a != nil:
		n.inputs = make([]Input, 0, len(a.inputs)+16)
		n.files, n.claims = make(map[string]int, len(a.files)), make(map[*provenance.Claim]int, len(a.claims))
	default:
		n.files, n.claims = map[string]int{}, map[*provenance.Claim]int{}
	}
	sameResult := a != nil && res == a.res
	n.base = ws
	switch {
	case sameResult:
		// An edit rendered before provenance runs again: the same result
		// makes the same edits, at the lines of the files it read.
		n.edits, n.base = a.edits, a.base
		n.shifted = maps.Clone(a.shifted)
	case res != nil:
		n.edits = lineEdits(res)
	}
	var dates map[string]string // made on first use: most files' inputs are kept
	for k, f := range ws.Files {
		if kept, i := a.fileInput(k, f, samePaths, len(n.inputs)); kept && (sameResult || sameEdits(a.applied(f.Path), n.edits[f.Path])) {
			if !samePaths {
				n.files[f.Path] = len(n.inputs)
			}
			n.inputs = append(n.inputs, a.inputs[i])
			continue
		}
		if dates == nil {
			dates = fileDates(ws)
		}
		in, ok := fileInput(ws, f, dates[f.Path])
		if !ok {
			continue
		}
		if es := n.fileEdits(f); es != nil && isMarkdown(in.Source) {
			in.Text = applyEdits(in.Text, es)
		}
		if !samePaths {
			n.files[f.Path] = len(n.inputs)
		}
		n.inputs = append(n.inputs, in)
	}
	n.assets = workspaceAssets(ws)
	if res == nil {
		return n
	}
	if a != nil && res == a.res && samePaths {
		// An edit rendered before provenance runs again: the inputs made
		// of the result are the ones a made (with the same paths, every
		// file is public and locates where it did).
		n.claims, n.made = a.claims, len(n.inputs)
		if n.made != a.made {
			n.claims = make(map[*provenance.Claim]int, len(a.claims))
			for c, i := range a.claims {
				n.claims[c] = i - a.made + n.made
			}
		}
		n.inputs = append(n.inputs, a.inputs[a.made:]...)
		return n
	}
	n.made = len(n.inputs)
	locate := Locator(ws)
	for _, c := range res.Claims {
		n.claims[c] = len(n.inputs)
		if i, ok := a.claimAt(c); ok && samePaths && res.AsOf.Equal(a.res.AsOf) && a.sameLinks(c, res) {
			n.inputs = append(n.inputs, a.inputs[i])
			continue
		}
		n.inputs = append(n.inputs, claimInput(c, res, locate))
	}
	for _, d := range res.Dreams {
		n.inputs = append(n.inputs, dreamInput(d, res, locate))
	}
	if len(res.Claims) > 0 || res.Budget != nil || len(res.Findings) > 0 {
		private := func(p string) bool { f := ws.FileByPath(p); return f != nil && f.Private }
		n.inputs = append(n.inputs, reportInputs(res, locate, private)...)
	}
	return n
}

// fileInput reports whether a made an input of f, the k-th file of the
// next workspace, and its index in a.inputs. With the same paths (the
// file's input is then at next, where the next Assembly's inputs are),
// f is compared with a's k-th file, without looking its path up.
func (a *Assembly) fileInput(k int, f *workspace.File, samePaths bool, next int) (bool, int) {
	switch {
	case a == nil:
		return false, 0
	case samePaths:
		return a.ws.Files[k] == f && f.Kind != workspace.KindData, next
	}
	i, ok := a.files[f.Path]
	return ok && a.ws.FileByPath(f.Path) == f, i
}

// applied are the edits a's input of the file at path p was made with.
func (a *Assembly) applied(p string) map[int]*lineEdit {
	if es, ok := a.shifted[p]; ok {
		return es
	}
	return a.edits[p]
}

// fileEdits are the edits to make to f's text. A file edited since the
// result was made keeps the edits of the lines it still has, moved to
// where they are now, and loses those of lines that changed: until
// provenance runs again, a claim link or block id is never put on a line
// it was not made for.
func (a *Assembly) fileEdits(f *workspace.File) map[int]*lineEdit {
	es := a.edits[f.Path]
	if a.base == a.ws {
		return es
	}
	delete(a.shifted, f.Path)
	old := a.base.FileByPath(f.Path)
	if old == nil || old.Content == f.Content {
		return es
	}
	moved := shiftEdits(es, old.Content, f.Content)
	if a.shifted == nil {
		a.shifted = map[string]map[int]*lineEdit{}
	}
	a.shifted[f.Path] = moved
	return moved
}

// shiftEdits moves edits made for the lines of old to the same lines in
// cur: lines before the first changed line keep their numbers, lines
// after the last one move by the change in length, and edits of the
// lines between are dropped.
func shiftEdits(edits map[int]*lineEdit, old, cur string) map[int]*lineEdit {
	if len(edits) == 0 {
		return edits
	}
	a, b := strings.Split(old, "\n"), strings.Split(cur, "\n")
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	out := make(map[int]*lineEdit, len(edits))
	for ln, e := range edits {
		switch {
		case ln <= head:
			out[ln] = e
		case ln > len(a)-tail:
			out[ln+len(b)-len(a)] = e
		}
	}
	return out
}

// claimAt is the index of c's input in a, when a made one.
func (a *Assembly) claimAt(c *provenance.Claim) (int, bool) {
	if a == nil {
		return 0, false
	}
	i, ok := a.claims[c]
	return i, ok
}

// sameLinks reports whether every claim c's note names (its chain and
// contests) is the claim it was in a.
func (a *Assembly) sameLinks(c *provenance.Claim, res *provenance.Result) bool {
	for _, l := range c.Chain {
		if res.Claim(l.Claim) != a.res.Claim(l.Claim) {
			return false
		}
	}
	for _, id := range c.Contests {
		if res.Claim(id) != a.res.Claim(id) {
			return false
		}
	}
	return true
}

// samePathsAs reports whether two reads of a workspace have the same
// files at the same paths with the same kinds.
func samePathsAs(a, b *workspace.Workspace) bool {
	if len(a.Files) != len(b.Files) {
		return false
	}
	for i, f := range a.Files {
		if g := b.Files[i]; g.Path != f.Path || g.Kind != f.Kind {
			return false
		}
	}
	return true
}

// sameEdits reports whether two files' edits are the same.
func sameEdits(a, b map[int]*lineEdit) bool {
	if len(a) != len(b) {
		return false
	}
	for ln, x := range a {
		y, ok := b[ln]
		if !ok || x.id != y.id || !slices.Equal(x.links, y.links) {
			return false
		}
	}
	return true
}
