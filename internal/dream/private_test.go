package dream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// privateWorkspace has a private note of every kind a dream meets, each
// with a marker word found nowhere else: a daily log private by front
// matter (zorbquistle), one private by a glob of dreamwiki.toml
// (marblefen), and a topic file in a private folder (quistlewood) whose
// vocabulary the public log shares, whose first fact the public log
// changes and whose oldest entry has decayed. The public log states its
// own facts, which a dream must still promote.
const privateWorkspace = `
-- dreamwiki.toml --
private = ["memory/2026-04-03.md"]
-- MEMORY.md --
# MEMORY.md

## People
- [user] Sam is a platform engineer in Lisbon. (source: 2026-03-20)

## Health
- Health notes: see memory/private/health.md
-- memory/private/health.md --
# Health

## Physio
- Physio is at the Quistlewood clinic on Tuesdays.
- The quistlewood knee brace was fitted. (source: 2025-01-10)
- Physio exercises: quistlewood stretches every morning before work.
-- memory/homelab.md --
# Home lab

## Hosts
- Zigbee2MQTT runs on the NUC with the SONOFF dongle.
-- memory/dream-log.md --
# Dream log

## 2026-04-01 07:00 — dream

Consolidated through: 2026-03-31
-- memory/2026-04-01.md --
---
private: true
---
# 2026-04-01

- Decision: the zorbquistle diary stays in the blue notebook, never online.
- Physio is now at the zorbquistle clinic on Fridays.
- Zigbee2MQTT on the NUC uses the zorbquistle channel 25.
-- memory/2026-04-02.md --
# 2026-04-02

- Physio is now at the Harbour clinic on Thursdays.
- Decision: physio exercises move to the evening, after work.
- The Zigbee2MQTT dongle on the NUC needs the by-id path, not /dev/ttyUSB0.
-- memory/2026-04-03.md --
# 2026-04-03

- Decision: the marblefen savings account gets 10% of every payslip.
- Physio is now at the marblefen clinic on Mondays.
`

// privateMarkers are the marker words of privateWorkspace, by the file
// that holds each.
var privateMarkers = map[string]string{
	"memory/2026-04-01.md":     "zorbquistle",
	"memory/2026-04-03.md":     "marblefen",
	"memory/private/health.md": "quistlewood",
}

// TestDream_PrivateNotesNeverLeaveTheirFile is "private means absent"
// (issue #13, DESIGN 5.7) for dreams: a dream reads no private note as a
// source and never writes one, so no word of a private log or topic file
// reaches MEMORY.md, a public topic, the archive, the dream log, a state
// file, the journal and staging, the backups, the plan it prints or sends,
// or what recall and decay write; the private files keep their bytes,
// and the public log's facts are still promoted.
func TestDream_PrivateNotesNeverLeaveTheirFile(t *testing.T) {
	dir := workspaceFrom(t, privateWorkspace)
	before := snapshot(t, dir)
	now := "2026-04-05T07:00:00Z"

	pl := forcedPlan(t, dir, now)
	var shown bytes.Buffer
	pl.WriteText(&shown)
	shown.WriteString(pl.Diff())
	js, err := json.Marshal(pl)
	if err != nil {
		t.Fatal(err)
	}
	shown.Write(js)
	assertNoMarker(t, "the plan (--dry-run, --json, the server's dry run)", shown.String())

	res := dream(t, dir, now)
	// Recall and decay are the other writers of curated memory and its
	// state files: a search that matched a private line records nothing
	// of it, and a private entry never decays into the public archive.
	if _, err := Recall(context.Background(), dir, "zorbquistle diary", "Decision: the zorbquistle diary stays in the blue notebook, never online.", Options{Now: at(now)}, 0); err == nil {
		t.Errorf("a recall of a line of a private log was recorded")
	} else if nm := (*NoMatchError)(nil); !errors.As(err, &nm) {
		t.Errorf("recall: %v", err)
	}
	if _, err := Decay(context.Background(), dir, Options{Now: at("2026-09-01T07:00:00Z")}, 0); err != nil {
		t.Fatalf("decay: %v", err)
	}

	after := snapshot(t, dir)
	for path := range privateMarkers {
		if after[path] != before[path] {
			t.Errorf("%s is private and changed:\n%s", path, after[path])
		}
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if _, private := privateMarkers[rel]; private {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		assertNoMarker(t, rel, rel+"\n"+string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// The public log is dreamt as it would be without the private notes.
	mem, home := read(t, dir, "MEMORY.md"), read(t, dir, "memory/homelab.md")
	for _, want := range []string{"Physio is now at the Harbour clinic on Thursdays", "physio exercises move to the evening"} {
		if !strings.Contains(mem+home, want) {
			t.Errorf("the public fact %q was not promoted:\n%s\n%s", want, mem, home)
		}
	}
	if !strings.Contains(home, "needs the by-id path") {
		t.Errorf("homelab.md:\n%s", home)
	}
	for _, in := range res.Plan.Inputs {
		if _, private := privateMarkers[in.Path]; private {
			t.Errorf("a private log is an input: %+v", in)
		}
	}
}

// TestDream_APrivateIndexIsRefused: when the index the workspace keeps is
// private, a dream can neither write its index lines there (it would read
// private text to place them and quote it in its log) nor start a second
// index beside it; it stops and says why, having written nothing.
func TestDream_APrivateIndexIsRefused(t *testing.T) {
	dir := workspaceFrom(t, `
-- MEMORY.md --
---
private: true
---
# MEMORY.md

- [user] Sam keeps the zorbquistle diary.
-- memory/2026-04-02.md --
# 2026-04-02

- Decision: physio exercises move to the evening, after work.
`)
	before := snapshot(t, dir)
	_, err := Run(context.Background(), dir, Options{Now: at("2026-04-05T07:00:00Z"), Force: true}, false, nil)
	if err == nil || !strings.Contains(err.Error(), "MEMORY.md is private") {
		t.Errorf("err = %v, want a private index refused", err)
	}
	if after := snapshot(t, dir); !mapsEqual(before, after) {
		t.Errorf("a refused dream changed the workspace")
	}
	// Serve mode plans over a workspace read without its private files:
	// the index it withheld is still the index.
	ws, err := workspace.Load(dir, workspace.Options{OmitPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PlanWorkspace(context.Background(), ws, Options{Now: at("2026-04-05T07:00:00Z"), Force: true}); err == nil || !strings.Contains(err.Error(), "MEMORY.md is private") {
		t.Errorf("over a workspace read without private files: err = %v, want a private index refused", err)
	}
}

func assertNoMarker(t *testing.T, where, text string) {
	t.Helper()
	low := strings.ToLower(text)
	for file, m := range privateMarkers {
		if i := strings.Index(low, m); i >= 0 {
			t.Errorf("%s quotes the private %s: …%s…", where, file, text[max(0, i-80):min(len(text), i+80)])
		}
	}
}
