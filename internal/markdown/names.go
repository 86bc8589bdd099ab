package markdown

import (
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// IndexEntry is one file a link can name: a note or an attachment.
type IndexEntry struct {
	// Path is the vault path (forward slashes, with extension) links
	// resolve to.
	Path string
	// AltPaths are other paths that name the same file, such as its path
	// in the workspace before the vault moved it.
	AltPaths []string
	// Aliases are the note's front matter aliases.
	Aliases []string
}

// NameIndex resolves link targets to paths the way Obsidian does. It is
// read-only after NewNameIndex and safe for concurrent use.
type NameIndex struct {
	byPath  map[string]string   // key(path) -> Path
	byName  map[string][]string // key(file name) -> Paths, sorted
	byAlias map[string][]string // key(alias) -> Paths, sorted
}

// NewNameIndex indexes entries. Later entries with a path already seen
// are ignored.
func NewNameIndex(entries []IndexEntry) *NameIndex {
	ix := &NameIndex{
		byPath:  make(map[string]string, len(entries)*2),
		byName:  make(map[string][]string, len(entries)),
		byAlias: make(map[string][]string),
	}
	for _, e := range entries {
		if e.Path == "" {
			continue
		}
		for _, p := range append([]string{e.Path}, e.AltPaths...) {
			p = cleanSlashes(p)
			k := nameKey(p)
			if _, dup := ix.byPath[k]; dup {
				continue
			}
			ix.byPath[k] = e.Path
			nk := nameKey(path.Base(p))
			ix.byName[nk] = appendUnique(ix.byName[nk], e.Path)
		}
		for _, a := range e.Aliases {
			if a = strings.TrimSpace(a); a != "" {
				ak := nameKey(a)
				ix.byAlias[ak] = appendUnique(ix.byAlias[ak], e.Path)
			}
		}
	}
	for _, m := range []map[string][]string{ix.byName, ix.byAlias} {
		for _, v := range m {
			sort.Strings(v)
		}
	}
	return ix
}

// Lookup resolves target, as written in a link in the note at from, to a
// path. Matching ignores case; ".md" may be left off for notes, but other
// files need their extension; "\" is read as "/". The first rule that
// matches wins:
//
//  1. the exact path from the vault root (Path or AltPaths);
//  2. the path relative to from's folder ("./" and "../" only ever mean
//     this, and a path climbing out of the vault names nothing);
//  3. the file name (or a path suffix such as "folder/note") anywhere; when
//     several files match, the one in from's folder, then the shortest
//     path, then the first in byte order;
//  4. an alias, with the same tie-breaking.
func (ix *NameIndex) Lookup(from, target string) (string, bool) {
	if ix == nil {
		return "", false
	}
	t := cleanSlashes(strings.TrimSpace(target))
	if t == "" {
		return "", false
	}
	dir := path.Dir(cleanSlashes(from))
	relative := strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../") || t == "." || t == ".."
	if !relative {
		if p, ok := ix.exact(strings.TrimPrefix(t, "/")); ok {
			return p, true
		}
	}
	if strings.HasPrefix(t, "/") {
		return "", false // "/x" is rooted: rule 1 only
	}
	if p, ok := ix.exact(path.Join(dir, t)); ok {
		return p, true
	}
	if relative {
		return "", false
	}
	// A target that climbs out of the vault names nothing, even by name.
	if c := path.Clean(t); c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	base := path.Base(t)
	suffix := ""
	if strings.Contains(t, "/") {
		suffix = "/" + nameKey(path.Clean(t))
	}
	var candidates []string
	for _, k := range []string{nameKey(base), nameKey(base) + ".md"} {
		for _, p := range ix.byName[k] {
			if suffix != "" && !hasKeySuffix(p, suffix) {
				continue
			}
			candidates = appendUnique(candidates, p)
		}
		if len(candidates) > 0 {
			break
		}
	}
	if p, ok := pick(candidates, dir); ok {
		return p, true
	}
	return pick(ix.byAlias[nameKey(t)], dir)
}

// exact looks p up as a path from the root, with or without ".md".
func (ix *NameIndex) exact(p string) (string, bool) {
	c := path.Clean(p)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	k := nameKey(c)
	if v, ok := ix.byPath[k]; ok {
		return v, true
	}
	if v, ok := ix.byPath[k+".md"]; ok {
		return v, true
	}
	return "", false
}

// hasKeySuffix reports whether path p ends with suffix ("/folder/note"),
// with or without ".md".
func hasKeySuffix(p, suffix string) bool {
	k := "/" + nameKey(p)
	return strings.HasSuffix(k, suffix) || strings.HasSuffix(strings.TrimSuffix(k, ".md"), suffix)
}

// pick chooses among paths (sorted) deterministically: same folder as
// from first, then the shortest path, then byte order.
func pick(paths []string, dir string) (string, bool) {
	switch len(paths) {
	case 0:
		return "", false
	case 1:
		return paths[0], true
	}
	best := ""
	for _, p := range paths {
		if best == "" || better(p, best, dir) {
			best = p
		}
	}
	return best, true
}

func better(a, b, dir string) bool {
	aHere, bHere := path.Dir(a) == dir, path.Dir(b) == dir
	if aHere != bHere {
		return aHere
	}
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// cleanSlashes turns backslashes into slashes, as Obsidian accepts both.
func cleanSlashes(s string) string {
	if strings.IndexByte(s, '\\') >= 0 {
		s = strings.ReplaceAll(s, `\`, "/")
	}
	return s
}

// nameKey is the form names are compared in: Unicode NFC (macOS file
// names are decomposed, typed links are not) and lower case.
func nameKey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		s = norm.NFC.String(s)
	}
	return strings.ToLower(s)
}

// LinkKeys are the keys under which a link target can find an entry:
// the file name key of its last segment (and of its cleaned form), with
// ".md" taken off, and its alias key. A link whose keys are none of an
// entry's (EntryKeys) resolves the same whether the entry is indexed or
// not, which is what lets the vault resolve again only the links a new,
// gone or renamed note can change. A target that names a folder by "."
// or ".." can find an entry of any name: its only key is AnyName.
func LinkKeys(target string) (names []string, alias string) {
	t := cleanSlashes(strings.TrimSpace(target))
	if t == "" {
		return nil, ""
	}
	if b := path.Base(t); b == "." || b == ".." || path.Base(path.Clean(t)) == "." || path.Base(path.Clean(t)) == ".." {
		return []string{AnyName}, nameKey(t)
	}
	for _, b := range []string{path.Base(t), path.Base(path.Clean(t))} {
		k := strings.TrimSuffix(nameKey(b), ".md")
		if len(names) == 0 || names[0] != k {
			names = append(names, k)
		}
	}
	return names, nameKey(t)
}

// AnyName is the LinkKeys key of a target that may resolve to an entry
// of any name.
const AnyName = "\x00any"

// EntryKeys are the keys an entry can be found under (see LinkKeys): the
// file name keys of its paths, with ".md" taken off, and the keys of its
// aliases.
func EntryKeys(e IndexEntry) (names, aliases []string) {
	for _, p := range append([]string{e.Path}, e.AltPaths...) {
		names = append(names, strings.TrimSuffix(nameKey(path.Base(cleanSlashes(p))), ".md"))
	}
	for _, a := range e.Aliases {
		if a = strings.TrimSpace(a); a != "" {
			aliases = append(aliases, nameKey(a))
		}
	}
	return names, aliases
}

// WorkspaceTarget splits a link target qualified by a workspace of a team
// site, "b:note" as in [[b:note]], into the workspace's name and the
// target inside it. A team site names its workspaces by this same rule
// (ValidWorkspaceName), so a link can only be read as qualified by a
// name a workspace may have. Such a link is looked up in the named
// workspace only when its own workspace has nothing by its whole target:
// an unqualified link always stays in its own workspace.
func WorkspaceTarget(target string) (name, rest string, ok bool) {
	name, rest, ok = strings.Cut(strings.TrimSpace(target), ":")
	if !ok || rest == "" || !ValidWorkspaceName(name) {
		return "", "", false
	}
	return name, rest, true
}

// ValidWorkspaceName reports whether s may name a workspace of a team
// site: up to 64 lower-case letters, digits, '-' and '_', starting with
// a letter or digit, so that it is a URL path segment as it stands.
func ValidWorkspaceName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case (c == '-' || c == '_') && i > 0:
		default:
			return false
		}
	}
	return true
}
