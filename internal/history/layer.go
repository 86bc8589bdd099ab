package history

import (
	"bytes"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// layerFS is a workspace as it stood: files of its own (a commit's blobs,
// a backup's copies, a file with lines cut) over an optional base (the
// workspace on disk), less the paths that did not exist then or must not
// be shown. Symbolic links are left to the base, whose rules the
// workspace reader applies as on disk.
type layerFS struct {
	base  fs.FS
	files map[string]*layerFile
	gone  map[string]bool
	hide  func(string) bool
	// dirs are the folders the own files sit in (and sat in, for a file
	// removed), each with its children: made on first use (folders), as
	// most snapshots of a history are only opened file by file.
	dirs map[string]map[string]bool
	// removed are the own files removed before dirs was made.
	removed []string
	// unread are the folders of a commit no reader opens, by path: each
	// is listed in its folder, and its own layer is read from git when
	// something in it is first opened or listed.
	unread map[string]*unreadDir
	// edited is set on a layer Snapshot.Edit made, whose files carry
	// no content hash.
	edited bool
}

// layerFile is one file of the layer; read gives its bytes on demand, so
// a commit's blobs are read only when the workspace reader opens them.
type layerFile struct {
	// size is the file's size; -1 when it is known only once read (a git
	// blob, whose header would cost a read of its own).
	size int64
	mod  time.Time
	read func() ([]byte, error)
	// hash is a git blob's content hash, zero for other files.
	hash plumbing.Hash
}

// unreadDir is a folder of a commit not read yet.
type unreadDir struct {
	hash plumbing.Hash
	load func() (*layerFS, error)
}

// in returns the unread folder that holds name and name's path in it.
func (l *layerFS) in(name string) (u *unreadDir, rel string, ok bool) {
	for d, u := range l.unread {
		if rel, ok := strings.CutPrefix(name, d+"/"); ok {
			return u, rel, true
		}
	}
	return nil, "", false
}

// sizeOf is the file's size, read from its content when it is not known
// (0 when the content cannot be read: opening it then says why).
func (f *layerFile) sizeOf() int64 {
	if f.size >= 0 {
		return f.size
	}
	data, err := f.read()
	if err != nil {
		return 0
	}
	return int64(len(data))
}

// newLayer makes an empty layer over base, sized for n own files.
func newLayer(base fs.FS, hide func(string) bool, n int) *layerFS {
	return &layerFS{base: base, files: make(map[string]*layerFile, n), gone: map[string]bool{}, hide: hide}
}

// put sets the file at p, replacing the base's.
func (l *layerFS) put(p string, f *layerFile) {
	l.files[p] = f
	delete(l.gone, p)
	if l.dirs != nil {
		l.addDirs(p)
	}
}

// addDirs lists p in its folder, and each folder in its own.
func (l *layerFS) addDirs(p string) {
	for child := p; child != "."; {
		dir := path.Dir(child)
		if l.dirs[dir] == nil {
			l.dirs[dir] = map[string]bool{}
		}
		l.dirs[dir][path.Base(child)] = true
		child = dir
	}
}

// folders returns dirs, making it on first use.
func (l *layerFS) folders() map[string]map[string]bool {
	if l.dirs == nil {
		l.dirs = map[string]map[string]bool{".": {}}
		for p := range l.files {
			l.addDirs(p)
		}
		for _, p := range l.removed {
			l.addDirs(p)
		}
		for d := range l.unread {
			l.addDirs(d)
		}
		l.removed = nil
	}
	return l.dirs
}

// remove hides the base's file at p.
func (l *layerFS) remove(p string) {
	if _, own := l.files[p]; own && l.dirs == nil {
		l.removed = append(l.removed, p)
	}
	delete(l.files, p)
	l.gone[p] = true
}

// clone copies the layer so that edits to the copy leave l as it is.
func (l *layerFS) clone() *layerFS {
	c := newLayer(l.base, l.hide, len(l.files))
	for p, f := range l.files {
		c.put(p, f)
	}
	for p := range l.gone {
		c.gone[p] = true
	}
	c.unread = l.unread // never changed once made
	return c
}

func (l *layerFS) hidden(p string) bool {
	return l.gone[p] || (l.hide != nil && p != "." && l.hide(p))
}

func (l *layerFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if l.hidden(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if u, rel, ok := l.in(name); ok {
		sub, err := u.load()
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return sub.Open(rel)
	}
	if l.unread[name] != nil {
		return &openDir{info: fileInfo{name: path.Base(name), dir: true}, l: l, name: name}, nil
	}
	if f := l.files[name]; f != nil {
		data, err := f.read()
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &openFile{Reader: bytes.NewReader(data), info: fileInfo{name: path.Base(name), size: int64(len(data)), mod: f.mod}}, nil
	}
	var st fs.FileInfo
	if l.base != nil {
		f, err := l.base.Open(name)
		if err != nil {
			if _, own := l.folders()[name]; !own {
				return nil, err
			}
		} else if st, err = f.Stat(); err != nil || !st.IsDir() {
			return f, nil // a base file as it is (or its Stat error)
		} else {
			f.Close()
		}
	}
	if st == nil {
		if _, own := l.folders()[name]; !own {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		st = fileInfo{name: path.Base(name), dir: true}
	}
	// A folder lists the layer's files with the base's.
	return &openDir{info: st, l: l, name: name}, nil
}

// ReadDir merges the base's entries with the layer's, sorted by name.
func (l *layerFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	if l.hidden(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	u, rel, in := l.in(name)
	if u == nil && l.unread[name] != nil {
		u, rel, in = l.unread[name], ".", true
	}
	if in {
		sub, err := u.load()
		if err != nil {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
		}
		return sub.ReadDir(rel)
	}
	byName := map[string]fs.DirEntry{}
	own, isOwn := l.folders()[name]
	if l.base != nil {
		entries, err := fs.ReadDir(l.base, name)
		if err != nil && !isOwn {
			return nil, err
		}
		for _, e := range entries {
			byName[e.Name()] = e
		}
	} else if !isOwn {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	for child := range own {
		p := joinPath(name, child)
		if f := l.files[p]; f != nil {
			byName[child] = fs.FileInfoToDirEntry(fileInfo{name: child, size: f.sizeOf(), mod: f.mod})
		} else if _, ok := byName[child]; !ok {
			byName[child] = fs.FileInfoToDirEntry(fileInfo{name: child, dir: true})
		}
	}
	out := make([]fs.DirEntry, 0, len(byName))
	for _, n := range slices.Sorted(maps.Keys(byName)) {
		if !l.hidden(joinPath(name, n)) {
			out = append(out, byName[n])
		}
	}
	return out, nil
}

// ReadLink and Lstat let the workspace reader see the base's symbolic
// links and apply its rules to them; the layer's own files are none.
func (l *layerFS) ReadLink(name string) (string, error) {
	rl, ok := l.base.(fs.ReadLinkFS)
	if !ok || l.hidden(name) || l.files[name] != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	return rl.ReadLink(name)
}

func (l *layerFS) Lstat(name string) (fs.FileInfo, error) {
	if rl, ok := l.base.(fs.ReadLinkFS); ok && !l.hidden(name) && l.files[name] == nil {
		if _, own := l.folders()[name]; !own {
			return rl.Lstat(name)
		}
	}
	return fs.Stat(l, name)
}

func joinPath(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

type fileInfo struct {
	name string
	size int64
	mod  time.Time
	dir  bool
}

func (fi fileInfo) Name() string       { return fi.name }
func (fi fileInfo) Size() int64        { return fi.size }
func (fi fileInfo) ModTime() time.Time { return fi.mod }
func (fi fileInfo) IsDir() bool        { return fi.dir }
func (fi fileInfo) Sys() any           { return nil }
func (fi fileInfo) Mode() fs.FileMode {
	if fi.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}

type openFile struct {
	*bytes.Reader
	info fileInfo
}

func (f *openFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *openFile) Close() error               { return nil }

type openDir struct {
	info fs.FileInfo
	l    *layerFS
	name string
	rest []fs.DirEntry
	read bool
}

func (d *openDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *openDir) Close() error               { return nil }
func (d *openDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: fs.ErrInvalid}
}

func (d *openDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.read {
		entries, err := d.l.ReadDir(d.name)
		if err != nil {
			return nil, err
		}
		d.rest, d.read = entries, true
	}
	if n <= 0 {
		out := d.rest
		d.rest = nil
		return out, nil
	}
	if len(d.rest) == 0 {
		return nil, io.EOF
	}
	k := min(n, len(d.rest))
	out := d.rest[:k]
	d.rest = d.rest[k:]
	return out, nil
}

// CutLines returns data without the 1-based inclusive line ranges cut.
func CutLines(data []byte, cut [][2]int) []byte {
	lines := strings.SplitAfter(string(data), "\n")
	var b strings.Builder
	for i, line := range lines {
		n := i + 1
		if slices.ContainsFunc(cut, func(r [2]int) bool { return n >= r[0] && n <= r[1] }) {
			continue
		}
		b.WriteString(line)
	}
	return []byte(b.String())
}
