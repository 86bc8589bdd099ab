package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// maxLinkHops bounds symlink chains (as the kernel's ELOOP does) and
// maxDepth bounds folder nesting, so no input can make the walk run away.
const (
	maxLinkHops = 40
	maxDepth    = 128
)

// neverRead are folder names skipped wherever they appear.
var neverRead = map[string]bool{
	"node_modules": true,
}

// NeverRead reports whether the walk leaves out the file or folder at the
// workspace path p by its name alone, whatever the configuration says:
// dotfiles and dot-folders (but memory/.dreams, the recall store's) and
// node_modules. Nothing below such a folder is read.
func NeverRead(p string) bool {
	name := path.Base(p)
	return strings.HasPrefix(name, ".") && p != "memory/.dreams" || neverRead[name]
}

// candidate is a file the walk decided to read.
type candidate struct {
	path   string // workspace path, as linked
	source string // path to open in the file system (symlinks resolved)
	// via are the symbolic links the walk followed to reach it (the
	// links' own paths, folders' included): privacy is the file's, and a
	// private path on the way makes it private (classify).
	via   []string
	asset bool
}

// same reports whether c and o are one file reached the same way.
func (c candidate) same(o candidate) bool {
	return c.path == o.path && c.source == o.source && c.asset == o.asset && slices.Equal(c.via, o.via)
}

// walker lists the files of a workspace.
type walker struct {
	fsys     fs.FS
	absRoot  string // disk only: the root as given, made absolute
	realRoot string // disk only: the root with symlinks resolved
	skip     map[string]bool
	globs    []string
	// redact names files by their redacted paths (Options.Redact), with
	// guard.
	redact bool
	guard  secrets.Guard

	cands   []candidate
	vaults  []string // nested Obsidian vaults (folders holding .obsidian/)
	ignored []string
	diags   diag.List
	// links is set once a symbolic link is met.
	links bool
}

// walk lists dir (workspace path "" for the root), whose contents live at
// source in the file system, reached through the symbolic links via.
// stack holds the source paths of the folders being walked, to stop
// symlink loops.
func (w *walker) walk(dir, source string, stack, via []string) {
	if len(stack) > maxDepth {
		w.diags.Warnf("depth", dir, 0, "folder nesting is deeper than %d levels; the rest was not read", maxDepth)
		return
	}
	entries, err := fs.ReadDir(w.fsys, fsPath(source))
	if err != nil {
		if dir == "" {
			w.diags.Warnf("read", "", 0, "workspace folder could not be fully read (%v)", underlying(err))
		} else {
			w.diags.Warnf("read", dir, 0, "folder could not be read (%v); it was skipped", underlying(err))
		}
		if len(entries) == 0 {
			return
		}
	}
	if dir != "" {
		for _, e := range entries {
			if e.Name() == ".obsidian" {
				w.vaults = append(w.vaults, dir)
				break
			}
		}
	}
	for _, e := range entries {
		name := e.Name()
		p := joinRel(dir, name)
		src := joinRel(source, name)
		typ := e.Type()

		if NeverRead(p) || w.skip[p] || w.excluded(p) {
			continue
		}

		isDir := typ.IsDir()
		reach := via
		if typ&fs.ModeSymlink != 0 {
			w.links = true
			target, resolved, links, err := w.resolveLink(src)
			switch {
			case errors.Is(err, errOutside):
				w.diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "symlink", File: p,
					Message: fmt.Sprintf("symbolic link points outside the workspace (to %q); it was not followed", target),
					Hint:    "copy the file into the workspace, or link to a path inside it"})
				continue
			case err != nil:
				w.diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "symlink", File: p,
					Message: fmt.Sprintf("symbolic link cannot be followed (%v); it was skipped", err)})
				continue
			}
			if w.hidden(resolved) {
				w.diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "symlink", File: p,
					Message: fmt.Sprintf("symbolic link points into a folder or file that is never read (%q); it was not followed", target)})
				continue
			}
			fi, err := fs.Stat(w.fsys, fsPath(resolved))
			if err != nil {
				w.diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "symlink", File: p,
					Message: fmt.Sprintf("symbolic link target %q cannot be read (%v); it was skipped", target, underlying(err))})
				continue
			}
			src = resolved
			reach = append(slices.Clip(via), links...)
			isDir = fi.IsDir()
			if !isDir && !fi.Mode().IsRegular() {
				continue
			}
		} else if !isDir && !typ.IsRegular() {
			continue // devices, sockets, pipes: reading a FIFO would block forever
		}

		if isDir {
			if onStack(stack, src) {
				w.diags.Add(diag.Diagnostic{Severity: diag.Info, Code: "symlink", File: p,
					Message: "symbolic link leads back into a folder already being read (a loop); it was not followed"})
				continue
			}
			w.walk(p, src, append(stack, src), reach)
			continue
		}
		switch fileClass(name) {
		case classText:
			w.cands = append(w.cands, candidate{path: w.named(p), source: src, via: reach})
		case classAsset:
			w.cands = append(w.cands, candidate{path: w.named(p), source: src, via: reach, asset: true})
		default:
			if name != ConfigFile || dir != "" {
				w.ignored = append(w.ignored, w.named(p))
			}
		}
	}
}

// named is the workspace path a file found at p is known by: p, or with
// Options.Redact p with its secrets redacted, each reported. Everything
// after the walk (roles, privacy, links, URLs) sees that path only.
func (w *walker) named(p string) string {
	if !w.redact {
		return p
	}
	out, found := w.guard.RedactName(p)
	for _, s := range found {
		d := diag.Diagnostic{Severity: diag.Warning, Code: "secret", File: out,
			Message: fmt.Sprintf("the file's name holds %s %s; it is published as %s", s.Kind, s.Preview, out),
			Hint:    "rotate it, and rename the file"}
		if personal(s.Kind) {
			d.Severity, d.Code, d.Hint = diag.Info, "personal", ""
			d.Message = fmt.Sprintf("the file's name holds %s; it is published as %s", describePersonal(s.Kind), out)
		}
		w.diags.Add(d)
	}
	return out
}

// hidden reports a workspace path the walk would never reach directly:
// inside a dot-folder, node_modules, a skipped or an excluded folder. A
// symbolic link must not become a way around those rules.
func (w *walker) hidden(p string) bool {
	if p == "" {
		return false
	}
	segs := strings.Split(p, "/")
	for i := range segs {
		sub := strings.Join(segs[:i+1], "/")
		if NeverRead(sub) || w.skip[sub] {
			return true
		}
	}
	return w.excluded(p)
}

func (w *walker) excluded(p string) bool {
	for _, g := range w.globs {
		if MatchGlob(g, p) {
			return true
		}
	}
	return false
}

var errOutside = errors.New("outside the workspace")

// resolveLink resolves the symbolic link at source (a file-system path)
// component by component, returning the link's own target as written,
// the fully resolved file-system path and the links it went through
// (source first), or errOutside when any step leaves the workspace.
func (w *walker) resolveLink(source string) (target, resolved string, via []string, err error) {
	target, err = fs.ReadLink(w.fsys, fsPath(source))
	if err != nil {
		return "", "", nil, underlying(err)
	}
	hops := 0
	cur := source
	for {
		via = append(via, cur)
		t, err := fs.ReadLink(w.fsys, fsPath(cur))
		if err != nil {
			return target, "", nil, underlying(err)
		}
		hops++
		if hops > maxLinkHops {
			return target, "", nil, errors.New("too many levels of symbolic links")
		}
		next, ok := w.linkDest(path.Dir(cur), t)
		if !ok {
			return target, "", nil, errOutside
		}
		// Resolve links in the folders of next, and see whether next itself
		// is a link.
		next, err = w.resolveDirs(next, &hops, &via)
		if err != nil {
			return target, "", nil, err
		}
		fi, err := fs.Lstat(w.fsys, fsPath(next))
		if err != nil {
			return target, "", nil, underlying(err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return target, next, via, nil
		}
		cur = next
	}
}

// resolveDirs resolves symbolic links among the folders of p, adding
// each to via.
func (w *walker) resolveDirs(p string, hops *int, via *[]string) (string, error) {
	if p == "" || !strings.Contains(p, "/") {
		return p, nil
	}
	parts := strings.Split(p, "/")
	cur := ""
	for i, part := range parts[:len(parts)-1] {
		next := joinRel(cur, part)
		fi, err := fs.Lstat(w.fsys, fsPath(next))
		if err != nil {
			return "", underlying(err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			*hops++
			if *hops > maxLinkHops {
				return "", errors.New("too many levels of symbolic links")
			}
			t, err := fs.ReadLink(w.fsys, fsPath(next))
			if err != nil {
				return "", underlying(err)
			}
			dest, ok := w.linkDest(cur, t)
			if !ok {
				return "", errOutside
			}
			*via = append(*via, next)
			rest := strings.Join(parts[i+1:], "/")
			return w.resolveDirs(joinRel(dest, rest), hops, via)
		}
		cur = next
	}
	return p, nil
}

// linkDest turns a link target written in folder dir into a workspace
// path, reporting false when it points outside.
func (w *walker) linkDest(dir, target string) (string, bool) {
	if target == "" {
		return "", false
	}
	if filepath.IsAbs(target) || path.IsAbs(target) {
		if w.realRoot == "" {
			return "", false // an in-memory workspace has no absolute paths
		}
		for _, root := range []string{w.realRoot, w.absRoot} {
			if rel, ok := relInside(root, filepath.Clean(target)); ok {
				if rel == "." {
					rel = ""
				}
				return rel, true
			}
		}
		return "", false
	}
	j := path.Join(dir, filepath.ToSlash(target))
	if j == ".." || strings.HasPrefix(j, "../") {
		return "", false
	}
	if j == "." {
		j = ""
	}
	return j, true
}

func onStack(stack []string, p string) bool {
	for _, s := range stack {
		if s == p {
			return true
		}
	}
	return false
}

// joinRel joins workspace path segments, "" being the root.
func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// fsPath turns a workspace path into an fs.FS name ("" is ".").
func fsPath(p string) string {
	if p == "" {
		return "."
	}
	return p
}

type class int

const (
	classOther class = iota
	classText
	classAsset
)

var textExt = map[string]bool{".md": true, ".markdown": true, ".json": true, ".jsonl": true, ".txt": true}

var assetExt = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".svg": true, ".webp": true, ".avif": true,
	".bmp": true, ".ico": true, ".pdf": true,
	".mp3": true, ".wav": true, ".ogg": true, ".oga": true, ".m4a": true, ".flac": true, ".opus": true,
	".mp4": true, ".webm": true, ".ogv": true, ".mov": true, ".m4v": true,
}

func fileClass(name string) class {
	ext := strings.ToLower(path.Ext(name))
	switch {
	case textExt[ext]:
		return classText
	case assetExt[ext]:
		return classAsset
	}
	return classOther
}
