package vault

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/output"
)

func TestApplyEdits_LinksAndBlockIDsGoWhereObsidianReadsThem(t *testing.T) {
	text := strings.Join([]string{
		"- a list item",
		"| host | ip |",
		"| mac-mini | 10.0.0.12 |",
		"- an item with its own id ^mine",
		"> quoted detail",
		"| no trailing pipe | x",
	}, "\n")
	got := applyEdits(text, map[int]*lineEdit{
		1: {links: []string{"claims/a"}, id: "e1"},
		3: {links: []string{"claims/b"}},
		4: {links: []string{"claims/c"}, id: "e4"},
		5: {id: "e5"},
		6: {links: []string{"claims/d"}},
		9: {id: "e9"}, // past the end: ignored
	})
	want := strings.Join([]string{
		"- a list item [[claims/a|claim]] ^e1",
		"| host | ip |",
		`| mac-mini | 10.0.0.12 [[claims/b\|claim]] |`,
		"- an item with its own id [[claims/c|claim]] ^mine",
		"> quoted detail ^e5",
		`| no trailing pipe | x [[claims/d\|claim]]`,
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// The engine reads the ids and links back.
	d := markdown.New().Parse("x.md", []byte(got))
	ids := map[string]bool{}
	for _, b := range d.BlockIDs {
		ids[b.ID] = true
	}
	for _, id := range []string{"e1", "mine", "e5"} {
		if !ids[id] {
			t.Errorf("block id %s not found; got %v", id, d.BlockIDs)
		}
	}
	targets := map[string]bool{}
	for _, l := range d.Links {
		targets[l.Target] = l.Display == "claim"
	}
	for _, tg := range []string{"claims/a", "claims/b", "claims/c", "claims/d"} {
		if !targets[tg] {
			t.Errorf("link to %s missing or without its alias: %v", tg, targets)
		}
	}
}

func TestHumanBlocks_MergeAndHash(t *testing.T) {
	generated := []byte("# T\n\nbody\n\n" + HumanStart + "\n" + HumanEnd + "\n")
	edited := []byte("# T\n\nbody\n\n" + HumanStart + "\nmine\n" + HumanEnd + "\n")
	if outsideHash(generated) != outsideHash(edited) {
		t.Errorf("text inside a human block changed the outside hash")
	}
	if outsideHash(generated) == outsideHash([]byte("# T\n\nbody!\n\n"+HumanStart+"\n"+HumanEnd+"\n")) {
		t.Errorf("an edit outside the blocks did not change the outside hash")
	}
	if got := string(mergeHuman(generated, humanBlocks(edited))); got != string(edited) {
		t.Errorf("merge = %q", got)
	}
	// Blocks the new file has no place for are appended, in order.
	old := humanBlocks([]byte(HumanStart + "\none\n" + HumanEnd + "\n" + HumanStart + "\ntwo\n" + HumanEnd))
	got := string(mergeHuman([]byte("no blocks"), old))
	if !strings.Contains(got, "one") || !strings.Contains(got, "two") || strings.Index(got, "one") > strings.Index(got, "two") {
		t.Errorf("appended blocks: %q", got)
	}
	// An unclosed start marker is no block: its text counts as outside.
	if len(humanBlocks([]byte(HumanStart+"\nlost?\n"))) != 0 {
		t.Errorf("an unclosed block was read as a block")
	}
}

func TestWriteWith_KeepsHumanTextAndBacksUpEdits(t *testing.T) {
	dir := t.TempDir()
	build := func() *Vault {
		return Build(markdown.New(), []Input{
			{Path: "claims/x.md", Kind: KindClaim, Text: "# X\n" + humanSection},
			{Path: "sources/daily/d.md", Kind: KindDaily, Source: "memory/d.md", Text: "- fact\n"},
		}, nil, nil)
	}
	write := func(prev *Previous) (string, []string) {
		t.Helper()
		out := filepath.Join(dir, "new")
		os.RemoveAll(out)
		backup := filepath.Join(dir, "backup")
		diags, err := build().WriteWith(context.Background(), output.NewDir(out), WriteOptions{Previous: prev, Backup: output.NewDir(backup), BackupDir: "backup"})
		if err != nil {
			t.Fatal(err)
		}
		var msgs []string
		for _, d := range diags {
			msgs = append(msgs, d.Message)
		}
		return out, msgs
	}
	first, _ := write(nil)
	os.Rename(first, filepath.Join(dir, "vault"))
	v := filepath.Join(dir, "vault")
	claim := filepath.Join(v, "claims", "x.md")
	data, _ := os.ReadFile(claim)
	os.WriteFile(claim, []byte(strings.Replace(string(data), HumanStart+"\n", HumanStart+"\nnote\n", 1)), 0o644)
	os.WriteFile(filepath.Join(v, "sources", "daily", "d.md"), []byte("- fact, edited\n"), 0o644)
	os.WriteFile(filepath.Join(v, "mine.md"), []byte("mine\n"), 0o644)

	prev, err := ReadPrevious(v)
	if err != nil || prev == nil {
		t.Fatalf("ReadPrevious: %v %v", prev, err)
	}
	out, msgs := write(prev)
	got, _ := os.ReadFile(filepath.Join(out, "claims", "x.md"))
	if !strings.Contains(string(got), "note") {
		t.Errorf("human text lost: %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "backup", "sources", "daily", "d.md")); string(b) != "- fact, edited\n" {
		t.Errorf("edited file not backed up: %q (reports %v)", b, msgs)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "mine.md")); string(b) != "mine\n" {
		t.Errorf("a person's own file was not carried over")
	}
	if len(msgs) != 2 {
		t.Errorf("reports = %v", msgs)
	}
}

// A cancelled build writes no file of the vault, and above all no
// manifest, which would make a half-written vault look whole.
func TestWriteWith_StopsWhenTheBuildIsCancelled(t *testing.T) {
	v := Build(markdown.New(), baseInputs(), nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	mem := output.NewMemory()
	if _, err := v.WriteWith(ctx, mem, WriteOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if names := mem.Names(); len(names) > 0 {
		t.Errorf("a cancelled build wrote %v", names)
	}
}
