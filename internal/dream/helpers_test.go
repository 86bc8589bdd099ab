package dream

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// at is a fixed clock.
func at(s string) func() time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return func() time.Time { return t }
}

// workspaceFrom writes a txtar workspace into a temporary folder.
func workspaceFrom(t testing.TB, src string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range txtar.Parse([]byte(src)).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// demoCopy copies the embedded demo workspace into a temporary folder.
func demoCopy(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, "../demo/workspace", dir)
	return dir
}

// snapshot maps every file of a workspace (outside .backup/ and
// .dreamwiki/) to its content.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".backup" || rel == ".dreamwiki" {
				return filepath.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// generated writes the generated workspace the crash tests dream over, and
// returns it with the time of that dream.
func generated(t testing.TB) (dir, now string) {
	dir = t.TempDir()
	end := genWorkspace(dir, 3, 10, 6)
	return dir, end.Add(7 * time.Hour).Format(time.RFC3339)
}

// forcedPlan plans a forced dream in which a person chose every proposal
// (issue #23, rule 1: without a choice or recall signals past the gates a
// dream writes no line), and fails the test on error. Tests of what a
// dream writes, and how, use it; tests of what it may write alone call
// NewPlan.
func forcedPlan(t testing.TB, dir, now string) *Plan {
	t.Helper()
	pl, err := NewPlan(context.Background(), dir, Options{Now: at(now), Force: true, Choose: chooseAll(t, dir, now)})
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

// chooseAll is the id of every proposal a forced dream makes. A dream
// after a crash plans once the earlier run's files are put back, so over
// a workspace waiting for that recovery it answers what it answered for
// the folder before the crash.
func chooseAll(t testing.TB, dir, now string) []string {
	t.Helper()
	pl, err := NewPlan(context.Background(), dir, Options{Now: at(now), Force: true})
	if errors.Is(err, ErrRecoveryNeeded) {
		chosenMu.Lock()
		defer chosenMu.Unlock()
		return chosenFor[dir]
	}
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range pl.Proposals {
		ids = append(ids, p.ID)
	}
	chosenMu.Lock()
	chosenFor[dir] = ids
	chosenMu.Unlock()
	return ids
}

var (
	chosenMu  sync.Mutex
	chosenFor = map[string][]string{}
)

// dream runs a forced dream in which a person chose every proposal
// (forcedPlan), and fails the test on error.
func dream(t testing.TB, dir string, now string) *Result {
	t.Helper()
	res, err := Run(context.Background(), dir, Options{Now: at(now), Force: true, Choose: chooseAll(t, dir, now)}, false, nil)
	if err != nil {
		t.Fatalf("dream: %v", err)
	}
	if !res.Applied {
		t.Fatalf("dream not applied: %+v", res.Plan.Gates)
	}
	return res
}

func load(t testing.TB, dir string) *workspace.Workspace {
	t.Helper()
	ws, err := workspace.Load(dir, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func read(t testing.TB, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// curatedTexts lists the entry texts of MEMORY.md and the L2 files.
func curatedTexts(ws *workspace.Workspace) []string {
	var out []string
	for _, e := range ws.Memory.Entries() {
		out = append(out, e.Text)
	}
	for _, tp := range ws.Topics {
		for _, e := range tp.Entries() {
			out = append(out, e.Text)
		}
	}
	return out
}

// addedLines are the "+" lines of a plan's diffs of Markdown files.
func addedLines(pl *Plan) []string {
	var out []string
	for _, f := range pl.Files {
		if !strings.HasSuffix(f.Path, ".md") {
			continue
		}
		for _, l := range strings.Split(f.Diff, "\n") {
			if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
				out = append(out, strings.TrimPrefix(l, "+"))
			}
		}
	}
	return out
}

func appendFile(p, s string) error {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(s); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// diagText is every diagnostic of a list, one a line.
func diagText(l diag.List) string {
	var b strings.Builder
	for _, d := range l {
		b.WriteString(d.Error() + "\n")
	}
	return b.String()
}
