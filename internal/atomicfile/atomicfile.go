// Package atomicfile writes a file so that a reader, or a crash, sees the
// old bytes or the new ones and never a mix: the data goes to a temporary
// file in the same folder, is synced, and is renamed over the target.
// It is the one place dreamwiki's writers get that rule from.
package atomicfile

import (
	"os"
	"path/filepath"
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
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".*.tmp")
	if err != nil {
		return nil, err
	}
	return &File{File: f, target: p}, nil
}

// Commit syncs and closes the temporary file and renames it over the
// target. On failure the temporary file is removed and the target is left
// as it was.
func (f *File) Commit() error {
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), f.target)
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
