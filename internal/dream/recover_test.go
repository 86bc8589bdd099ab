package dream

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecover_LeavesEditedFilesAndKeepsTheDreamsVersion is the first defect
// of issue #13: a dream dies while renaming; a line is appended to a file
// it had replaced and to one it had not reached. Recovery puts back only
// the files that still hold the dream's bytes, leaves both edited files as
// they are, keeps the dream's version of each in the backup folder, and
// says so with both paths.
func TestRecover_LeavesEditedFilesAndKeepsTheDreamsVersion(t *testing.T) {
	dir := demoCopy(t)
	pl := forcedPlan(t, dir, crashNow)
	before := snapshot(t, dir)
	// The Markdown files the plan modifies, in rename order (the plan's
	// order), but the very first file: the crash comes after at least one
	// rename, which recovery must put back.
	var md []FileChange
	var renamed []string // the files renamed before the first of md
	for i, f := range pl.Files {
		if i > 0 && f.Change == "modify" && strings.HasSuffix(f.Path, ".md") {
			if len(md) == 0 {
				for _, g := range pl.Files[:i] {
					renamed = append(renamed, g.Path)
				}
			}
			md = append(md, f)
		}
	}
	if len(md) < 2 {
		t.Fatalf("the plan modifies too few Markdown files: %+v", pl.Files)
	}
	replaced, unreached := md[0], md[len(md)-1]
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "DREAM_CRASH_DIR="+dir, "DREAM_CRASH_AT=rename:"+replaced.Path)
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("the dream did not crash: %s", out)
	}
	for _, f := range []FileChange{replaced, unreached} {
		if err := appendFile(filepath.Join(dir, f.Path), "- A line added by hand after the crash.\n"); err != nil {
			t.Fatal(err)
		}
	}

	res, err := Run(context.Background(), dir, Options{Now: at(crashNow), Force: true, Choose: chooseAll(t, dir, crashNow)}, false, nil)
	if err != nil || !res.Applied || res.Recovered == nil {
		t.Fatalf("the dream after the crash: %v %+v", err, res)
	}
	rec := res.Recovered
	if len(rec.Kept) != 2 {
		t.Fatalf("kept %+v, want the two edited files", rec.Kept)
	}
	for _, k := range rec.Kept {
		want := replaced
		if k.Path == unreached.Path {
			want = unreached
		}
		if k.Path != want.Path || k.Dream != ".backup/memory-dreams/20261121-0800/"+want.Path+".dream" ||
			k.Before != ".backup/memory-dreams/20261121-0800/"+want.Path+".bak" {
			t.Errorf("kept %+v", k)
		}
		if got := read(t, dir, k.Dream); got != string(want.Content()) {
			t.Errorf("%s does not hold the dream's version", k.Dream)
		}
		if got := read(t, dir, k.Before); got != before[k.Path] {
			t.Errorf("%s does not hold the old version", k.Before)
		}
		if !strings.Contains(read(t, dir, k.Path), "- A line added by hand after the crash.") {
			t.Errorf("the edit to %s was lost", k.Path)
		}
	}
	var out strings.Builder
	res.WriteText(&out)
	for _, want := range []string{
		fmt.Sprintf("put back %d %s an interrupted dream (20261121-0800) was writing: %s\n", len(renamed), plural(len(renamed), "file", "files"), strings.Join(renamed, ", ")),
		"  " + replaced.Path + " changed after the dream read it and was left as it is; the dream's version is .backup/memory-dreams/20261121-0800/" + replaced.Path + ".dream; the version before the dream is .backup/memory-dreams/20261121-0800/" + replaced.Path + ".bak",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// TestDream_AFileEditedBeforeItsRenameIsLeftAlone: a file changes after
// the journal is written and before the dream reaches it. The dream
// stops, leaves that file as it is (its own version kept beside the
// backup), puts back the files it had already written, and says so.
func TestDream_AFileEditedBeforeItsRenameIsLeftAlone(t *testing.T) {
	dir := demoCopy(t)
	pl := forcedPlan(t, dir, crashNow)
	before := snapshot(t, dir)
	target := pl.Files[len(pl.Files)/2]
	edited := before[target.Path] + "- Written while the dream was writing.\n"
	opts := Options{Now: at(crashNow), Force: true, Choose: chooseAll(t, dir, crashNow), hook: func(step string) {
		if step == "journal" {
			os.WriteFile(filepath.Join(dir, target.Path), []byte(edited), 0o644)
		}
	}}
	_, err := Run(context.Background(), dir, opts, false, nil)
	var ce *ChangedError
	if !errors.As(err, &ce) || ce.Path != target.Path || len(ce.Restored) != len(pl.Files)/2 ||
		ce.Kept != ".backup/memory-dreams/20261121-0800/"+target.Path+".dream" {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), target.Path+" changed since the plan was made, while the dream was writing: it was left as it is (the dream's version is "+ce.Kept+")") {
		t.Errorf("message: %v", err)
	}
	after := snapshot(t, dir)
	for p := range before {
		want := before[p]
		if p == target.Path {
			want = edited
		}
		if after[p] != want {
			t.Errorf("%s is not as it was", p)
		}
	}
	if read(t, dir, ce.Kept) != string(target.Content()) {
		t.Error("the dream's version was not kept")
	}
	if Pending(dir) {
		t.Error("journal left")
	}
	dream(t, dir, crashNow)
}

// TestRecall_AStateFileEditedWhileWritingIsKeptInAFolderOfItsOwn: a recall
// keeps no backups, so the version of a changed file it keeps goes to a
// folder of its own, never over the backups of a dream of the same minute.
func TestRecall_AStateFileEditedWhileWritingIsKeptInAFolderOfItsOwn(t *testing.T) {
	dir := workspaceFrom(t, basic)
	dream(t, dir, "2026-04-05T06:00:00Z") // starts memory-meta.json
	res := dream(t, dir, "2026-04-05T07:00:00Z")
	dreamBackup := read(t, dir, res.Backup+"/"+metaPath+".bak")
	edited := read(t, dir, metaPath) + "\n"
	opts := Options{Now: at("2026-04-05T07:00:30Z"), hook: func(step string) {
		if step == "journal" {
			os.WriteFile(filepath.Join(dir, metaPath), []byte(edited), 0o644)
		}
	}}
	_, err := Recall(context.Background(), dir, "zigbee dongle", "Zigbee2MQTT runs on the NUC", opts, 0)
	var ce *ChangedError
	if !errors.As(err, &ce) || ce.Path != metaPath || !strings.HasPrefix(ce.Kept, res.Backup+"-") {
		t.Fatalf("got %v", err)
	}
	if read(t, dir, metaPath) != edited {
		t.Error("the edited file was not left as it is")
	}
	if read(t, dir, res.Backup+"/"+metaPath+".bak") != dreamBackup {
		t.Error("the dream's backup was overwritten")
	}
	if _, err := os.Stat(filepath.Join(dir, recallPath)); err == nil {
		t.Error("the recall store the recall created was not removed again")
	}
}
