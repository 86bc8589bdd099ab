package workspace

import (
	"errors"
	"io/fs"
	"path/filepath"
)

// loadState is what a load keeps so that Reread can read only what changed:
// the file system and options it read with, the scan, and the parse of
// every candidate.
type loadState struct {
	fsys    fs.FS
	opts    Options
	abs     string // disk only: the root made absolute
	real    string // disk only: the root with symbolic links resolved
	scan    *scan
	results []parsed // parallel to scan.cands
}

// Reread returns the workspace as it is after the files at paths changed
// (written, created, removed or renamed; paths are workspace-relative,
// forward slashes). Only those files are read again: when every path is a
// file the last read already knew, not even the folders are listed again;
// otherwise the workspace is walked and every file whose path, role and
// date context are unchanged keeps its earlier parse. The result is what
// Load would return for the same folder (a test holds it to that). w is
// not modified and stays valid.
//
// Reread trusts paths: a file changed on disk but not named is not read
// again. Serve mode names every file its watcher saw change, and loads
// afresh when the watcher lost events.
func (w *Workspace) Reread(paths []string) (*Workspace, error) {
	if w == nil || w.state == nil {
		return nil, errors.New("workspace: Reread needs a workspace read by Load or LoadFS")
	}
	st := w.state
	l := newLoader(st.fsys, st.opts)
	l.absRoot, l.realRoot = st.abs, st.real
	changed := make(map[string]bool, len(paths))
	for _, p := range paths {
		if c := cleanRel(filepath.ToSlash(p)); c != "" {
			changed[c] = true
		}
	}
	var out *Workspace
	if results, ok := l.rereadKnown(st, changed); ok {
		out = l.assemble(st.scan, results)
	} else {
		out = l.rescan(st, changed)
	}
	out.Root, out.fsys = w.Root, w.fsys
	return out, nil
}

// rereadKnown is the fast path: when every changed path is a regular file
// the last scan listed (or a file it ignored), the scan still holds and only
// those files are read again. It reports false when a walk is needed.
func (l *loader) rereadKnown(st *loadState, changed map[string]bool) ([]parsed, bool) {
	sc := st.scan
	if changed[ConfigFile] {
		return nil, false
	}
	var idx []int
	for p := range changed {
		fi, err := fs.Lstat(st.fsys, p)
		if err != nil || !fi.Mode().IsRegular() {
			return nil, false // removed, a folder, a link: the walk decides
		}
		found := false
		for i, c := range sc.cands {
			if c.path == p || c.source == p {
				idx = append(idx, i)
				found = true
			}
		}
		if !found && !sortedHas(sc.ignored, p) {
			return nil, false // a new file
		}
	}
	results := append([]parsed(nil), st.results...)
	for _, i := range idx {
		results[i] = l.readOne(sc.cands[i], sc.roles[i], sc.newest)
	}
	return results, true
}

// rescan walks the workspace again and reads the files that are new or
// changed, or whose parse depends on what changed (the newest daily log
// date dates undated entries of MEMORY.md, topic files and the archive).
func (l *loader) rescan(st *loadState, changed map[string]bool) *Workspace {
	sc := l.scan()
	prev := make(map[string]int, len(st.scan.cands))
	for i, c := range st.scan.cands {
		prev[c.path] = i
	}
	all := changed[ConfigFile]
	results := make([]parsed, len(sc.cands))
	var todo []int
	for i, c := range sc.cands {
		j, ok := prev[c.path]
		reuse := ok && !all && !changed[c.path] && !changed[c.source] &&
			st.scan.cands[j] == c && st.scan.roles[j] == sc.roles[i] &&
			(sc.newest.Equal(st.scan.newest) || !datedByNewest(sc.roles[i].kind))
		if reuse {
			results[i] = st.results[j]
			continue
		}
		todo = append(todo, i)
	}
	cands := make([]candidate, len(todo))
	roles := make([]role, len(todo))
	for k, i := range todo {
		cands[k], roles[k] = sc.cands[i], sc.roles[i]
	}
	for k, r := range l.readAll(cands, roles, sc.newest) {
		results[todo[k]] = r
	}
	return l.assemble(sc, results)
}

// datedByNewest reports the kinds whose parse reads the newest daily log
// date (see parseFile).
func datedByNewest(k Kind) bool {
	return k == KindMemory || k == KindTopic || k == KindArchive
}

// sortedHas reports whether the sorted list ss holds s.
func sortedHas(ss []string, s string) bool {
	i, j := 0, len(ss)
	for i < j {
		h := int(uint(i+j) >> 1)
		if ss[h] < s {
			i = h + 1
		} else {
			j = h
		}
	}
	return i < len(ss) && ss[i] == s
}

// Rel returns the workspace path of the absolute path p on disk, and
// whether p lies inside the workspace at all (through the root as given
// or with its symbolic links resolved). Serve mode uses it to turn the
// watcher's paths into the paths Reread takes.
func (w *Workspace) Rel(p string) (string, bool) {
	if w == nil || w.state == nil {
		return "", false
	}
	for _, root := range []string{w.state.abs, w.state.real} {
		if root == "" {
			continue
		}
		if rel, ok := relInside(root, p); ok && rel != "." {
			return rel, true
		}
	}
	return "", false
}
