package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// MarkerFile is written into every output folder a build has filled. A
// build replaces the site/ and vault/ folders of its output wholesale, so it
// only writes into a folder that is empty, new, or carries this marker:
// pointed at a folder of someone's own files by mistake, it must stop
// before it deletes any of them.
const MarkerFile = ".dreamwiki-output"

const markerText = "This folder is written by `dreamwiki build`: its site/ and vault/ are\n" +
	"replaced on every build. Keep your own files elsewhere.\n"

// NotOursError reports an output folder that holds files dreamwiki did not
// write.
type NotOursError struct {
	Dir   string
	Found string // one of the entries that makes the folder foreign
}

func (e *NotOursError) Error() string {
	return fmt.Sprintf("%s is not empty and was not made by dreamwiki build (it holds %s and no %s); "+
		"nothing was written. Choose an empty or new --out folder, or pass --force to build into it anyway",
		e.Dir, e.Found, MarkerFile)
}

// CheckOwned returns nil when a build may write into dir: dir does not
// exist, is empty, carries MarkerFile, or is the output of a dreamwiki
// build made before markers existed (only vault/ with its manifest and
// the other folders a build manages, see Managed). Anything else is a
// *NotOursError. manifest is the vault's manifest file name.
func CheckOwned(dir, manifest string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the output folder %s: %w", dir, err)
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, MarkerFile)); err == nil {
		return nil
	}
	var vault bool
	for _, e := range entries {
		switch name := e.Name(); {
		case e.IsDir() && name == VaultDir:
			_, err := os.Stat(filepath.Join(dir, VaultDir, manifest))
			vault = err == nil
		case e.IsDir() && Managed(name):
		default:
			return &NotOursError{Dir: dir, Found: describe(e)}
		}
	}
	if !vault {
		return &NotOursError{Dir: dir, Found: "site/ or vault/ without a dreamwiki vault manifest"}
	}
	return nil
}

func describe(e fs.DirEntry) string {
	if e.IsDir() {
		return e.Name() + "/"
	}
	return e.Name()
}

// MarkOwned writes MarkerFile into dir, if it is not there yet. Only its
// presence counts, so it is written in place: a build killed while
// writing it leaves a folder that is marked all the same.
func MarkOwned(dir string) error {
	p := filepath.Join(dir, MarkerFile)
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	if err := os.WriteFile(p, []byte(markerText), 0o644); err != nil {
		return fmt.Errorf("marking %s as dreamwiki's output: %w", dir, err)
	}
	return nil
}
