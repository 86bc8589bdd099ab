package workspace

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
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
	return w.reread(paths, false)
}

// RereadChanged is Reread when paths are all the files added, changed or
// removed since w was read, as a diff of two git trees lists them: a file
// that came or went is then put into or taken out of the last walk's
// list, checked against the rules the walk applies, and the folders are
// not listed again. A path the list cannot settle alone (the
// configuration, a folder, a symbolic link, a workspace that had one, an
// Obsidian vault's folder) makes it walk as Reread does.
func (w *Workspace) RereadChanged(paths []string) (*Workspace, error) {
	return w.reread(paths, true)
}

func (w *Workspace) reread(paths []string, complete bool) (*Workspace, error) {
	if w == nil || w.state == nil {
		return nil, errors.New("workspace: Reread needs a workspace read by Load or LoadFS")
	}
	st := w.state
	l := newLoader(st.fsys, st.opts)
	l.absRoot, l.realRoot = st.abs, st.real
	l.guard = st.scan.config.Guard()
	changed := make(map[string]bool, len(paths))
	for _, p := range paths {
		if c := cleanRel(filepath.ToSlash(p)); c != "" {
			changed[c] = true
		}
	}
	var out *Workspace
	if results, ok := l.rereadKnown(st, changed); ok {
		out = l.assemble(st.scan, results)
	} else if sc, ok := l.patchScan(st.scan, changed); complete && ok {
		out = l.reuse(st, sc, changed)
	} else {
		out = l.reuse(st, l.scan(), changed)
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

// patchScan is the scan of the last read sc with the files in changed
// added or removed, without a walk: a new file is listed when the walk
// would reach it (no folder on its path is a dot-folder, node_modules,
// skipped or excluded), a removed one taken out. ok is false when the
// list cannot tell what a walk would find: the configuration changed, the
// workspace has symbolic links, a path is a folder, a link or in an
// .obsidian folder (which makes its parent a vault), is nested deeper
// than a walk goes, holds a secret (a redacted name), or is gone without
// having been listed.
func (l *loader) patchScan(sc *scan, changed map[string]bool) (*scan, bool) {
	if changed[ConfigFile] || sc.links || sc.rules == nil {
		return nil, false
	}
	cands := make(map[string]candidate, len(changed))
	ignored := map[string]bool{}
	gone := map[string]bool{}
	for p := range changed {
		if slices.Contains(strings.Split(p, "/"), ".obsidian") || strings.Count(p, "/") >= maxDepth {
			return nil, false
		}
		if sc.rules.hidden(p) {
			continue // the walk never goes there
		}
		fi, err := fs.Lstat(l.fsys, p)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) || !sc.listed(p) {
				return nil, false
			}
			gone[p] = true
			continue
		}
		if !fi.Mode().IsRegular() {
			return nil, false
		}
		if l.opts.Redact {
			if _, found := sc.config.Guard().RedactName(p); len(found) > 0 {
				return nil, false
			}
		}
		switch name := path.Base(p); fileClass(name) {
		case classText:
			cands[p] = candidate{path: p, source: p}
		case classAsset:
			cands[p] = candidate{path: p, source: p, asset: true}
		default:
			if p != ConfigFile {
				ignored[p] = true
			}
		}
	}
	out := *sc
	out.cands = make([]candidate, 0, len(sc.cands)+len(cands))
	for _, c := range sc.cands {
		if gone[c.path] || ignored[c.path] {
			continue
		}
		if n, ok := cands[c.path]; ok {
			c = n
			delete(cands, c.path)
		}
		out.cands = append(out.cands, c)
	}
	for _, c := range cands {
		out.cands = append(out.cands, c)
	}
	sort.Slice(out.cands, func(i, j int) bool { return out.cands[i].path < out.cands[j].path })
	out.ignored = make([]string, 0, len(sc.ignored)+len(ignored))
	for _, p := range sc.ignored {
		if !gone[p] && !ignored[p] && cands[p].path == "" {
			out.ignored = append(out.ignored, p)
		}
	}
	for p := range ignored {
		out.ignored = append(out.ignored, p)
	}
	if len(out.ignored) == 0 {
		out.ignored = nil // as a walk that found none leaves it
	}
	sort.Strings(out.ignored)
	l.classifyScan(&out)
	return &out, true
}

// listed reports whether the path p is a file the scan listed as itself
// (a candidate read from its own path, or an ignored file).
func (sc *scan) listed(p string) bool {
	for _, c := range sc.cands {
		if c.path == p {
			return c.source == p
		}
	}
	return sortedHas(sc.ignored, p)
}

// reuse reads the workspace of the scan sc, the files that are new or
// changed since the read st, or whose parse depends on what changed (the
// newest daily log date is what partial dates in MEMORY.md, topic files
// and the archive are resolved against, when a file has them); the others
// keep their parse.
func (l *loader) reuse(st *loadState, sc *scan, changed map[string]bool) *Workspace {
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
			st.scan.cands[j].same(c) && st.scan.roles[j] == sc.roles[i] &&
			(sc.newest.Equal(st.scan.newest) || !st.results[j].byNewest)
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
