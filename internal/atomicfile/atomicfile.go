// Package atomicfile writes a file so that a reader, or a crash, sees the
// old bytes or the new ones and never a mix: the data goes to a temporary
// file in the same folder, is synced, and is renamed over the target.
// It is the one place dreamwiki's writers get that rule from.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Write writes data to p through a temporary file beside it and a rename,
// creating p's folder if needed.
func Write(p string, data []byte) error {
	f, err := Create(p)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// File is a temporary file that replaces its target on Commit.
type File struct {
	*os.File
	target string
}

// Create opens a temporary file that will replace p when committed.
func Create(p string) (*File, error) {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".*"+tempSuffix)
	if err != nil {
		return nil, err
	}
	return &File{File: f, target: p}, nil
}

// Commit syncs and closes the temporary file and renames it over the
// target. On failure the temporary file is removed and the target is left
// as it was.
func (f *File) Commit() error {
	err := f.Finish()
	if err == nil {
		err = os.Rename(f.Name(), f.target)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Finish syncs and closes the temporary file without renaming it, for a
// writer that records the rename in a journal first (it renames the file
// itself, or RemoveTemps removes it). On failure the file is removed.
func (f *File) Finish() error {
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Abort closes and removes the temporary file; the target is untouched.
func (f *File) Abort() {
	f.Close()
	os.Remove(f.Name())
}

const tempSuffix = ".tmp"

// IsTemp reports whether a file name is one of Create's temporary files:
// "." + the target's name + "." + digits + ".tmp".
func IsTemp(name string) bool {
	rest, ok := strings.CutSuffix(name, tempSuffix)
	if !ok || !strings.HasPrefix(rest, ".") {
		return false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 1 || i == len(rest)-1 {
		return false
	}
	for _, c := range rest[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// RemoveTemps removes every temporary file under dir (see IsTemp): what
// writers killed before their rename left behind. It must not run while
// another writer works under dir, and a missing dir is no error.
func RemoveTemps(dir string) error {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && IsTemp(d.Name()) {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
