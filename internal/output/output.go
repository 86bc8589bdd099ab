// Package output is where builds write: a directory on disk, swapped into
// place atomically when the build succeeds (Swap), or memory (serve mode).
// A Dir never writes outside its root, a build writes only into a folder
// that is new, empty or marked as an earlier build's (CheckOwned), and
// never into a workspace it reads or over one (CheckApart).
package output

import (
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Writer receives the files of a build. Names are slash-separated and
// relative to the output root. Implementations are safe for concurrent use.
type Writer interface {
	WriteFile(name string, data []byte) error
}

// Sub returns a Writer that writes under prefix of w.
func Sub(w Writer, prefix string) Writer { return sub{w, strings.Trim(prefix, "/")} }

type sub struct {
	w      Writer
	prefix string
}

func (s sub) WriteFile(name string, data []byte) error {
	return s.w.WriteFile(path.Join(s.prefix, name), data)
}

// Dir writes files under a directory, creating folders as needed.
//
// Files are created one at a time per folder. Creating a file takes the
// folder's lock in the kernel, and a thread waiting for it spins on a CPU:
// with eight writers creating in one folder of 26,000 claim pages, a
// quarter of a build's CPU went to that spinning (ext4, 2 cores). A goroutine waiting on a Go mutex
// instead gives its core to the renderers. Writing the bytes needs no
// folder lock and runs in parallel.
type Dir struct {
	Root string
	mu   sync.Mutex
	dirs map[string]*sync.Mutex // folders made so far, each with its create lock
}

// NewDir returns a Writer rooted at dir.
func NewDir(dir string) *Dir { return &Dir{Root: dir, dirs: map[string]*sync.Mutex{}} }

// WriteFile writes one file. Names that would leave the root are refused.
func (d *Dir) WriteFile(name string, data []byte) error {
	clean := path.Clean("/" + name)[1:]
	if clean == "" || clean != name {
		return fmt.Errorf("output: refusing to write %q outside the output folder", name)
	}
	full := filepath.Join(d.Root, filepath.FromSlash(clean))
	lock, err := d.folder(filepath.Dir(full))
	if err != nil {
		return err
	}
	lock.Lock()
	f, err := create(full)
	lock.Unlock()
	if err != nil {
		return err
	}
	return f.writeAll(data)
}

// folder makes dir on first use and returns its create lock.
func (d *Dir) folder(dir string) (*sync.Mutex, error) {
	d.mu.Lock()
	lock, ok := d.dirs[dir]
	d.mu.Unlock()
	if ok {
		return lock, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if lock, ok = d.dirs[dir]; !ok {
		lock = new(sync.Mutex)
		d.dirs[dir] = lock
	}
	return lock, nil
}

// Memory keeps files in memory, for serve mode and tests.
type Memory struct {
	mu    sync.RWMutex
	files map[string][]byte
}

// NewMemory returns an empty in-memory output.
func NewMemory() *Memory { return &Memory{files: map[string][]byte{}} }

// WriteFile stores a copy of data.
func (m *Memory) WriteFile(name string, data []byte) error {
	m.mu.Lock()
	m.files[name] = append([]byte(nil), data...)
	m.mu.Unlock()
	return nil
}

// Get returns a file's bytes.
func (m *Memory) Get(name string) ([]byte, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	b, ok := m.files[name]
	return b, ok
}

// Names returns every file name, sorted.
func (m *Memory) Names() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return slices.Sorted(maps.Keys(m.files))
}
