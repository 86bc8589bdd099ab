package output

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// The folders a build writes in its output folder: the vault and the
// site, each replaced whole by Swap, and the backups of vault files a
// person edited, which it adds to.
const (
	VaultDir  = "vault"
	SiteDir   = "site"
	BackupDir = "vault-backup"
)

// Managed reports whether name, an entry of an output folder, is one a
// build writes, replaces or removes: VaultDir, SiteDir, BackupDir, a
// temporary folder (TempPrefix) and the .old folders builds of earlier
// versions left.
func Managed(name string) bool {
	switch name {
	case VaultDir, SiteDir, BackupDir, VaultDir + ".old", SiteDir + ".old":
		return true
	}
	return strings.HasPrefix(name, TempPrefix)
}

// OverlapError reports an output folder that is a workspace the build
// reads, or one of whose managed folders holds that workspace.
type OverlapError struct {
	Out, Workspace string // as given
	// Same is set when they are one folder (Resolved); otherwise the
	// workspace lies in the output's folder Part.
	Same     bool
	Resolved string
	Part     string
}

func (e *OverlapError) Error() string {
	if e.Same {
		return fmt.Sprintf("the output folder %s is the workspace %s (both are %s): a build would read its own "+
			"output back as notes, and grow with every build; nothing was written. Choose an --out folder outside "+
			"the workspace, or a new folder inside it (such as %s), which builds never read",
			e.Out, e.Workspace, e.Resolved, filepath.Join(e.Workspace, "dist"))
	}
	return fmt.Sprintf("the workspace %s lies inside %s, which a build into %s replaces; nothing was written. "+
		"Choose an --out folder that does not hold the workspace", e.Workspace, filepath.Join(e.Out, e.Part), e.Out)
}

// CheckApart returns an *OverlapError when out, with its symbolic links
// resolved (its nearest existing parent's, when it does not exist yet), is
// one of workspaces, or holds one in a folder a build replaces (Managed).
// An output folder inside a workspace is allowed: the build leaves it out
// of what it reads (Within tells where it is).
func CheckApart(out string, workspaces ...string) error {
	for _, ws := range workspaces {
		rel, ok := Within(out, ws)
		if !ok {
			continue
		}
		if rel == "." {
			r, _ := resolve(out)
			return &OverlapError{Out: out, Workspace: ws, Same: true, Resolved: r}
		}
		if first, _, _ := strings.Cut(rel, "/"); Managed(first) {
			return &OverlapError{Out: out, Workspace: ws, Part: first}
		}
	}
	return nil
}

// Within returns p's path inside dir, slash-separated ("." for dir
// itself), when p lies inside dir once the symbolic links of both are
// resolved (see resolve).
func Within(dir, p string) (string, bool) {
	rd, err1 := resolve(dir)
	rp, err2 := resolve(p)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(rd, rp)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// resolve is p made absolute with its symbolic links resolved. When p
// does not exist yet, its nearest existing parent is resolved and the
// rest of p joined on: where a build would create it.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for dir := abs; ; {
		r, err := filepath.EvalSymlinks(dir)
		if err == nil {
			return filepath.Join(r, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}
