package dream

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// errReplacedChanged says the file a rename was about to replace no longer
// held the bytes hashed just before: someone wrote it in between.
var errReplacedChanged = errors.New("changed while it was being replaced")

// replaceChecked puts staged in target's place, unless target no longer
// holds the bytes whose hash is before ("" for no file) at the instant it
// is replaced: then target is left as it is, with the edit in it, and
// errReplacedChanged is returned. It returns where the replaced bytes are
// now ("" when none are kept), for a last look before they are removed:
// an editor that opened target before the rename writes into them.
//
// On Linux the two files are exchanged (renameat2 RENAME_EXCHANGE), the
// replaced file is hashed where staged was, and an edited one is exchanged
// back: no edit, however late, is replaced unseen. Elsewhere, and on file
// systems that cannot exchange, the file being replaced is hard-linked
// aside first and hashed after the rename, which sees every edit made in
// place; only a file renamed over target between the link and the rename
// still goes unseen.
func replaceChecked(staged, target, before string) (replaced string, err error) {
	if before == "" {
		done, err := renameNoReplace(staged, target)
		if errors.Is(err, os.ErrExist) {
			return "", errReplacedChanged
		}
		if done || !fallBack(err) {
			return "", err
		}
		return "", moveInto(staged, target)
	}
	done, err := exchange(staged, target)
	switch {
	case done && err == nil:
		if h, _ := hashFile(staged); h != before {
			if _, err := exchange(staged, target); err != nil {
				// Not exchanged back: put the edited file back by name
				// (the dream's bytes are in the journal's copy).
				if err := os.Rename(staged, target); err != nil {
					return "", fmt.Errorf("it changed while being replaced and could not be put back (%v); the edited file is %s", err, staged)
				}
			}
			return "", errReplacedChanged
		}
		return staged, nil
	case !fallBack(err):
		return "", err
	}
	aside := staged + ".replaced"
	linked := os.Link(target, aside) == nil
	if err := moveInto(staged, target); err != nil {
		os.Remove(aside)
		return "", err
	}
	if !linked {
		return "", nil
	}
	if h, _ := hashFile(aside); h != before {
		if err := os.Rename(aside, target); err != nil {
			return "", fmt.Errorf("it changed while being replaced and could not be put back (%v); the edited file is %s", err, aside)
		}
		return "", errReplacedChanged
	}
	return aside, nil
}

// fallBack reports an error of an exchange or no-replace rename that the
// plain rename can do without: the system or the file system cannot, or
// the two files are on different file systems.
func fallBack(err error) bool {
	return errors.Is(err, errors.ErrUnsupported) || errors.Is(err, syscall.EINVAL) ||
		errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EXDEV)
}
