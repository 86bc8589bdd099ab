package site

import (
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/vault"
)

// What pages read of the site besides the notes themselves (URLs, tags,
// folders, the memory views' data) is patched by serve mode's updates
// where a change allows it, and made again (collect's way) where it does
// not. Either way it is what collect makes of the new vault: a patch is
// taken only when it cannot differ.

// patchURLs brings the URLs of old (taken over) to the notes of s after a
// delta that added notes (added) or removed some (removed). It reports
// false, leaving s.pages unset, when that cannot be done without making
// every URL again: when some URL of the old or the new site needed a
// suffix to stay unique, every URL may have moved.
func (s *site) patchURLs(old *site, added, removed []*vault.Note, replaced map[*vault.Note]*vault.Note, bases map[string]string) bool {
	if old.collided {
		return false
	}
	pages, taken := old.pages, old.taken
	for _, n := range removed {
		delete(taken, pages[n])
		delete(pages, n)
	}
	want := make([]string, len(added))
	for i, n := range added {
		want[i] = urlBase(n, bases) + ".html"
		if taken[want[i]] || reserved[want[i]] {
			return false
		}
		for _, w := range want[:i] {
			if w == want[i] {
				return false
			}
		}
	}
	for n, prev := range replaced {
		pages[n] = pages[prev]
		delete(pages, prev)
	}
	for i, n := range added {
		pages[n] = want[i]
		taken[want[i]] = true
	}
	s.pages, s.taken = pages, taken
	return true
}

// patchTags brings the tag lists of old (taken over) to s. Lists hold
// notes in path order, as collectTags makes them.
func (s *site) patchTags(old *site, added, removed []*vault.Note, replaced map[*vault.Note]*vault.Note) {
	s.tags = old.tags
	drop := func(n *vault.Note) {
		for _, t := range tagsWithParents(n.Doc.Tags) {
			ns := s.tags[t]
			i := sort.Search(len(ns), func(i int) bool { return ns[i].Path >= n.Path })
			if i < len(ns) && ns[i] == n {
				ns = append(ns[:i], ns[i+1:]...)
			}
			if len(ns) == 0 {
				delete(s.tags, t)
			} else {
				s.tags[t] = ns
			}
		}
	}
	put := func(n *vault.Note) {
		for _, t := range tagsWithParents(n.Doc.Tags) {
			ns := s.tags[t]
			i := sort.Search(len(ns), func(i int) bool { return ns[i].Path >= n.Path })
			s.tags[t] = append(ns[:i], append([]*vault.Note{n}, ns[i:]...)...)
		}
	}
	for _, n := range removed {
		drop(n)
	}
	for n, prev := range replaced {
		if reflect.DeepEqual(n.Doc.Tags, prev.Doc.Tags) {
			for _, t := range tagsWithParents(n.Doc.Tags) {
				replaceNote(s.tags[t], prev, n)
			}
			continue
		}
		drop(prev)
		put(n)
	}
	for _, n := range added {
		put(n)
	}
}

// patchFolders brings the folders of old (taken over) to s, whose URLs
// are set; removed maps each removed note to its page. It reports false
// when that cannot be done without collecting them again: a folder comes
// or goes, or the note a folder's title was read from (see ensureFolder)
// is removed or is no longer the first.
func (s *site) patchFolders(old *site, added []*vault.Note, removed map[*vault.Note]string, replaced map[*vault.Note]*vault.Note) bool {
	folders := old.folders
	// Check first, change after: a patch that cannot be finished leaves
	// nothing half done.
	count := map[string]int{}
	for n, page := range removed {
		for d := folderOf(page); ; d = folderOf(d) {
			f := folders[d]
			if f == nil || f.from == n.Path {
				return false
			}
			count[d]--
			if d == "" {
				break
			}
		}
	}
	for _, n := range added {
		for d := folderOf(s.pages[n]); ; d = folderOf(d) {
			f := folders[d]
			if f == nil || f.from != "" && n.Path < f.from {
				return false
			}
			count[d]++
			if d == "" {
				break
			}
		}
	}
	for d, c := range count {
		if folders[d].Count+c <= 0 && d != "" {
			return false
		}
	}
	patched := make(map[string]bool, len(count)+len(replaced))
	for d, c := range count {
		folders[d].Count += c
		patched[d] = true
	}
	for n, page := range removed {
		f := folders[folderOf(page)]
		f.Notes = removeNote(f.Notes, n)
	}
	for n, prev := range replaced {
		patched[folderOf(s.pages[n])] = true
		f := folders[folderOf(s.pages[n])]
		if n.Title == prev.Title && n.Date == prev.Date {
			replaceNote(f.Notes, prev, n)
			continue
		}
		f.Notes = insertNote(removeNote(f.Notes, prev), n)
	}
	for _, n := range added {
		f := folders[folderOf(s.pages[n])]
		f.Notes = insertNote(f.Notes, n)
	}
	s.folders, s.patchedFolders = folders, patched
	return true
}

// removeNote takes n out of ns (in sortNotes order).
func removeNote(ns []*vault.Note, n *vault.Note) []*vault.Note {
	for i, x := range ns {
		if x == n {
			return append(ns[:i], ns[i+1:]...)
		}
	}
	return ns
}

// insertNote puts n into ns (in sortNotes order) where sortNotes would.
func insertNote(ns []*vault.Note, n *vault.Note) []*vault.Note {
	i := sort.Search(len(ns), func(i int) bool { return lessNote(n, ns[i]) })
	return append(ns[:i], append([]*vault.Note{n}, ns[i:]...)...)
}

// lessNote is sortNotes' order: dated notes newest first, then the rest
// by title, then by path.
func lessNote(a, b *vault.Note) bool {
	if (a.Date != "") != (b.Date != "") {
		return a.Date == ""
	}
	if a.Date != b.Date {
		return a.Date > b.Date
	}
	if ta, tb := strings.ToLower(a.Title), strings.ToLower(b.Title); ta != tb {
		return ta < tb
	}
	return a.Path < b.Path
}

// patchMemory brings the memory views' data of old (taken over) to s:
// its indexes are patched, its lists made again (a walk over the notes,
// with each claim's data kept in memo).
func (s *site) patchMemory(old *site, added, removed []*vault.Note, replaced map[*vault.Note]*vault.Note, memo claimMemo) {
	m := &memory{byNote: old.mem.byNote, byID: old.mem.byID, bySource: old.mem.bySource,
		lapsed: map[string][]string{}, result: s.v.Provenance}
	// The sources whose note may be another: collectMemory maps each to
	// the last note (by path) made from it.
	sources := map[string]bool{}
	drop := func(n *vault.Note) {
		if ci := m.byNote[n]; ci != nil {
			delete(m.byNote, n)
			if m.byID[ci.ID] == ci {
				delete(m.byID, ci.ID)
			}
		}
		if n.Source != "" {
			sources[n.Source] = true
			delete(m.bySource, n.Source)
		}
	}
	for _, n := range removed {
		drop(n)
	}
	for n, prev := range replaced {
		drop(prev)
		if n.Source != "" {
			sources[n.Source] = true
		}
	}
	for _, n := range added {
		if n.Source != "" {
			sources[n.Source] = true
		}
	}
	s.mem, m.resourced = m, sources
	m.gather(s.notes, func(src string) bool { return sources[src] })
	if m.result == old.mem.result && !claimsAmong(added, removed, replaced) {
		// The same claim notes in the same order: an edit rendered before
		// provenance runs again, of a file that is not a claim.
		m.claims, m.lapsed = old.mem.claims, old.mem.lapsed
		return
	}
	s.readClaims(memo)
}

// claimsAmong reports whether any of the notes an update added, removed
// or replaced is a claim's.
func claimsAmong(added, removed []*vault.Note, replaced map[*vault.Note]*vault.Note) bool {
	claim := func(n *vault.Note) bool { return n.Claim != nil }
	if slices.ContainsFunc(added, claim) || slices.ContainsFunc(removed, claim) {
		return true
	}
	for n, prev := range replaced {
		if claim(n) || claim(prev) {
			return true
		}
	}
	return false
}
