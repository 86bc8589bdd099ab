package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// MaxFileSize is the largest file read. Bigger files are skipped with a
// warning: they are almost always logs or media dumps that would only slow
// every build down.
const MaxFileSize = 16 << 20

// MaxStateFileSize is the largest recall store or event log read. They
// are no notes but what a memory system appends to with every search
// (OpenClaw users report recall stores over 16 MB), and their readers
// keep about their size in memory.
const MaxStateFileSize = 256 << 20

// The state files a memory system keeps its recall signals in.
const (
	RecallStorePath = "memory/.dreams/short-term-recall.json"
	EventsPath      = "memory/.dreams/events.jsonl"
)

// maxSize is the largest file read at the workspace path p.
func maxSize(p string) int64 {
	if p == RecallStorePath || p == EventsPath {
		return MaxStateFileSize
	}
	return MaxFileSize
}

// Options tune how a workspace is read.
type Options struct {
	// Exclude are extra globs never read, on top of the `exclude` list of
	// dreamwiki.toml. See MatchGlob for the syntax.
	Exclude []string
	// Private are extra globs of files read but never published, on top
	// of the `private` list of dreamwiki.toml (a team site's
	// [[workspace]] entry names them). They join Config.Private, so every
	// privacy check of the workspace sees them.
	Private []string
	// Skip are workspace-relative folders never read, such as the output
	// folder ("dist"). Load also accepts absolute paths inside the root.
	Skip []string
	// Redact reads the workspace as it is published (DESIGN 5.6): every
	// secret in a file's text, and in its path, is replaced as the file is
	// read, so that everything made from the model (entries, titles,
	// slugs, excerpts, search terms, file names) is made from redacted
	// text. Each one is reported with its file and line. Line numbers
	// stay those of the file on disk. The dream reads files as written
	// and leaves it off.
	Redact bool
	// OmitPrivate leaves private files (see File.Private) out of the
	// model: they are in no list and no typed view, and FileByPath does
	// not know them. Their paths are kept in Withheld only.
	OmitPrivate bool
	// Parses, when set, shares the recall store read by one load with the
	// later loads of the same workspace (see Parses).
	Parses *Parses
}

// Load reads the workspace in the directory root. The error is only for a
// root that does not exist, is not a directory or cannot be read; every
// problem inside the workspace becomes a diagnostic in Workspace.Diagnostics.
func Load(root string, opts Options) (*Workspace, error) {
	if root == "" {
		root = "."
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("workspace %q cannot be read (%v)", root, err)
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("workspace %q does not exist", root)
	case err != nil:
		return nil, fmt.Errorf("workspace %q cannot be read (%v)", root, underlying(err))
	case !fi.IsDir():
		return nil, fmt.Errorf("workspace %q is not a directory", root)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace %q cannot be read (%v)", root, underlying(err))
	}
	// The walk resolves every symbolic link itself and never opens a path
	// that leaves the workspace, so plain opens are safe here; os.Root would
	// re-check every folder of every path and double the cost of a load.
	fsys := os.DirFS(real)
	if _, err := fs.ReadDir(fsys, "."); err != nil {
		return nil, fmt.Errorf("workspace %q cannot be read (%v)", root, underlying(err))
	}

	skip := make([]string, 0, len(opts.Skip))
	for _, s := range opts.Skip {
		if filepath.IsAbs(s) {
			rel, ok := relInside(abs, s)
			if !ok {
				rel, ok = relInside(real, s)
			}
			if !ok {
				continue // outside the workspace: nothing to skip
			}
			s = rel
		}
		skip = append(skip, s)
	}
	opts.Skip = skip

	l := newLoader(fsys, opts)
	l.absRoot, l.realRoot = abs, real
	ws := l.load()
	ws.Root = abs
	ws.fsys = diskFS(real)
	return ws, nil
}

// LoadFS reads a workspace from a file system, such as the embedded demo or
// an fstest.MapFS in tests. Symbolic links are honoured when fsys implements
// fs.ReadLinkFS, with the same rules as on disk.
func LoadFS(fsys fs.FS, opts Options) (*Workspace, error) {
	if fsys == nil {
		return nil, errors.New("workspace file system is nil")
	}
	if _, err := fs.ReadDir(fsys, "."); err != nil {
		return nil, fmt.Errorf("workspace cannot be read (%v)", underlying(err))
	}
	ws := newLoader(fsys, opts).load()
	ws.fsys = fsys
	return ws, nil
}

// ReadConfig reads the dreamwiki.toml of the folder root as a workspace
// read does (secrets redacted, a symbolic link refused), for a team
// site's [[workspace]] entries. A folder without one has the defaults.
func ReadConfig(root string) (Config, diag.List) {
	ws := &Workspace{Config: DefaultConfig()}
	var diags diag.List
	newLoader(os.DirFS(root), Options{Redact: true}).readConfig(ws, &diags)
	return ws.Config, diags
}

// FileByPath returns the text file at the workspace path p ("memory/x.md"),
// or nil when the workspace has none.
func (w *Workspace) FileByPath(p string) *File {
	if w == nil {
		return nil
	}
	if f := w.byPath[p]; f != nil {
		return f
	}
	return w.byPath[cleanRel(p)]
}

// AssetByPath returns the asset at the workspace path p, or nil.
func (w *Workspace) AssetByPath(p string) *Asset {
	if w == nil {
		return nil
	}
	if a := w.assetByPath[p]; a != nil {
		return a
	}
	return w.assetByPath[cleanRel(p)]
}

// ReadAsset returns the bytes of the asset at workspace path p. Only files
// listed in Assets can be read, so a caller passing a path taken from a URL
// can never reach outside the workspace or into a skipped folder.
func (w *Workspace) ReadAsset(p string) ([]byte, error) {
	if w == nil {
		return nil, errors.New("no workspace")
	}
	a := w.AssetByPath(p)
	if a == nil || w.fsys == nil {
		return nil, &fs.PathError{Op: "read", Path: p, Err: fs.ErrNotExist}
	}
	f, err := w.fsys.Open(a.source)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: a.Path, Err: underlying(err)}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: a.Path, Err: underlying(err)}
	}
	if len(b) > MaxFileSize {
		return nil, &fs.PathError{Op: "read", Path: a.Path, Err: errors.New("file grew over the 16 MiB limit")}
	}
	if w.state != nil && w.state.opts.Redact && textAsset(a.Path) {
		// An SVG is copied byte for byte: its text and metadata are
		// redacted as a note's are (reported when it was read).
		if s := string(b); secrets.Contains(s) || w.Config.Publish.RedactPersonal {
			out, _ := w.Config.Guard().Redact(s)
			b = []byte(out)
		}
	}
	return b, nil
}

// diskFS opens files under a directory through os.Root on each call, so no
// descriptor is held between calls and no symlink can lead outside.
type diskFS string

// Open opens name inside the directory, refusing any path that leaves it.
func (d diskFS) Open(name string) (fs.File, error) {
	r, err := os.OpenRoot(string(d))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.FS().Open(name)
}

// underlying strips the *PathError wrapper, whose absolute path would only
// repeat what the message already says.
func underlying(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// relInside returns target relative to base (slash-separated) when target
// lies inside base.
func relInside(base, target string) (string, bool) {
	rel, err := filepath.Rel(base, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// cleanRel normalises a user-supplied workspace path.
func cleanRel(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	p = path.Clean("/" + p)
	return strings.TrimPrefix(p, "/")
}

// Withholds reports whether the workspace path p names a private file that
// a read with OmitPrivate left out (see Withheld).
func (w *Workspace) Withholds(p string) bool {
	if w == nil || len(w.Withheld) == 0 {
		return false
	}
	p = cleanRel(p)
	i := sort.Search(len(w.Withheld), func(i int) bool { return w.Withheld[i].Path >= p })
	return i < len(w.Withheld) && w.Withheld[i].Path == p
}
