package site

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/vault"
)

// Incremental renders a site and then keeps it up to date as its vault
// changes (serve mode), rendering again only the pages a change reaches.
// Every page is rendered by the same code as Build; what Incremental adds
// is the choice of pages. After Update and Finish, the files written so
// far are byte for byte what Build writes for the new vault (tests in
// internal/build hold it to that).
//
// An update is in two steps, so that readers see their page change as soon
// as possible: Update renders the pages (note pages, lists, the graph)
// and Finish the site-wide files that no page depends on (search index,
// sitemap, feed, llms.txt, api/). Finish may be skipped when another
// change follows at once; the next Finish catches up.
//
// What a page depends on, and so when Update renders it again:
//
//   - a note page: the note; the notes it links to (their URLs and
//     anchors: the vault resolves those links again and reports them
//     Relinked); the notes it embeds, at any depth; the titles of the
//     notes linking to it (its backlinks); the explorer of its folder;
//     for a claim, the notes its card shows (evidence, the entry's own
//     file, chain, contests, dreams); marks of lapsed permissions;
//   - lists (home, folders, tags, graph): the titles, dates, kinds, tags
//     and links of their notes;
//   - memory views (dashboard, dream journal, conversations): claims,
//     dreams, daily logs and the provenance result;
//   - everything: the options, the set of published notes (the explorer
//     on every page counts them), their tags, folders and names. A change
//     to any of these renders the whole site.
//
// Incremental is not safe for concurrent use.
type Incremental struct {
	s       *site
	pending bool // Finish has work to do
}

// UpdateStats say what an Update rendered.
type UpdateStats struct {
	// Full is set when the change reached every page, so everything was
	// rendered: files of the earlier site that were not written again
	// (Deferred ones aside) are gone.
	Full bool
	// Pages and Files count what was written.
	Pages, Files int
	// Notes are the note pages rendered, sorted.
	Notes []string
}

// Deferred reports whether a site file is written by Finish rather than
// Update: the search index and page, the sitemap, the feed and the
// outputs for agents.
func Deferred(name string) bool {
	switch name {
	case "search.html", "sitemap.xml", feedPath, "llms.txt", "llms-full.txt", "api/pages.json", "api/claims.json":
		return true
	}
	return strings.HasPrefix(name, "search/")
}

// Update renders into w what differs between the site of the last Update
// (nil at first: everything) and the site of v, where v is what
// vault.Update made from the last vault with delta d. Unless the stats say
// Full, only changed files are written.
func (inc *Incremental) Update(ctx context.Context, eng *markdown.Engine, v *vault.Vault, d vault.Delta, opts Options, w output.Writer) (UpdateStats, error) {
	inc.pending = true
	old := inc.s
	inc.s = nil // a failed update leaves nothing to build on
	if err := public(v); err != nil {
		return UpdateStats{}, err
	}
	opts = opts.normalised(v)
	var s *site
	var dirty *dirtySet
	if old != nil && reflect.DeepEqual(opts, old.opts) {
		s, dirty = patch(old, v, d, w)
	}
	if s == nil {
		var err error
		if s, err = newSite(eng, v, opts, w); err != nil {
			return UpdateStats{}, err
		}
		s.twins, s.docs = map[*vault.Note][]byte{}, map[*vault.Note]search.Doc{}
		if err := s.renderAll(ctx, false); err != nil {
			return UpdateStats{}, err
		}
		inc.s = s
		st := UpdateStats{Full: true, Pages: s.stats.Pages, Files: s.stats.Files}
		for _, n := range s.notes {
			st.Notes = append(st.Notes, s.pages[n])
		}
		sort.Strings(st.Notes)
		return st, nil
	}
	if err := s.renderDirty(ctx, dirty); err != nil {
		return UpdateStats{}, err
	}
	inc.s = s
	st := UpdateStats{Pages: s.stats.Pages, Files: s.stats.Files}
	for n := range dirty.notes {
		st.Notes = append(st.Notes, s.pages[n])
	}
	sort.Strings(st.Notes)
	return st, nil
}

// Finish writes the deferred files (see Deferred) of the site of the last
// Update into w: every one of them, when Update rendered anything since
// the last Finish.
func (inc *Incremental) Finish(ctx context.Context, w output.Writer) error {
	s := inc.s
	if s == nil || !inc.pending {
		return nil
	}
	s.w = w
	defer func() { s.w = nil }()
	if err := s.writeSearch(ctx); err != nil {
		return err
	}
	s.listed = uniqueStrings(s.listed)
	if err := s.writeDeferred(ctx); err != nil {
		return err
	}
	inc.pending = false
	return nil
}

// dirtySet is what an update renders again.
type dirtySet struct {
	notes   map[*vault.Note]bool
	home    bool
	folders map[string]bool
	tags    map[string]bool
	tagTree bool
	graph   bool
	memory  bool     // dashboard, dream journal, conversations
	navDirs []string // folders whose explorer changed: their list pages too
	assets  []*vault.Asset
}

// patch makes the site of v from old, which it takes over, when the
// change leaves the site's structure alone; it returns nil when it does
// not (a note added, removed, published or hidden, a tag or a name
// appearing or vanishing), and everything must be rendered.
func patch(old *site, v *vault.Vault, d vault.Delta, w output.Writer) (*site, *dirtySet) {
	if d.Names || len(d.Removed) > 0 || len(d.Replaced) != len(d.Changed) {
		return nil, nil
	}
	s := &site{eng: old.eng, v: v, opts: old.opts, bundle: old.bundle, layouts: old.layouts, assetMap: old.assetMap,
		w: w, twins: old.twins, docs: old.docs, notes: v.Notes}
	if len(s.notes) != len(old.notes) {
		return nil, nil
	}
	// Tags: the same tags on every changed note keep the tag lists (with
	// the new notes in them); other tags make the lists again, and a tag
	// appearing or vanishing changes the whole site.
	sameTags := true
	for n, prev := range d.Replaced {
		if !reflect.DeepEqual(n.Doc.Tags, prev.Doc.Tags) {
			sameTags = false
		}
	}
	if sameTags {
		s.tags = old.tags
	} else {
		s.collectTags()
		if len(s.tags) != len(old.tags) {
			return nil, nil
		}
		for t := range s.tags {
			if _, ok := old.tags[t]; !ok {
				return nil, nil
			}
		}
	}

	// From here on old is taken apart.
	dirty := &dirtySet{notes: map[*vault.Note]bool{}, folders: map[string]bool{}, tags: map[string]bool{}}
	s.pages = old.pages
	s.folders = old.folders
	for _, n := range d.Changed {
		prev := d.Replaced[n]
		s.forget(prev)
		page := old.pages[prev]
		delete(s.pages, prev)
		s.pages[n] = page
		f := s.folders[folderOf(page)]
		replaceNote(f.Notes, prev, n)
		listed := n.Title != prev.Title || n.Date != prev.Date
		if listed {
			sortNotes(f.Notes)
		}
		if sameTags {
			for _, t := range tagsWithParents(n.Doc.Tags) {
				replaceNote(s.tags[t], prev, n)
			}
		}
		// What lists show of a note.
		if listed || n.Kind != prev.Kind || !reflect.DeepEqual(n.Doc.Tags, prev.Doc.Tags) {
			dirty.home = true
			dirty.folders[folderOf(page)] = true
			for _, t := range tagsWithParents(prev.Doc.Tags) {
				dirty.tags[t] = true
			}
			for _, t := range tagsWithParents(n.Doc.Tags) {
				dirty.tags[t] = true
			}
			dirty.tagTree = dirty.tagTree || !sameTags
			dirty.graph = true
			// The titles in backlinks of the notes it links to.
			for _, r := range prev.Links {
				dirty.add(v, r.Note)
			}
		}
		if !sameTargets(prev, n) {
			dirty.graph = true
			for _, r := range prev.Links {
				dirty.add(v, r.Note)
			}
			for _, r := range n.Links {
				dirty.add(v, r.Note)
			}
		}
		dirty.add(v, n)
	}
	for _, n := range d.Relinked {
		dirty.add(v, n)
	}
	// Embeds show the embedded note: whoever embeds a changed note, at
	// any depth, changes with it.
	queue := append([]*vault.Note(nil), d.Changed...)
	seen := map[*vault.Note]bool{}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		for _, b := range v.Backlinks(n) {
			if embeds(b, n) {
				dirty.add(v, b)
				queue = append(queue, b)
			}
		}
	}

	s.renderNav()
	for dir, nav := range s.navByDir {
		if old.navByDir[dir] != nav {
			dirty.navDirs = append(dirty.navDirs, dir)
			if f := s.folders[dir]; f != nil {
				for _, n := range f.Notes {
					dirty.add(v, n)
				}
			}
		}
	}
	sort.Strings(dirty.navDirs)

	changed := map[string]*vault.Note{}
	claims := v.Provenance != old.v.Provenance
	for _, n := range d.Changed {
		changed[n.Path] = d.Replaced[n]
		if n.Claim != nil || n.Dream != nil || memoryKinds[n.Kind] {
			dirty.memory = true
		}
		claims = claims || n.Claim != nil || n.Dream != nil || d.Replaced[n].Claim != nil || d.Replaced[n].Dream != nil
	}
	if v.Provenance != old.v.Provenance {
		dirty.memory = true
		dirty.graph = true // claim tiers colour the graph
	}
	if claims {
		// Claims, their evidence or dreams changed: gather the memory
		// views' data again and find the cards showing what changed.
		s.mem = s.collectMemory()
		for _, ci := range s.mem.claims {
			if claimTouched(s, ci, changed) {
				dirty.add(v, ci.note)
				dirty.add(v, s.mem.bySource[ci.c.File]) // its evidence marker
			}
			if o := old.mem.byID[ci.ID]; o == nil || o.c.Backing() != ci.c.Backing() {
				// Lists show each claim's evidence marker.
				dirty.add(v, s.mem.bySource[ci.c.File])
				dirty.folders[folderOf(s.pages[ci.note])] = true
				for _, t := range tagsWithParents(ci.note.Doc.Tags) {
					dirty.tags[t] = true
				}
			}
		}
	} else {
		s.patchMemory(old.mem, d, changed, dirty)
	}
	for n, ids := range s.mem.lapsedBlocks {
		if !reflect.DeepEqual(ids, old.mem.lapsedBlocks[oldOf(d, n)]) {
			dirty.add(v, n)
		}
	}
	for n, ids := range old.mem.lapsedBlocks {
		if cur := v.Note(n.Path); cur != nil && len(s.mem.lapsedBlocks[cur]) == 0 && len(ids) > 0 {
			dirty.add(v, cur)
		}
	}
	for _, n := range d.Changed {
		if s.pages[n] == "index.html" {
			dirty.home = true
		}
	}
	for n := range dirty.notes {
		if s.pages[n] == "index.html" {
			delete(dirty.notes, n)
			dirty.home = true // the home page renders the memory index
		}
	}
	// Assets keep their paths here (new ones are new names); their bytes
	// may have changed.
	hashes := map[string]string{}
	for _, a := range old.v.Assets {
		hashes[a.Path] = a.Hash
	}
	for _, a := range v.Assets {
		if hashes[a.Path] != a.Hash {
			dirty.assets = append(dirty.assets, a)
		}
	}
	s.listed = old.listed
	return s, dirty
}

// patchMemory carries the memory views' data over to the notes of a
// delta that changed no claim, dream or provenance, taking old over: the
// changed notes take their earlier values' places, and the claims citing
// a changed note as evidence get their evidence (its anchors) read again;
// those whose cards show a changed note are marked dirty.
func (s *site) patchMemory(old *memory, d vault.Delta, changed map[string]*vault.Note, dirty *dirtySet) *memory {
	m := *old
	s.mem = &m
	if len(d.Replaced) == 0 {
		return s.mem
	}
	newOf := make(map[*vault.Note]*vault.Note, len(d.Replaced))
	for n, prev := range d.Replaced {
		newOf[prev] = n
	}
	swap := func(ns []*vault.Note) []*vault.Note {
		copied := false
		for i, n := range ns {
			if cur, ok := newOf[n]; ok {
				if !copied {
					ns, copied = append([]*vault.Note(nil), ns...), true
				}
				ns[i] = cur
			}
		}
		return ns
	}
	m.runs, m.dreams, m.daily = swap(old.runs), swap(old.dreams), swap(old.daily)
	for n, prev := range d.Replaced {
		if n.Source != "" && m.bySource[n.Source] == prev {
			m.bySource[n.Source] = n
		}
	}
	m.lapsedBlocks = make(map[*vault.Note][]string, len(old.lapsedBlocks))
	for n, ids := range old.lapsedBlocks {
		if cur, ok := newOf[n]; ok {
			n = cur
		}
		m.lapsedBlocks[n] = ids
	}
	// Evidence in a changed note: the claim keeps its text and excerpts
	// (provenance has not run), the note's anchors are read again.
	for i, ci := range m.claims {
		cites := false
		for _, e := range ci.Evidence {
			if _, ok := newOf[e.Note]; ok && e.Note != nil {
				cites = true
				break
			}
		}
		if !cites {
			continue
		}
		next := *ci
		next.Evidence = nil
		for _, e := range ci.c.Evidence {
			next.Evidence = append(next.Evidence, s.evidenceOf(e))
		}
		m.claims[i], m.byNote[ci.note], m.byID[ci.ID] = &next, &next, &next
		if claimTouched(s, &next, changed) {
			dirty.add(s.v, ci.note)
			dirty.add(s.v, s.mem.bySource[ci.c.File]) // its evidence marker
		}
	}
	return s.mem
}

// memoryKinds are the note kinds the memory views draw from.
var memoryKinds = map[vault.Kind]bool{
	vault.KindDaily: true, vault.KindDream: true, vault.KindClaim: true, vault.KindIndex: true,
	vault.KindTopic: true, vault.KindArchive: true, vault.KindConversation: true, vault.KindReport: true,
}

// add marks n's page for rendering; n may be nil or an earlier value.
func (d *dirtySet) add(v *vault.Vault, n *vault.Note) {
	if n == nil {
		return
	}
	if cur := v.Note(n.Path); cur != nil {
		d.notes[cur] = true
	}
}

// oldOf is the earlier value of n, n itself when it was kept.
func oldOf(d vault.Delta, n *vault.Note) *vault.Note {
	if prev := d.Replaced[n]; prev != nil {
		return prev
	}
	return n
}

// claimTouched reports whether a claim card shows something of a changed
// note: the anchor it links in the claim's own file or in its evidence,
// the text of the claims of its chain and contests, its dreams. changed
// maps the path of each changed note to its earlier value.
func claimTouched(s *site, ci *claimInfo, changed map[string]*vault.Note) bool {
	if _, ok := changed[ci.note.Path]; ok {
		return true
	}
	c := ci.c
	moved := func(n *vault.Note, block string) bool {
		prev, ok := changed[n.Path]
		if !ok || block == "" {
			return false
		}
		a, okA := prev.Doc.Anchor("^" + block)
		b, okB := n.Doc.Anchor("^" + block)
		return a != b || okA != okB
	}
	for i, e := range ci.Evidence {
		if e.Note != nil && i < len(c.Evidence) && moved(e.Note, c.Evidence[i].Block) {
			return true
		}
	}
	if src := s.mem.bySource[c.File]; src != nil && moved(src, c.Block) {
		return true
	}
	for _, id := range c.Contests {
		if o := s.mem.byID[id]; o != nil {
			if _, ok := changed[o.note.Path]; ok {
				return true
			}
		}
	}
	for _, l := range c.Chain {
		if o := s.mem.byID[l.Claim]; o != nil {
			if _, ok := changed[o.note.Path]; ok {
				return true
			}
		}
	}
	for _, slug := range c.Dreams {
		if _, ok := changed[vault.DreamsFolder+"/"+slug+".md"]; ok {
			return true
		}
	}
	return false
}

// renderDirty renders what an update reached.
func (s *site) renderDirty(ctx context.Context, d *dirtySet) error {
	notes := make([]*vault.Note, 0, len(d.notes))
	for n := range d.notes {
		notes = append(notes, n)
		s.forget(n)
	}
	sort.Slice(notes, func(i, j int) bool { return notes[i].Path < notes[j].Path })
	if err := s.renderSome(ctx, notes); err != nil {
		return err
	}
	nav := map[string]bool{}
	for _, dir := range d.navDirs {
		nav[dir] = true
	}
	names := s.sortedTags()
	for _, t := range names {
		if d.tags[t] || nav[folderOf(tagPage(t))] {
			if err := s.renderTag(t, names); err != nil {
				return err
			}
		}
	}
	if d.tagTree || len(d.tags) > 0 || nav["tags"] {
		if err := s.renderTagIndex(names); err != nil {
			return err
		}
	}
	taken := map[string]bool{}
	for _, p := range s.pages {
		taken[p] = true
	}
	dirs := make([]string, 0, len(s.folders))
	for dir := range s.folders {
		if dir != "" && (d.folders[dir] || nav[dir]) {
			dirs = append(dirs, dir)
		}
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		if err := s.renderFolder(dir, taken); err != nil {
			return err
		}
	}
	// The pages made from all notes, each with the folder it lives in.
	for _, p := range []struct {
		page   string
		render func() error
		when   bool
	}{
		{"index.html", s.renderHome, d.home},
		{"graph.html", s.renderGraph, d.graph},
		{"dashboard.html", s.renderDashboard, d.memory},
		{"dreams/journal.html", s.renderDreamJournal, d.memory},
		{conversationsDir + "/index.html", s.renderConversations, d.memory},
		{"404.html", s.render404, false},
	} {
		if p.when || nav[folderOf(p.page)] {
			if err := p.render(); err != nil {
				return err
			}
		}
	}
	for _, a := range d.assets {
		data, err := a.Read()
		if err != nil {
			return fmt.Errorf("copying %s: %w", a.Source, err)
		}
		if err := s.write(a.Path, data); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// renderSome renders the pages of notes on every core.
func (s *site) renderSome(ctx context.Context, notes []*vault.Note) error {
	if len(notes) == 1 {
		return s.renderNote(notes[0])
	}
	next := make(chan *vault.Note, len(notes))
	for _, n := range notes {
		next <- n
	}
	close(next)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for i := 0; i < min(runtime.GOMAXPROCS(0), len(notes)); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range next {
				if ctx.Err() != nil {
					return
				}
				if err := s.renderNote(n); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// fullTwin is n's twin as llms-full.txt holds it; incremental updates
// keep the twins of notes they did not render again.
func (s *site) fullTwin(n *vault.Note) []byte {
	if t, ok := s.twins[n]; ok {
		return t
	}
	t := s.twinFrom(n, s.pages[n], "llms-full.txt")
	if s.twins != nil {
		s.twins[n] = t
	}
	return t
}

// searchDocs describes the published notes for the search index; between
// incremental updates each note's description is kept until the note
// changes.
func (s *site) searchDocs() []search.Doc {
	url := func(n *vault.Note) string { return s.pages[n] }
	if s.docs == nil {
		return search.DocsFromVault(s.notes, url)
	}
	docs := make([]search.Doc, 0, len(s.notes))
	for _, n := range s.notes {
		d, ok := s.docs[n]
		if !ok {
			one := search.DocsFromVault([]*vault.Note{n}, url)
			if len(one) == 0 {
				continue
			}
			d = one[0]
			s.docs[n] = d
		}
		docs = append(docs, d)
	}
	return docs
}

// forget drops what the caches keep of a note.
func (s *site) forget(n *vault.Note) {
	delete(s.twins, n)
	delete(s.docs, n)
}

// replaceNote puts n where prev is in ns.
func replaceNote(ns []*vault.Note, prev, n *vault.Note) {
	for i, x := range ns {
		if x == prev {
			ns[i] = n
		}
	}
}

// tagsWithParents lists tags and, for nested ones, each parent (#a/b is
// listed on the pages of a and a/b; see collectTags).
func tagsWithParents(tags []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tags {
		parts := strings.Split(t, "/")
		for i := range parts {
			name := strings.Join(parts[:i+1], "/")
			if !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	return out
}

// sameTargets reports whether two values of a note link to the same notes.
func sameTargets(a, b *vault.Note) bool {
	return reflect.DeepEqual(targetPaths(a), targetPaths(b))
}

func targetPaths(n *vault.Note) []string {
	var out []string
	for _, r := range n.Links {
		if r.Note != nil {
			out = append(out, r.Note.Path)
		}
	}
	sort.Strings(out)
	return out
}

// embeds reports whether b embeds n.
func embeds(b, n *vault.Note) bool {
	for _, r := range b.Links {
		if r.Note == n && r.Link.Embed {
			return true
		}
	}
	return false
}

func uniqueStrings(ss []string) []string {
	sort.Strings(ss)
	out := ss[:0]
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// String describes the stats for logs.
func (st UpdateStats) String() string {
	if st.Full {
		return fmt.Sprintf("full render: %d pages, %d files", st.Pages, st.Files)
	}
	return fmt.Sprintf("%d pages, %d files", st.Pages, st.Files)
}
