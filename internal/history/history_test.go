package history

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/dreamwiki/dreamwiki/internal/history/historytest"
)

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

var noon = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestTake_WorkspaceInASubfolderOfTheRepositoryReadsOnlyThatFolder(t *testing.T) {
	repo := t.TempDir()
	writeFile(t, filepath.Join(repo, "agent/MEMORY.md"), "- The gateway is the NUC.\n")
	writeFile(t, filepath.Join(repo, "agent/memory/2026-03-01.md"), "- moved it\n")
	writeFile(t, filepath.Join(repo, "agent/notes/secret.md"), "private now\n")
	writeFile(t, filepath.Join(repo, "README.md"), "not the workspace\n")
	if _, err := historytest.Commit(repo, noon, "first"); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(repo, "agent")
	disk, err := OnDisk(ws)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Take(ws, disk, EndOfDay(noon), Options{Hide: func(p string) bool { return p == "notes/secret.md" }})
	if err != nil {
		t.Fatal(err)
	}
	if s.Source != SourceGit {
		t.Fatalf("source %s, want git", s.Source)
	}
	if err := fstest.TestFS(s.FS, "MEMORY.md", "memory/2026-03-01.md"); err != nil {
		t.Error(err)
	}
	for _, p := range []string{"README.md", "agent/MEMORY.md", "notes/secret.md"} {
		if _, err := fs.Stat(s.FS, p); err == nil {
			t.Errorf("%s is in the snapshot", p)
		}
	}
	// Before the first commit there is no git snapshot, and no daily log
	// that old: there is no past to show.
	if _, err = Take(ws, disk, noon.Add(-24*time.Hour), Options{}); !errors.Is(err, ErrNoPast) {
		t.Fatalf("before the first commit, with no log that old: %v, want ErrNoPast", err)
	}
	// A log older than the repository reaches back: the dates are read
	// from the folder, and the snapshot says it is from before git.
	writeFile(t, filepath.Join(repo, "agent/memory/2026-02-20.md"), "- set it up\n")
	s, err = Take(ws, disk, noon.Add(-24*time.Hour), Options{})
	if err != nil || s.Source != SourceDates || s.BeforeGit.IsZero() {
		t.Fatalf("before the first commit: %+v %v, want the dates, before git", s, err)
	}
	if _, err := fs.Stat(s.FS, "memory/2026-03-01.md"); err == nil {
		t.Error("a log of a later day is in the snapshot")
	}
}

func TestTakeFS_BackupsOverlayTheWorkspace(t *testing.T) {
	ws := fstest.MapFS{
		"MEMORY.md":            {Data: []byte("- now\n")},
		"memory/2026-03-01.md": {Data: []byte("- day 1\n")},
		"memory/2026-03-09.md": {Data: []byte("- day 9\n")},
		"memory/topic.md":      {Data: []byte("- topic now\n")},
		// The dream of 03-05 changed MEMORY.md; the one of 03-08 changed it
		// again and wrote a topic file that had been deleted by hand.
		BackupRoot + "/20260305-0700/MEMORY.md.bak":          {Data: []byte("- before the first dream\n")},
		BackupRoot + "/20260308-0700/MEMORY.md.bak":          {Data: []byte("- before the second dream\n")},
		BackupRoot + "/20260308-0700/memory/old/gone.md.bak": {Data: []byte("- deleted since\n")},
		BackupRoot + "/20260308-0700/memory/topic.md.dream":  {Data: []byte("- a rollback's copy, not a backup\n")},
	}
	s, err := TakeFS(ws, EndOfDay(time.Date(2026, 3, 6, 0, 0, 0, 0, time.UTC)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Source != SourceBackups || len(s.Backups) != 1 || s.Backups[0] != "20260308-0700" {
		t.Fatalf("source %s %v, want backups [20260308-0700]", s.Source, s.Backups)
	}
	for p, want := range map[string]string{
		"MEMORY.md":          "- before the second dream\n",
		"memory/old/gone.md": "- deleted since\n",
		"memory/topic.md":    "- topic now\n",
	} {
		if got, err := fs.ReadFile(s.FS, p); err != nil || string(got) != want {
			t.Errorf("%s = %q (%v), want %q", p, got, err, want)
		}
	}
	if err := fstest.TestFS(s.FS, "MEMORY.md", "memory/2026-03-01.md", "memory/old/gone.md", "memory/topic.md"); err != nil {
		t.Error(err)
	}
	if _, err := fs.Stat(s.FS, "memory/2026-03-09.md"); err == nil {
		t.Error("the log of 03-09 is in a snapshot of 03-06")
	}
	cut := s.Edit(map[string]func([]byte) ([]byte, error){"MEMORY.md": func([]byte) ([]byte, error) { return []byte("cut\n"), nil }})
	if got, _ := fs.ReadFile(cut.FS, "MEMORY.md"); string(got) != "cut\n" {
		t.Errorf("edited MEMORY.md = %q", got)
	}
	if got, _ := fs.ReadFile(s.FS, "MEMORY.md"); string(got) != "- before the second dream\n" {
		t.Errorf("Edit changed the snapshot it was called on: %q", got)
	}
}

func TestCutLines(t *testing.T) {
	got := string(CutLines([]byte("a\nb\nc\nd\ne"), [][2]int{{2, 3}, {5, 5}}))
	if got != "a\nd\n" {
		t.Errorf("got %q", got)
	}
}

func TestTakeFS_ABackupThatIsASymbolicLinkIsNotRead(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	writeFile(t, outside, "outside the workspace\n")
	writeFile(t, filepath.Join(dir, "MEMORY.md"), "- now\n")
	run := filepath.Join(dir, BackupRoot, "20260308-0700")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(run, "MEMORY.md.bak")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	disk, err := OnDisk(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := TakeFS(disk, EndOfDay(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := fs.ReadFile(s.FS, "MEMORY.md"); string(got) != "- now\n" || s.Source != SourceDates {
		t.Errorf("MEMORY.md = %q from %s, want the workspace's own from the dates", got, s.Source)
	}
}

// TestPast_ContentsServeOnlyTheFilesTheyAre checks that the contents a
// caller already read (the workspace now) stand in for a commit's files
// by content hash only: a file changed since reads as it was, one that
// did not reads the same.
func TestPast_ContentsServeOnlyTheFilesTheyAre(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "MEMORY.md"), "- The gateway is the Pi.\n")
	writeFile(t, filepath.Join(ws, "memory/2026-03-01.md"), "- moved it\n")
	if _, err := historytest.Commit(ws, noon, "first"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(ws, "MEMORY.md"), "- The gateway is the NUC.\n")
	if _, err := historytest.Commit(ws, noon.Add(48*time.Hour), "second"); err != nil {
		t.Fatal(err)
	}
	disk, err := OnDisk(ws)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Open(ws, disk, Options{Contents: []string{"- The gateway is the NUC.\n", "- moved it\n"}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.At(EndOfDay(noon))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"MEMORY.md": "- The gateway is the Pi.\n", "memory/2026-03-01.md": "- moved it\n"} {
		if got, err := fs.ReadFile(s.FS, path); err != nil || string(got) != want {
			t.Errorf("%s as of the first commit: %q %v, want %q", path, got, err, want)
		}
	}
}

// TestSnapshot_FoldersNoReaderOpensAreReadWhenOpened checks a commit's
// dot-folders (the dreams' backups, a vault's .obsidian): listed in their
// folder, their files there when opened (private ones still hidden), and
// a change in them named by the folder.
func TestSnapshot_FoldersNoReaderOpensAreReadWhenOpened(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "MEMORY.md"), "- The gateway is the Pi.\n")
	writeFile(t, filepath.Join(ws, "memory/.dreams/short-term-recall.json"), "{}\n")
	writeFile(t, filepath.Join(ws, BackupRoot+"/20260301-0700/MEMORY.md.bak"), "- before\n")
	writeFile(t, filepath.Join(ws, BackupRoot+"/20260301-0700/secret.md.bak"), "private\n")
	writeFile(t, filepath.Join(ws, "notes/vault/.obsidian/app.json"), "{}\n")
	if _, err := historytest.Commit(ws, noon, "first"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(ws, BackupRoot+"/20260302-0700/MEMORY.md.bak"), "- the Pi\n")
	if _, err := historytest.Commit(ws, noon.Add(24*time.Hour), "second"); err != nil {
		t.Fatal(err)
	}
	disk, err := OnDisk(ws)
	if err != nil {
		t.Fatal(err)
	}
	hide := func(p string) bool { return p == BackupRoot+"/20260301-0700/secret.md.bak" }
	p, err := Open(ws, disk, Options{Hide: hide})
	if err != nil {
		t.Fatal(err)
	}
	first, err := p.At(EndOfDay(noon))
	if err != nil {
		t.Fatal(err)
	}
	second, err := p.At(EndOfDay(noon.Add(24 * time.Hour)))
	if err != nil {
		t.Fatal(err)
	}
	changed, ok := second.ChangedSince(first)
	if !ok || len(changed) != 1 || changed[0] != ".backup" {
		t.Errorf("changed since the first commit: %v %v, want [.backup]", changed, ok)
	}
	if err := fstest.TestFS(second.FS, "MEMORY.md", "memory/.dreams/short-term-recall.json", "notes/vault/.obsidian/app.json",
		BackupRoot+"/20260301-0700/MEMORY.md.bak", BackupRoot+"/20260302-0700/MEMORY.md.bak"); err != nil {
		t.Error(err)
	}
	if got, err := fs.ReadFile(second.FS, BackupRoot+"/20260302-0700/MEMORY.md.bak"); err != nil || string(got) != "- the Pi\n" {
		t.Errorf("the backup reads %q %v", got, err)
	}
	if _, err := fs.Stat(second.FS, BackupRoot+"/20260301-0700/secret.md.bak"); err == nil {
		t.Error("a hidden file in a backup is in the snapshot")
	}
}

// TestPast_AFilePrivateNowIsHiddenByContentWhereverItWas holds a past
// commit to today's privacy by content as well as by path: the version a
// commit had at a path private now, and today's private version, are
// hidden wherever they were, and so is every earlier version at a path
// that held one; a public file that never held one stays.
func TestPast_AFilePrivateNowIsHiddenByContentWhereverItWas(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "MEMORY.md"), "- public\n")
	writeFile(t, filepath.Join(ws, "memory/health.md"), "- version one\n")
	writeFile(t, filepath.Join(ws, "memory/copy.md"), "- stays public\n")
	commit := func(day int) {
		t.Helper()
		if _, err := historytest.Commit(ws, noon.AddDate(0, 0, day), "day"); err != nil {
			t.Fatal(err)
		}
	}
	commit(0)
	writeFile(t, filepath.Join(ws, "memory/health.md"), "- version two\n")
	commit(1)
	// Moved with git into a private folder on day 2, edited since.
	writeFile(t, filepath.Join(ws, "memory/private/health.md"), "- version two\n")
	must(t, os.Remove(filepath.Join(ws, "memory/health.md")))
	commit(2)
	writeFile(t, filepath.Join(ws, "memory/private/health.md"), "- version three\n")
	// A note moved in the work tree only, unedited.
	writeFile(t, filepath.Join(ws, "memory/diary.md"), "- dear diary\n")
	commit(3)
	writeFile(t, filepath.Join(ws, "memory/private/diary.md"), "- dear diary\n")
	must(t, os.Remove(filepath.Join(ws, "memory/diary.md")))

	disk, err := OnDisk(ws)
	if err != nil {
		t.Fatal(err)
	}
	hide := func(p string) bool { return filepath.Dir(p) == "memory/private" }
	opts := Options{Hide: hide, Private: []string{blobID("- version three\n"), blobID("- dear diary\n")}}
	p, err := Open(ws, disk, opts)
	if err != nil {
		t.Fatal(err)
	}
	for day := range 4 {
		s, err := p.At(EndOfDay(noon.AddDate(0, 0, day)))
		if err != nil || s.Source != SourceGit {
			t.Fatalf("day %d: %v %v", day, s, err)
		}
		for _, gone := range []string{"memory/health.md", "memory/private/health.md", "memory/diary.md"} {
			if _, err := fs.Stat(s.FS, gone); err == nil {
				t.Errorf("day %d: %s is in the snapshot", day, gone)
			}
		}
		for _, kept := range []string{"MEMORY.md", "memory/copy.md"} {
			if _, err := fs.Stat(s.FS, kept); err != nil {
				t.Errorf("day %d: %s is not in the snapshot (%v)", day, kept, err)
			}
		}
	}
}

func blobID(s string) string {
	return plumbing.ComputeHash(plumbing.BlobObject, []byte(s)).String()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
