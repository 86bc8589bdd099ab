//go:build !unix

package output

import "os"

// file is a file being written (see file_unix.go).
type file struct{ f *os.File }

func create(name string) (file, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	return file{f}, err
}

// writeAll writes data, then closes the file.
func (f file) writeAll(data []byte) error {
	_, err := f.f.Write(data)
	if err1 := f.f.Close(); err == nil {
		err = err1
	}
	return err
}
