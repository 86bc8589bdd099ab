package dream

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDream_AnEditBetweenTheRecheckAndTheRenameIsPutBack is finding 10 of
// issue #22: a line is appended to MEMORY.md by an editor (which takes no
// lock) after the dream hashed the file for the last time and before it
// renamed its version over it. The line is not lost: MEMORY.md is left as
// edited, the dream's version kept, the files already written put back,
// and the dream fails naming MEMORY.md. A supersede, written by the same
// transaction, does the same.
func TestDream_AnEditBetweenTheRecheckAndTheRenameIsPutBack(t *testing.T) {
	const line = "- Written by hand while the dream was renaming.\n"
	appendAt := func(dir, step string) func(string) {
		return func(s string) {
			if s == step {
				if err := appendFile(filepath.Join(dir, "MEMORY.md"), line); err != nil {
					t.Error(err)
				}
			}
		}
	}
	t.Run("dream", func(t *testing.T) {
		dir := demoCopy(t)
		before := snapshot(t, dir)
		_, err := Run(context.Background(), dir, Options{Now: at(crashNow), Force: true, Choose: chooseAll(t, dir, crashNow), hook: appendAt(dir, "recheck:MEMORY.md")}, false, nil)
		var ce *ChangedError
		if !errors.As(err, &ce) || ce.Path != "MEMORY.md" || ce.Kept == "" ||
			!strings.Contains(err.Error(), "MEMORY.md changed since the plan was made, while the dream was writing: it was left as it is") {
			t.Fatalf("got %v", err)
		}
		after := snapshot(t, dir)
		for p := range before {
			want := before[p]
			if p == "MEMORY.md" {
				want += line
			}
			if after[p] != want {
				t.Errorf("%s is not as it was (with the edit)", p)
			}
		}
		if !strings.Contains(read(t, dir, ce.Kept), "# MEMORY.md") {
			t.Error("the dream's version of MEMORY.md was not kept")
		}
		if Pending(dir) {
			t.Error("journal left")
		}
	})
	t.Run("supersede", func(t *testing.T) {
		dir := workspaceFrom(t, basic)
		before := read(t, dir, "MEMORY.md")
		_, err := Supersede(context.Background(), dir, "Gateway host is the NUC", "Gateway host is the Mac mini",
			Options{Now: at("2026-04-07T09:00:00Z"), hook: appendAt(dir, "recheck:MEMORY.md")}, 0)
		var ce *ChangedError
		if !errors.As(err, &ce) || ce.Path != "MEMORY.md" {
			t.Fatalf("got %v", err)
		}
		if got := read(t, dir, "MEMORY.md"); got != before+line {
			t.Errorf("MEMORY.md is not as edited:\n%s", got)
		}
	})
}

// TestDream_AnEditThroughAFileOpenBeforeTheRenameIsKept: an editor opened
// MEMORY.md before the dream replaced it and writes after, into the file
// the dream replaced. The dream's writes stand; the edited file is kept
// in the backup folder, and the dream fails saying where.
func TestDream_AnEditThroughAFileOpenBeforeTheRenameIsKept(t *testing.T) {
	const line = "- Written through a file opened before the dream replaced it.\n"
	dir := demoCopy(t)
	pl := forcedPlan(t, dir, crashNow)
	var editor *os.File
	hook := func(step string) {
		var err error
		switch step {
		case "recheck:MEMORY.md":
			editor, err = os.OpenFile(filepath.Join(dir, "MEMORY.md"), os.O_APPEND|os.O_WRONLY, 0)
		case "rename:MEMORY.md":
			_, err = editor.WriteString(line)
			editor.Close()
		}
		if err != nil {
			t.Error(err)
		}
	}
	res, err := Run(context.Background(), dir, Options{Now: at(crashNow), Force: true, Choose: chooseAll(t, dir, crashNow), hook: hook}, false, nil)
	kept := ".backup/memory-dreams/20261121-0800/MEMORY.md.edited"
	if err == nil || !strings.Contains(err.Error(), "the dream was written, but MEMORY.md was edited while the dream replaced it: the edit went to the file replaced, kept as "+kept+"; copy the edits back by hand") {
		t.Fatalf("got %v %+v", err, res)
	}
	if !strings.HasSuffix(read(t, dir, kept), line) {
		t.Error("the edit was not kept")
	}
	after := snapshot(t, dir)
	for _, f := range pl.Files {
		if after[f.Path] != string(f.Content()) {
			t.Errorf("%s does not hold the dream's bytes", f.Path)
		}
	}
	if Pending(dir) {
		t.Error("journal left")
	}
}
