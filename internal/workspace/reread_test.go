package workspace

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// rereadBase is a workspace with one file of most kinds, undated topic
// entries (dated by the newest daily log), a data file, an ignored file
// and a symbolic link.
const rereadBase = `
-- MEMORY.md --
# Memory

- Gateway host is the NUC (04-12)
- Backups moved to the NAS (12-30)
- See [[gateway]]
-- memory/2026-04-12.md --
# 2026-04-12

- Moved the gateway to the NUC.
-- memory/2026-04-13.md --
- Nothing happened.
-- memory/gateway.md --
# Gateway

- Runs on the NUC since 04-12.
-- memory/archive/2026-03.md --
- Old host was the Pi (03-02)
-- memory/memory-meta.json --
{"version": 1, "entries": []}
-- notes/ideas.md --
# Ideas
-- notes/run.sh --
echo hi
-- USER.md --
# User
-- archives/telegram/family/DIGEST.md --
# Digest
`

// TestReread_EqualsLoad edits a workspace on disk in every way an editor
// or an agent does, and checks after each edit that Reread of the earlier
// workspace gives exactly what a fresh Load gives.
func TestReread_EqualsLoad(t *testing.T) {
	type step struct {
		name  string
		edit  func(t *testing.T, dir string)
		paths []string
	}
	write := func(p, text string) func(*testing.T, string) {
		return func(t *testing.T, dir string) {
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	steps := []step{
		{"modify a topic file", write("memory/gateway.md", "# Gateway\n\n- Runs on the Mac mini since 04-13.\n- Backups on the NAS since 12-30.\n"), []string{"memory/gateway.md"}},
		{"modify MEMORY.md", write("MEMORY.md", "# Memory\n\n- Gateway host is the Mac mini (04-13)\n- Backups moved to the NAS (12-30)\n"), []string{"MEMORY.md"}},
		{"truncate a note", write("notes/ideas.md", ""), []string{"notes/ideas.md"}},
		{"modify a data file", write("memory/memory-meta.json", `{"version": 1, "entries": [`), []string{"memory/memory-meta.json"}},
		{"modify an ignored file", write("notes/run.sh", "echo bye\n"), []string{"notes/run.sh"}},
		{"a newer daily log re-dates undated entries", write("memory/2027-01-05.md", "- January.\n"), []string{"memory/2027-01-05.md"}},
		{"a new folder with notes", func(t *testing.T, dir string) {
			write("research/deep/a.md", "# A\n")(t, dir)
			write("research/deep/b.txt", "plain\n")(t, dir)
		}, []string{"research"}},
		{"delete a file", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "memory/2026-04-13.md")); err != nil {
				t.Fatal(err)
			}
		}, []string{"memory/2026-04-13.md"}},
		{"rename a file", func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, "notes/ideas.md"), filepath.Join(dir, "notes/plans.md")); err != nil {
				t.Fatal(err)
			}
		}, []string{"notes/ideas.md", "notes/plans.md"}},
		{"new files in new folders, listed one by one", func(t *testing.T, dir string) {
			write("memory/2027-01-06.md", "- Later.\n")(t, dir)
			write("notes/deep/er/c.md", "# C\n")(t, dir)
			write("notes/deep/pic.png", "png")(t, dir)
			write("notes/deep/build.yaml", "a: 1\n")(t, dir)
		}, []string{"memory/2027-01-06.md", "notes/deep/er/c.md", "notes/deep/pic.png", "notes/deep/build.yaml"}},
		{"files the walk never reaches", func(t *testing.T, dir string) {
			write(".backup/memory-dreams/20270106-0700/MEMORY.md.bak", "old\n")(t, dir)
			write("node_modules/x/README.md", "# x\n")(t, dir)
			write("notes/.hidden/a.md", "# a\n")(t, dir)
		}, []string{".backup/memory-dreams/20270106-0700/MEMORY.md.bak", "node_modules/x/README.md", "notes/.hidden/a.md"}},
		{"remove a folder's last files and an ignored file", func(t *testing.T, dir string) {
			for _, p := range []string{"notes/deep/er/c.md", "notes/deep/pic.png", "notes/deep/build.yaml"} {
				if err := os.Remove(filepath.Join(dir, p)); err != nil {
					t.Fatal(err)
				}
			}
		}, []string{"notes/deep/er/c.md", "notes/deep/pic.png", "notes/deep/build.yaml"}},
		{"a nested Obsidian vault", write("notes/vault/.obsidian/app.json", "{}\n"), []string{"notes/vault/.obsidian/app.json"}},
		{"a symbolic link to a note", func(t *testing.T, dir string) {
			if err := os.Symlink("../memory/gateway.md", filepath.Join(dir, "notes/gw.md")); err != nil {
				t.Skip("no symbolic links here:", err)
			}
		}, []string{"notes/gw.md"}},
		{"edit through the link's target", write("memory/gateway.md", "# Gateway\n\n- Moved again.\n"), []string{"memory/gateway.md"}},
		{"exclude a folder in the configuration", write("dreamwiki.toml", "exclude = [\"research/**\"]\n"), []string{"dreamwiki.toml"}},
		{"memory.md beside MEMORY.md", write("memory.md", "# lower\n"), []string{"memory.md"}},
		{"remove MEMORY.md", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "MEMORY.md")); err != nil {
				t.Fatal(err)
			}
		}, []string{"MEMORY.md"}},
	}
	dir := writeTree(t, rereadBase)
	ws := mustLoad(t, dir, Options{})
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.edit(t, dir)
			want := mustLoad(t, dir, Options{})
			// Each step's paths are every file it changed, as
			// RereadChanged needs, or name a folder (then it walks).
			for name, reread := range map[string]func(*Workspace, []string) (*Workspace, error){
				"Reread": (*Workspace).Reread, "RereadChanged": (*Workspace).RereadChanged,
			} {
				got, err := reread(ws, s.paths)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s differs from Load:\n got files %v\nwant files %v\n got diags %v\nwant diags %v",
						name, paths(got.Files), paths(want.Files), got.Diagnostics, want.Diagnostics)
				}
			}
			ws = want
		})
	}
}

// TestReread_ReadsOnlyWhatChanged checks that an edit to a known file
// keeps every other file's parse (the same pointers), and that the
// earlier workspace is left as it was.
func TestReread_ReadsOnlyWhatChanged(t *testing.T) {
	dir := writeTree(t, rereadBase)
	ws := mustLoad(t, dir, Options{})
	before := ws.FileByPath("memory/gateway.md").Content
	if err := os.WriteFile(filepath.Join(dir, "memory/gateway.md"), []byte("# Gateway\n\n- Changed.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ws.Reread([]string{"memory/gateway.md"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ws.Files {
		g := got.FileByPath(f.Path)
		if f.Path == "memory/gateway.md" {
			if g == f || g.Content == before {
				t.Errorf("%s was not read again", f.Path)
			}
			continue
		}
		if g != f {
			t.Errorf("%s was read again", f.Path)
		}
	}
	if ws.FileByPath("memory/gateway.md").Content != before {
		t.Error("the earlier workspace changed")
	}
}

// TestReread_ANewerLogRedatesOnlyPartialDates checks that a newer daily
// log parses again the files whose partial dates ("(04-12)") it dates,
// and no other: a topic file with full dates only keeps its parse.
func TestReread_ANewerLogRedatesOnlyPartialDates(t *testing.T) {
	dir := writeTree(t, rereadBase+`-- memory/hosts.md --
# Hosts

- The NAS was bought on 2026-03-02.
-- memory/backups.md --
# Backups

- Moved to the NAS (12-30)
`)
	ws := mustLoad(t, dir, Options{})
	if err := os.WriteFile(filepath.Join(dir, "memory/2027-01-05.md"), []byte("- January.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ws.RereadChanged([]string{"memory/2027-01-05.md"})
	if err != nil {
		t.Fatal(err)
	}
	topic := func(w *Workspace, p string) *TopicFile {
		for _, tf := range w.Topics {
			if tf.File.Path == p {
				return tf
			}
		}
		t.Fatalf("no topic file %s", p)
		return nil
	}
	if topic(got, "memory/hosts.md") != topic(ws, "memory/hosts.md") {
		t.Error("memory/hosts.md, whose dates are full, was parsed again")
	}
	if topic(got, "memory/backups.md") == topic(ws, "memory/backups.md") {
		t.Error("memory/backups.md, whose (12-30) the new log dates, kept its parse")
	}
	if d := topic(got, "memory/backups.md").Sections[0].Entries[0].Date; d.Year() != 2026 {
		t.Errorf("(12-30) dated %v, want 2026-12-30 (the December before the newest log)", d)
	}
	if !reflect.DeepEqual(got, mustLoad(t, dir, Options{})) {
		t.Error("RereadChanged differs from Load")
	}
}

// TestReread_InMemory works on workspaces read by LoadFS too.
func TestReread_InMemory(t *testing.T) {
	fsys := mapFS(rereadBase)
	ws, err := LoadFS(fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fsys["memory/gateway.md"].Data = []byte("# Gateway\n\n- Changed.\n")
	got, err := ws.Reread([]string{"memory/gateway.md"})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := LoadFS(fsys, Options{})
	if !reflect.DeepEqual(got, want) {
		t.Fatal("Reread differs from LoadFS")
	}
}
