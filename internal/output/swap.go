package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// TempPrefix starts the name of the folder a build writes into, inside
// its output folder, before its parts replace the output's own.
const TempPrefix = ".build-"

// Swap writes a build's output into out: write fills a temporary folder
// in out with parts (such as vault/ and site/), and each then replaces
// out's own in one step (exchange), so that a part that existed always
// exists, old or new, wherever the build is killed. Nothing is replaced
// when write fails. out is marked as dreamwiki's (MarkOwned) before
// anything is written into it.
//
// Swap first removes what builds killed before it left: their temporary
// folders, unless the build is still running (each holds a lock on its
// folder while it lives), and the parts' .old folders of builds made
// before the exchange existed, restoring a part such a build had moved
// aside and not replaced.
func Swap(out string, parts []string, write func(tmp string) error) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("creating the output folder: %w", err)
	}
	if err := MarkOwned(out); err != nil {
		return err
	}
	if err := removeDead(out, parts); err != nil {
		return err
	}
	tmp, unlock, err := tempFolder(out)
	if err != nil {
		return fmt.Errorf("creating a temporary folder in %s: %w", out, err)
	}
	defer func() {
		os.RemoveAll(tmp)
		unlock()
	}()
	if err := write(tmp); err != nil {
		return err
	}
	for _, part := range parts {
		if err := replace(filepath.Join(tmp, part), filepath.Join(out, part)); err != nil {
			return err
		}
	}
	return nil
}

// replace puts the tree at next in place of final. An existing final is
// exchanged with next in one rename where the platform and file system
// can, and the old tree is left at next; elsewhere it is first moved to
// next+".old", beside next, and moved back should next fail to move in.
func replace(next, final string) error {
	if _, err := os.Lstat(final); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(next, final)
	}
	err := exchange(next, final)
	if !errors.Is(err, errors.ErrUnsupported) {
		if err != nil {
			return fmt.Errorf("moving the new build into %s: %w", final, err)
		}
		return nil
	}
	old := next + ".old"
	if err := os.Rename(final, old); err != nil {
		return fmt.Errorf("moving the previous %s aside: %w", final, err)
	}
	if err := os.Rename(next, final); err != nil {
		_ = os.Rename(old, final)
		return fmt.Errorf("moving the new build into %s: %w", final, err)
	}
	return nil
}

// tempFolder makes a temporary folder in out and locks it for as long as
// this build lives; unlock releases it.
func tempFolder(out string) (tmp string, unlock func(), err error) {
	for {
		tmp, err := os.MkdirTemp(out, TempPrefix)
		if err != nil {
			return "", nil, err
		}
		unlock, err := lockFolder(tmp)
		if errors.Is(err, fs.ErrNotExist) {
			continue // another build found it unlocked, and removed it
		}
		if err != nil {
			os.RemoveAll(tmp)
			return "", nil, err
		}
		return tmp, unlock, nil
	}
}

// removeDead removes the temporary folders of builds that no longer run,
// first putting back any part such a build had moved aside and not
// replaced, and the parts' .old folders earlier versions left.
func removeDead(out string, parts []string) error {
	entries, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), TempPrefix) {
			continue
		}
		dir := filepath.Join(out, e.Name())
		unlock, dead := lockDead(dir)
		if !dead {
			continue
		}
		err := restore(dir, out, parts)
		if err == nil {
			err = os.RemoveAll(dir)
		}
		unlock()
		if err != nil {
			return fmt.Errorf("removing %s, left by a build that was stopped: %w", dir, err)
		}
	}
	// Builds before the exchange moved a part to out/<part>.old.
	if err := restore(out, out, parts); err != nil {
		return fmt.Errorf("restoring a build that was stopped: %w", err)
	}
	return nil
}

// restore moves each <part>.old in dir back to out/<part> where that is
// missing, and removes it where it is not.
func restore(dir, out string, parts []string) error {
	for _, part := range parts {
		old := filepath.Join(dir, part+".old")
		if _, err := os.Lstat(old); err != nil {
			continue
		}
		final := filepath.Join(out, part)
		if _, err := os.Lstat(final); errors.Is(err, fs.ErrNotExist) {
			if err := os.Rename(old, final); err != nil {
				return err
			}
			continue
		}
		if err := os.RemoveAll(old); err != nil {
			return err
		}
	}
	return nil
}
