package site

import (
	"context"
	"fmt"
	"html/template"
	"reflect"
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/parallel"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/vault"
)

// Incremental renders a site and then keeps it up to date as its vault
// changes (serve mode), rendering again only the pages a change reaches.
// Every page is rendered by the same code as Build; what Incremental adds
// is the choice of pages, and that choice is made by dependencies, not
// rules: each page records what it read while it rendered (see deps.go),
// and an update renders the pages that read a value that changed. After
// Update and Finish, the files written so far are byte for byte what Build
// writes for the new vault (tests in internal/build hold it to that).
//
// An update is in two steps, so that readers see their page change as soon
// as possible. Update renders the pages that show what changed: the notes
// that changed, the pages embedding them, pages whose links now go
// elsewhere, new pages. Finish renders the pages that only list, count or
// name what changed (folder and tag lists, backlinks, the explorer every
// page carries, the graph, the dashboard), then the site-wide files no page
// depends on (search index, sitemap, feed, llms.txt, api/). Finish may be
// skipped when another change follows at once; the next Finish catches up.
//
// Incremental is not safe for concurrent use.
type Incremental struct {
	s *site
	g *depGraph
	// memo keeps what pages show of each claim note; bases each vault
	// path's URL without its suffix.
	memo  claimMemo
	bases map[string]string
	// keys are the site's pages, lists those of folders and tags; stale
	// are the pages Finish renders.
	keys  map[pageKey]bool
	lists map[pageKey]bool
	stale map[pageKey]bool
	// files are the files each page wrote, to remove what a page no
	// longer writes.
	files map[pageKey][]string
	// moved are files a page rendered again no longer writes.
	moved   []string
	pending bool // Finish has work to do
}

// UpdateStats say what an Update rendered.
type UpdateStats struct {
	// Full is set when everything was rendered: files of the earlier site
	// that were not written again (Deferred ones aside) are gone.
	Full bool
	// Pages and Files count what was written.
	Pages, Files int
	// Notes are the note pages rendered, sorted.
	Notes []string
	// Removed are the files of the earlier site that are gone (a note, a
	// folder or a tag that went away), sorted; empty when Full.
	Removed []string
	// Later counts the pages that only list or name what changed, which
	// Finish renders.
	Later int
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
// Full, only changed files are written, and those gone are listed.
func (inc *Incremental) Update(ctx context.Context, eng *markdown.Engine, v *vault.Vault, d vault.Delta, opts Options, w output.Writer) (UpdateStats, error) {
	inc.pending = true
	old := inc.s
	inc.s = nil // a failed update leaves nothing to build on
	if err := public(v); err != nil {
		return UpdateStats{}, err
	}
	opts = opts.normalised(v)
	if old != nil && reflect.DeepEqual(opts, old.opts) {
		return inc.update(ctx, old, v, d, w)
	}
	return inc.full(ctx, eng, v, opts, w)
}

// full renders everything, recording what each page reads.
func (inc *Incremental) full(ctx context.Context, eng *markdown.Engine, v *vault.Vault, opts Options, w output.Writer) (UpdateStats, error) {
	s, err := newSite(eng, v, opts, w)
	if err != nil {
		return UpdateStats{}, err
	}
	inc.g, inc.memo, inc.bases = newDepGraph(), claimMemo{}, map[string]string{}
	inc.keys, inc.stale, inc.files = map[pageKey]bool{}, map[pageKey]bool{}, map[pageKey][]string{}
	s.collect(inc.bases, inc.memo)
	s.twins, s.docs = map[string][]byte{}, map[string]search.Doc{}
	if !s.opts.TwinsOnly {
		if err := s.writeSiteFiles(); err != nil {
			return UpdateStats{}, err
		}
	}
	inc.keys, inc.lists = s.pageKeys(), map[pageKey]bool{}
	for k := range inc.keys {
		if strings.HasPrefix(string(k), "folder:") || strings.HasPrefix(string(k), "tag:") {
			inc.lists[k] = true
		}
	}
	rendered, err := inc.render(ctx, s, sortedPages(inc.keys))
	if err != nil {
		return UpdateStats{}, err
	}
	inc.s = s
	st := UpdateStats{Full: true, Pages: s.stats.Pages, Files: s.stats.Files, Notes: s.notePages(rendered)}
	return st, nil
}

// writeSiteFiles writes the files no page renders: the bundled and the
// vault's assets, robots.txt, the favicon and the timeline's data.
func (s *site) writeSiteFiles() error {
	for _, f := range s.bundle.Files {
		if err := s.write("assets/"+f.Name, f.Data); err != nil {
			return err
		}
	}
	if err := s.write(s.treeName, s.tree); err != nil {
		return err
	}
	for _, step := range []func() error{s.writeAssets, s.writeRobots, s.writeFavicon, s.writeTimelineData} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// update makes the site of v from old, which it takes over, and renders
// the pages the change reaches.
func (inc *Incremental) update(ctx context.Context, old *site, v *vault.Vault, d vault.Delta, w output.Writer) (UpdateStats, error) {
	s := &site{eng: old.eng, v: v, opts: old.opts, bundle: old.bundle, layouts: old.layouts, assetMap: old.assetMap,
		w: w, twins: old.twins, docs: old.docs, listed: old.listed, notes: v.Notes}
	moved, allMoved := inc.derive(s, old, d)
	notes := len(d.Removed) > 0 || len(d.Replaced) != len(d.Changed)
	for n, prev := range d.Replaced {
		notes = notes || n.Kind != prev.Kind
	}
	dt := inc.g.invalidate(s, d, moved, allMoved, notes)

	// The pages that came and went, and the explorer's tree when it
	// changed (derive wrote the new one).
	var removed []string
	if old.treeName != "" && s.treeName != old.treeName {
		removed = append(removed, old.treeName)
	}
	gone, came := inc.repage(s, d, allMoved)
	for _, k := range gone {
		removed = append(removed, inc.drop(s, k)...)
	}
	for _, k := range came {
		dt.shown[k] = true // a new page: links to it must lead somewhere
	}
	for k := range dt.listed {
		if !dt.shown[k] && inc.keys[k] {
			inc.stale[k] = true
		}
	}
	now := make([]pageKey, 0, len(dt.shown))
	for k := range dt.shown {
		if inc.keys[k] {
			now = append(now, k)
			delete(inc.stale, k)
		}
	}
	sort.Slice(now, func(i, j int) bool { return now[i] < now[j] })
	// What caches keep of a page that will render again is stale now,
	// whenever it renders.
	for _, k := range now {
		s.forget(k)
	}
	for k := range inc.stale {
		s.forget(k)
	}
	rendered, err := inc.render(ctx, s, now)
	if err != nil {
		return UpdateStats{}, err
	}
	removed = append(removed, inc.moved...)
	inc.moved = nil
	// Assets keep their paths unless notes came or went; their bytes may
	// have changed.
	hashes := map[string]string{}
	for _, a := range old.v.Assets {
		hashes[a.Path] = a.Hash
	}
	if s.opts.TwinsOnly {
		hashes = nil // no asset was written
	}
	for _, a := range v.Assets {
		if s.opts.TwinsOnly {
			break
		}
		if h, ok := hashes[a.Path]; !ok || h != a.Hash {
			if err := s.writeAsset(a); err != nil {
				return UpdateStats{}, err
			}
		}
		delete(hashes, a.Path)
	}
	for p := range hashes {
		removed = append(removed, p)
	}
	inc.s = s
	sort.Strings(removed)
	return UpdateStats{Pages: s.stats.Pages, Files: s.stats.Files, Notes: s.notePages(rendered), Removed: removed, Later: len(inc.stale)}, ctx.Err()
}

// derive makes what pages read of the site (URLs, tags, folders, the
// explorer, the memory views' data) for s from old's, taking old's over:
// patched where the change allows it, made again where it does not. It
// returns the vault paths whose URL may have changed, and whether every
// URL may have (see depGraph.invalidate).
func (inc *Incremental) derive(s, old *site, d vault.Delta) (moved []string, allMoved bool) {
	var added []*vault.Note
	for _, n := range d.Changed {
		if d.Replaced[n] == nil {
			added = append(added, n)
		}
	}
	structural := len(added) > 0 || len(d.Removed) > 0
	// Where the removed notes were, before their URLs are forgotten.
	gone := make(map[*vault.Note]string, len(d.Removed))
	for _, n := range d.Removed {
		delete(inc.bases, n.Path)
		gone[n] = old.pages[n]
	}
	switch {
	case !structural:
		s.pages, s.taken = old.pages, old.taken
		for n, prev := range d.Replaced {
			s.pages[n] = s.pages[prev]
			delete(s.pages, prev)
		}
	case s.patchURLs(old, added, d.Removed, d.Replaced, inc.bases):
		for _, n := range added {
			moved = append(moved, n.Path)
		}
		for _, n := range d.Removed {
			moved = append(moved, n.Path)
		}
	default:
		s.pages, s.collided = urlsFor(s.notes, inc.bases)
		s.taken, allMoved = s.takenPages(), true
	}
	if allMoved {
		s.collectTags()
		s.collectFolders()
	} else {
		s.collided = old.collided
		s.patchTags(old, added, d.Removed, d.Replaced)
		if !s.patchFolders(old, added, gone, d.Replaced) {
			s.collectFolders()
		}
	}

	// The explorer and chrome of every folder known so far (tag folders
	// get theirs on first use), made again when an explorer or the note
	// count changed.
	s.navByDir, s.chromeByDir = map[string]template.HTML{}, map[string]chrome{}
	s.treeName, s.tree = s.treeData()
	s.topFolders = topFolders(s.folders)
	if s.treeName != old.treeName && !s.opts.TwinsOnly {
		if err := s.write(s.treeName, s.tree); err != nil && s.chromeErr == nil {
			s.chromeErr = err
		}
	}
	for dir := range s.folders {
		if s.opts.TwinsOnly {
			break // no HTML page carries them
		}
		s.navByDir[dir] = s.navHTML(dir, "")
	}
	for dir := range old.navByDir {
		s.navByDir[dir] = s.navHTML(dir, "")
	}
	for dir, nav := range s.navByDir {
		if c, ok := old.chromeByDir[dir]; ok && old.navByDir[dir] == nav && len(old.notes) == len(s.notes) && s.treeName == old.treeName {
			s.chromeByDir[dir] = c
			continue
		}
		c, err := s.renderChrome(dir, nav)
		if err != nil && s.chromeErr == nil {
			s.chromeErr = err
		}
		s.chromeByDir[dir] = c
	}

	for _, prev := range d.Replaced {
		delete(inc.memo, prev)
	}
	for _, n := range d.Removed {
		delete(inc.memo, n)
	}
	s.patchMemory(old, added, d.Removed, d.Replaced, inc.memo)
	return moved, allMoved
}

// pageKeys lists the pages of the site: every note's (but the one the
// home page shows), the home page, a listing per folder (unless a note
// lives at its index page) and per tag, the tag index and the views.
func (s *site) pageKeys() map[pageKey]bool {
	keys := make(map[pageKey]bool, len(s.notes)+len(s.folders)+len(s.tags)+8)
	for _, n := range s.notes {
		if s.pages[n] != "index.html" {
			keys[noteKey(n.Path)] = true
		}
	}
	if s.opts.TwinsOnly {
		keys["home"] = true // the twin of the note it shows
		return keys
	}
	for dir := range s.folders {
		if dir != "" && s.hasFolderPage(dir, s.taken) {
			keys[pageKey("folder:"+dir)] = true
		}
	}
	for t := range s.tags {
		keys[pageKey("tag:"+t)] = true
	}
	if len(s.folders[""].Folders) > navTopLimit {
		keys["folders"] = true
	}
	for _, k := range []pageKey{"home", "tags", "graph", "dashboard", "journal", "conversations", "404"} {
		keys[k] = true
	}
	for _, k := range s.historyKeys() {
		keys[k] = true
	}
	return keys
}

// repage brings the set of pages up to date with s after d, and returns
// the pages that went and came. Notes' pages follow the notes that came
// and went (all of them when every URL was made again, as one may have
// moved to the home page or from it); folders' and tags' follow the
// site's folders and tags.
func (inc *Incremental) repage(s *site, d vault.Delta, allMoved bool) (gone, came []pageKey) {
	set := func(k pageKey, want bool) {
		switch {
		case want && !inc.keys[k]:
			came = append(came, k)
			inc.keys[k] = true
		case !want && inc.keys[k]:
			gone = append(gone, k)
			delete(inc.keys, k)
		}
	}
	if allMoved {
		keys := s.pageKeys()
		for k := range inc.keys {
			if !keys[k] {
				set(k, false)
			}
		}
		for k := range keys {
			set(k, true)
		}
		return gone, came
	}
	for _, n := range d.Removed {
		set(noteKey(n.Path), false)
	}
	for _, n := range d.Changed {
		if d.Replaced[n] == nil {
			set(noteKey(n.Path), s.pages[n] != "index.html")
		}
	}
	lists := map[pageKey]bool{}
	for dir := range s.folders {
		if dir != "" && s.hasFolderPage(dir, s.taken) && !s.opts.TwinsOnly {
			lists[pageKey("folder:"+dir)] = true
		}
	}
	for t := range s.tags {
		if !s.opts.TwinsOnly {
			lists[pageKey("tag:"+t)] = true
		}
	}
	if len(s.folders[""].Folders) > navTopLimit {
		lists["folders"] = true
	}
	for k := range inc.lists {
		if !lists[k] {
			set(k, false)
		}
	}
	for k := range lists {
		set(k, true)
	}
	inc.lists = lists
	return gone, came
}

// noteKey is the page key of the note at a vault path.
func noteKey(path string) pageKey { return pageKey("n:" + path) }

// drop forgets a page that is gone and returns its files.
func (inc *Incremental) drop(s *site, k pageKey) []string {
	files := inc.files[k]
	delete(inc.files, k)
	delete(inc.stale, k)
	inc.g.forget(k)
	s.forget(k)
	for _, f := range files {
		delete(s.listed, f)
	}
	return files
}

// forget drops what the caches keep of a page's note.
func (s *site) forget(k pageKey) {
	if p, ok := strings.CutPrefix(string(k), "n:"); ok {
		delete(s.twins, p)
		delete(s.docs, p)
	}
	if k == "home" {
		if n := s.homeNote(nil); n != nil {
			delete(s.twins, n.Path)
			delete(s.docs, n.Path)
		}
	}
}

// render renders the pages keys (sorted) on every core and records what
// each read; it returns the note pages it rendered.
func (inc *Incremental) render(ctx context.Context, s *site, keys []pageKey) ([]pageKey, error) {
	rs := make([]reads, len(keys))
	var names []string
	if len(s.tags) > 0 || len(keys) > 0 {
		names = s.sortedTags()
	}
	err := parallel.Each(ctx, len(keys), workers(), func(i int) error {
		return s.renderPage(keys[i], names, &rs[i])
	})
	if err != nil {
		return nil, err
	}
	var notes []pageKey
	for i, k := range keys {
		inc.g.record(s, k, rs[i].sorted())
		files := rs[i].files
		sort.Strings(files)
		for _, f := range inc.files[k] {
			if _, ok := sort.Find(len(files), func(j int) int { return strings.Compare(f, files[j]) }); !ok {
				inc.moved = append(inc.moved, f)
				delete(s.listed, f)
			}
		}
		inc.files[k] = files
		if strings.HasPrefix(string(k), "n:") || k == "home" {
			notes = append(notes, k)
		}
	}
	return notes, nil
}

// notePages are the pages of the notes of keys, sorted.
func (s *site) notePages(keys []pageKey) []string {
	var out []string
	for _, k := range keys {
		var n *vault.Note
		if p, ok := strings.CutPrefix(string(k), "n:"); ok {
			n = s.v.Note(p)
		} else if k == "home" {
			n = s.homeNote(nil)
		}
		if n != nil {
			out = append(out, s.pages[n])
		}
	}
	sort.Strings(out)
	return out
}

// renderPage renders the page of key; names are the tags, sorted.
func (s *site) renderPage(k pageKey, names []string, r *reads) error {
	if p, ok := strings.CutPrefix(string(k), "n:"); ok {
		n := s.v.Note(p)
		switch {
		case n == nil:
			return nil
		case s.opts.TwinsOnly:
			return s.writeTwin(n, s.url(n, r), r)
		}
		return s.renderNote(n, r)
	}
	if k == "home" && s.opts.TwinsOnly {
		if n := s.homeNote(r); n != nil {
			return s.writeTwin(n, "index.html", r)
		}
		return nil
	}
	if dir, ok := strings.CutPrefix(string(k), "folder:"); ok {
		return s.renderFolder(dir, s.taken, r)
	}
	if t, ok := strings.CutPrefix(string(k), "tag:"); ok {
		return s.renderTag(t, names, r)
	}
	if id, ok := strings.CutPrefix(string(k), "history:"); ok {
		return s.renderSnapshot(id, r)
	}
	switch k {
	case "home":
		return s.renderHome(r)
	case "folders":
		return s.renderFolderIndex(r)
	case "tags":
		return s.renderTagIndex(names, r)
	case "graph":
		return s.renderGraph(r)
	case "dashboard":
		return s.renderDashboard(r)
	case "journal":
		return s.renderDreamJournal(r)
	case "conversations":
		return s.renderConversations(r)
	case "changes":
		return s.renderChanges(r)
	case "404":
		return s.render404(r)
	}
	return fmt.Errorf("site: no page %q", k)
}

// Finish renders the pages the last updates left for later, then writes
// the deferred files (see Deferred) of the site into w: every one of them,
// when Update rendered anything since the last Finish.
func (inc *Incremental) Finish(ctx context.Context, w output.Writer) error {
	s := inc.s
	if s == nil || !inc.pending {
		return nil
	}
	s.w = w
	defer func() { s.w = nil }()
	if len(inc.stale) > 0 {
		// A page rendered here never moves (a note's page that moves is
		// rendered by Update, which reads where it is), so nothing is
		// removed.
		if _, err := inc.render(ctx, s, sortedPages(inc.stale)); err != nil {
			return err
		}
		inc.stale = map[pageKey]bool{}
	}
	if !s.opts.TwinsOnly {
		if err := s.writeSearch(ctx); err != nil {
			return err
		}
	}
	if err := s.writeDeferred(ctx); err != nil {
		return err
	}
	inc.pending = false
	return nil
}

// fullTwin is n's twin as llms-full.txt holds it; incremental updates
// keep the twins of notes they did not render again.
func (s *site) fullTwin(n *vault.Note) []byte {
	if t, ok := s.twins[n.Path]; ok {
		return t
	}
	t := s.twinFrom(n, s.pages[n], "llms-full.txt", nil)
	if s.twins != nil {
		s.mu.Lock()
		s.twins[n.Path] = t
		s.mu.Unlock()
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
		d, ok := s.docs[n.Path]
		if !ok {
			one := search.DocsFromVault([]*vault.Note{n}, url)
			if len(one) == 0 {
				continue
			}
			d = one[0]
			s.docs[n.Path] = d
		}
		docs = append(docs, d)
	}
	return docs
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

// sortedPages returns the keys of a set of pages, sorted.
func sortedPages(m map[pageKey]bool) []pageKey {
	out := make([]pageKey, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// String describes the stats for logs.
func (st UpdateStats) String() string {
	if st.Full {
		return fmt.Sprintf("full render: %d pages, %d files", st.Pages, st.Files)
	}
	return fmt.Sprintf("%d pages, %d files", st.Pages, st.Files)
}
