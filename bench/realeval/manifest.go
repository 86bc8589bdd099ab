package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Workspace is one row of manifest.tsv: a public agent workspace pinned to
// a commit, and whether rule changes may be tuned on it ("dev") or not
// ("heldout").
type Workspace struct {
	Repo    string // owner/name
	Commit  string
	Subdir  string // "." when the workspace is the repository's root
	Lang    string
	Notes   string // as recorded when the manifest was written
	Recall  string // entries of memory/.dreams/short-term-recall.json
	Commits string // commits reachable from Commit
	Set     string // "dev" or "heldout"
}

// Name is the workspace's folder under -data and its name in reports and
// labels: "owner+name".
func (w Workspace) Name() string { return strings.ReplaceAll(w.Repo, "/", "+") }

// Dir is where the workspace lies under data.
func (w Workspace) Dir(data string) string {
	return filepath.Join(data, w.Name(), filepath.FromSlash(w.Subdir))
}

// readManifest reads manifest.tsv: a header line, then
// owner/name@commit, subdir, lang, notes, recall_entries, commits, set.
func readManifest(path string) ([]Workspace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Workspace
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if n == 1 || strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) < 7 {
			return nil, fmt.Errorf("%s:%d: %d columns; want 7 (workspace, subdir, lang, notes, recall_entries, commits, set)", path, n, len(c))
		}
		repo, commit, ok := strings.Cut(c[0], "@")
		if !ok || len(commit) != 40 {
			return nil, fmt.Errorf("%s:%d: %q is not owner/name@<40-hex commit>", path, n, c[0])
		}
		if c[6] != "dev" && c[6] != "heldout" {
			return nil, fmt.Errorf("%s:%d: set %q is neither dev nor heldout", path, n, c[6])
		}
		sub := c[1]
		if sub == "" {
			sub = "."
		}
		out = append(out, Workspace{Repo: repo, Commit: commit, Subdir: sub, Lang: c[2], Notes: c[3], Recall: c[4], Commits: c[5], Set: c[6]})
	}
	return out, sc.Err()
}
