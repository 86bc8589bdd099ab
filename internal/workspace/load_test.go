package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dreamwiki/dreamwiki/internal/diag"
)

func TestLoad_NonexistentWorkspaceIsAClearError(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	_, err := Load(missing, Options{})
	if err == nil {
		t.Fatal("no error")
	}
	want := `workspace "` + missing + `" does not exist`
	if err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

func TestLoad_FileAsWorkspaceIsAClearError(t *testing.T) {
	f := filepath.Join(t.TempDir(), "MEMORY.md")
	os.WriteFile(f, []byte("- x\n"), 0o644)
	_, err := Load(f, Options{})
	if err == nil || err.Error() != `workspace "`+f+`" is not a directory` {
		t.Errorf("error = %v", err)
	}
}

func TestLoad_UnreadableWorkspaceIsAClearError(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every folder")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0)
	defer os.Chmod(dir, 0o755)
	_, err := Load(dir, Options{})
	if err == nil || !strings.Contains(err.Error(), "cannot be read") {
		t.Errorf("error = %v", err)
	}
}

func TestLoad_EmptyWorkspaceIsValidAndEmpty(t *testing.T) {
	ws := mustLoad(t, t.TempDir(), Options{})
	if len(ws.Files) != 0 || ws.Memory != nil || len(ws.Notes) != 0 || len(ws.Diagnostics) != 0 {
		t.Errorf("empty workspace read as %+v", ws)
	}
	if !filepath.IsAbs(ws.Root) {
		t.Errorf("Root %q is not absolute", ws.Root)
	}
	if ws.Config.Title != DefaultConfig().Title {
		t.Errorf("Config = %+v", ws.Config)
	}
}

func TestLoad_EmptyFilesAreReadWithoutComplaint(t *testing.T) {
	dir := writeTree(t, "-- MEMORY.md --\n-- memory/2026-04-01.md --\n-- notes/empty.md --\n-- memory/gateway.md --\n")
	ws := mustLoad(t, dir, Options{})
	noDiagnostics(t, ws)
	if ws.Memory == nil || len(ws.Memory.Sections) != 0 {
		t.Errorf("Memory = %+v", ws.Memory)
	}
	if len(ws.Daily) != 1 || len(ws.Daily[0].Items) != 0 || len(ws.Topics) != 1 || len(ws.Notes) != 1 {
		t.Errorf("daily %d topics %d notes %d", len(ws.Daily), len(ws.Topics), len(ws.Notes))
	}
	empty := sha256.Sum256(nil)
	for _, f := range ws.Files {
		if f.Size != 0 || f.Content != "" || f.Hash != hex.EncodeToString(empty[:]) {
			t.Errorf("%s: size %d hash %s", f.Path, f.Size, f.Hash)
		}
	}
}

func TestLoad_SymlinkOutsideWorkspaceIsNotFollowed(t *testing.T) {
	outside := writeTree(t, "-- secret.md --\n- the outside secret\n-- dir/notes.md --\n- outside note\n")
	ws := writeTree(t, "-- MEMORY.md --\n- inside\n")
	must(t, os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(ws, "secret.md")))
	must(t, os.Symlink(filepath.Join(outside, "dir"), filepath.Join(ws, "linked-dir")))
	must(t, os.MkdirAll(filepath.Join(ws, "memory"), 0o755))
	must(t, os.Symlink("../../"+filepath.Base(outside)+"/secret.md", filepath.Join(ws, "memory", "relative.md")))

	w := mustLoad(t, ws, Options{})
	if got := paths(w.Files); !equalStrings(got, []string{"MEMORY.md"}) {
		t.Errorf("Files = %v, want only MEMORY.md", got)
	}
	for _, f := range w.Files {
		if strings.Contains(f.Content, "outside") {
			t.Errorf("%s holds content from outside the workspace", f.Path)
		}
	}
	var reported []string
	for _, d := range diagsWith(w.Diagnostics, "symlink") {
		reported = append(reported, d.File)
		if d.Severity != diag.Warning || !strings.Contains(d.Message, "outside the workspace") {
			t.Errorf("diagnostic %v", d)
		}
	}
	if !equalStrings(reported, []string{"linked-dir", "memory/relative.md", "secret.md"}) {
		t.Errorf("symlink diagnostics for %v", reported)
	}
}

func TestLoad_SymlinkInsideWorkspaceIsFollowed(t *testing.T) {
	ws := writeTree(t, "-- memory/gateway.md --\n# Gateway\n- host is the Mac mini\n-- notes/a.md --\nhello\n")
	must(t, os.Symlink("memory/gateway.md", filepath.Join(ws, "gateway-link.md")))
	must(t, os.Symlink("notes", filepath.Join(ws, "notes-link")))
	must(t, os.Symlink(filepath.Join(ws, "notes", "a.md"), filepath.Join(ws, "abs-link.md")))

	w := mustLoad(t, ws, Options{})
	noDiagnostics(t, w)
	want := []string{"abs-link.md", "gateway-link.md", "memory/gateway.md", "notes-link/a.md", "notes/a.md"}
	if got := paths(w.Files); !equalStrings(got, want) {
		t.Errorf("Files = %v, want %v", got, want)
	}
	if f := w.FileByPath("gateway-link.md"); f == nil || !strings.Contains(f.Content, "Mac mini") {
		t.Errorf("linked file not read: %+v", f)
	}
}

func TestLoad_SymlinkLoopIsReportedNotWalkedForever(t *testing.T) {
	ws := writeTree(t, "-- a/note.md --\nx\n")
	must(t, os.Symlink("..", filepath.Join(ws, "a", "up")))
	must(t, os.Symlink("self", filepath.Join(ws, "self")))
	w := mustLoad(t, ws, Options{})
	if got := paths(w.Files); !equalStrings(got, []string{"a/note.md"}) {
		t.Errorf("Files = %v", got)
	}
	if n := len(diagsWith(w.Diagnostics, "symlink")); n != 2 {
		t.Errorf("want 2 symlink diagnostics (loop, self-link), got %v", w.Diagnostics)
	}
}

func TestLoadFS_SymlinkRulesHoldForInMemoryWorkspaces(t *testing.T) {
	fsys := fstest.MapFS{
		"notes/a.md":     {Data: []byte("a")},
		"inside.md":      {Data: []byte("notes/a.md"), Mode: fs.ModeSymlink},
		"escape.md":      {Data: []byte("../outside.md"), Mode: fs.ModeSymlink},
		"absolute.md":    {Data: []byte("/etc/passwd"), Mode: fs.ModeSymlink},
		"linked/dir":     {Data: []byte("../notes"), Mode: fs.ModeSymlink},
		"dangling.md":    {Data: []byte("missing.md"), Mode: fs.ModeSymlink},
		"memory/note.md": {Data: []byte("- n")},
	}
	ws, err := LoadFS(fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"inside.md", "linked/dir/a.md", "memory/note.md", "notes/a.md"}
	if got := paths(ws.Files); !equalStrings(got, want) {
		t.Errorf("Files = %v, want %v", got, want)
	}
	var reported []string
	for _, d := range diagsWith(ws.Diagnostics, "symlink") {
		reported = append(reported, d.File)
	}
	if !equalStrings(reported, []string{"absolute.md", "dangling.md", "escape.md"}) {
		t.Errorf("reported %v", reported)
	}
}

func TestLoad_InvalidUTF8IsReplacedAndReportedWithItsLine(t *testing.T) {
	ws := t.TempDir()
	raw := []byte("# Notes\nfine line\nbad \xff\xfe bytes\nok\nmore \xc3 here\n")
	must(t, os.WriteFile(filepath.Join(ws, "notes.md"), raw, 0o644))
	w := mustLoad(t, ws, Options{})
	f := w.FileByPath("notes.md")
	if f.Content != "# Notes\nfine line\nbad \uFFFD bytes\nok\nmore \uFFFD here\n" {
		t.Errorf("Content = %q", f.Content)
	}
	sum := sha256.Sum256(raw)
	if f.Hash != hex.EncodeToString(sum[:]) || f.Size != int64(len(raw)) {
		t.Errorf("Hash/Size are not those of the raw bytes")
	}
	ds := diagsWith(w.Diagnostics, "utf8")
	if len(ds) != 1 || ds[0].File != "notes.md" || ds[0].Line != 3 || !strings.Contains(ds[0].Message, "lines 3 and 5") {
		t.Errorf("diagnostics = %v", ds)
	}
}

func TestLoad_CRLFAndLoneCRBecomeLFAndBOMIsStripped(t *testing.T) {
	ws := t.TempDir()
	must(t, os.WriteFile(filepath.Join(ws, "MEMORY.md"), []byte("\xef\xbb\xbf## People\r\n- Alice\r\n- Bob\r- Carol\r\n"), 0o644))
	w := mustLoad(t, ws, Options{})
	noDiagnostics(t, w)
	if got := w.Memory.File.Content; got != "## People\n- Alice\n- Bob\n- Carol\n" {
		t.Errorf("Content = %q", got)
	}
	var lines []int
	for _, e := range w.Memory.Entries() {
		lines = append(lines, e.Line)
	}
	if !reflect.DeepEqual(lines, []int{2, 3, 4}) || w.Memory.Sections[0].Heading != "People" {
		t.Errorf("entry lines %v heading %q", lines, w.Memory.Sections[0].Heading)
	}
}

func TestLoad_TwoMegabyteSingleLineIsRead(t *testing.T) {
	ws := t.TempDir()
	long := strings.Repeat("word ", 2<<20/5)
	for _, name := range []string{"MEMORY.md", "memory/2026-04-01.md", "notes/long.md"} {
		p := filepath.Join(ws, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte("- "+long+"\n"), 0o644))
	}
	w := mustLoad(t, ws, Options{})
	noDiagnostics(t, w)
	if len(w.Files) != 3 || len(w.Memory.Entries()) != 1 || len(w.Memory.Entries()[0].Text) < 2<<20-16 {
		t.Errorf("long line not read whole")
	}
}

func TestLoad_FilesOverTheSizeCapAreSkippedWithAWarning(t *testing.T) {
	ws := writeTree(t, "-- MEMORY.md --\n- x\n")
	big := filepath.Join(ws, "huge.md")
	f, err := os.Create(big)
	must(t, err)
	must(t, f.Truncate(MaxFileSize+1)) // sparse: no 16 MiB written
	f.Close()
	must(t, os.WriteFile(filepath.Join(ws, "pic.png"), []byte("png"), 0o644))
	w := mustLoad(t, ws, Options{})
	if w.FileByPath("huge.md") != nil {
		t.Error("oversized file was read")
	}
	ds := diagsWith(w.Diagnostics, "size")
	if len(ds) != 1 || ds[0].File != "huge.md" || ds[0].Severity != diag.Warning {
		t.Errorf("diagnostics = %v", w.Diagnostics)
	}
}

func TestLoad_NamesWithSpacesPunctuationAndNonLatinScripts(t *testing.T) {
	names := []string{
		"notes/meeting notes.md", "notes/R&D.md", "notes/why?.md", "notes/C# tips.md", "notes/c++ & go.md",
		"notes/日本語のノート.md", "notes/Заметки.md", "notes/ملاحظات.md", "memory/京都旅行.md", "notes/café.md",
	}
	var b strings.Builder
	for _, n := range names {
		b.WriteString("-- " + n + " --\n- about " + n + "\n")
	}
	w := mustLoad(t, writeTree(t, b.String()), Options{})
	noDiagnostics(t, w)
	for _, n := range names {
		f := w.FileByPath(n)
		if f == nil || !strings.Contains(f.Content, n) {
			t.Errorf("%q not read", n)
		}
	}
	if len(w.Topics) != 1 || w.Topics[0].Topic != "京都旅行" {
		t.Errorf("topics = %+v", w.Topics)
	}
}

func TestLoad_NotesWithTheSameNameInDifferentFoldersAreBothKept(t *testing.T) {
	w := mustLoad(t, writeTree(t, `
-- notes/ideas.md --
first
-- archive/old/ideas.md --
second
-- memory/projects/gateway.md --
- project gateway
-- memory/infra/gateway.md --
- infra gateway
`), Options{})
	if got := paths(w.Notes); !equalStrings(got, []string{"archive/old/ideas.md", "notes/ideas.md"}) {
		t.Errorf("Notes = %v", got)
	}
	var topics []string
	for _, tf := range w.Topics {
		topics = append(topics, tf.Topic)
	}
	if !equalStrings(topics, []string{"infra/gateway", "projects/gateway"}) {
		t.Errorf("topics = %v", topics)
	}
}

func TestLoad_BadJSONWarnsWithLineAndTheRestLoads(t *testing.T) {
	w := mustLoad(t, writeTree(t, `
-- MEMORY.md --
- still loaded
-- memory/memory-meta.json --
{
  "entries": [
    {"id": "a", "text": "x",}
  ]
}
-- memory/.dreams/short-term-recall.json --
{"version": 1,
 "entries": {
-- memory/.dreams/events.jsonl --
{"type":"memory.recall.recorded","query":"a","resultCount":0}
{"type":"memory.recall.recorded", oops}

{"type":"memory.dream.completed"}
-- memory/heartbeat-state.json --
{"lastDreamAt": "2026-03-31T15:40:00Z"} trailing
-- notes/data.json --
[1, 2,
-- memory/brave-search-usage.json --
{"ok": true}
`), Options{})
	if len(w.Memory.Entries()) != 1 {
		t.Error("MEMORY.md not loaded")
	}
	got := map[string]int{}
	for _, d := range diagsWith(w.Diagnostics, "json") {
		if d.Severity != diag.Warning {
			t.Errorf("%v is not a warning", d)
		}
		got[d.File] = d.Line
	}
	want := map[string]int{
		"memory/memory-meta.json":               3,
		"memory/.dreams/short-term-recall.json": 2,
		"memory/.dreams/events.jsonl":           2,
		"memory/heartbeat-state.json":           1,
		"notes/data.json":                       1,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("json diagnostics at %v, want %v\n%v", got, want, w.Diagnostics)
	}
	if len(w.Events) != 2 || w.Events[0].Line != 1 || w.Events[1].Line != 4 || w.Events[1].Type != "memory.dream.completed" {
		t.Errorf("events = %+v", w.Events)
	}
	if w.Meta == nil || len(w.Meta.Entries) != 0 || w.Recall == nil || w.Heartbeat == nil {
		t.Errorf("broken state files must still be present (empty): meta %v recall %v heartbeat %v", w.Meta, w.Recall, w.Heartbeat)
	}
}

func TestLoad_NeverReadFoldersAndDotfilesAreSkipped(t *testing.T) {
	w := mustLoad(t, writeTree(t, `
-- MEMORY.md --
- x
-- .git/HEAD.md --
x
-- node_modules/pkg/README.md --
x
-- sub/node_modules/README.md --
x
-- .backup/memory-dreams/20260401-0700/MEMORY.md.bak.md --
x
-- .dreamwiki/cache.json --
{}
-- .obsidian/app.json --
{}
-- .env.md --
SECRET=1
-- memory/.hidden.md --
x
-- memory/.dreams/events.jsonl --
{"type":"x"}
-- memory/.other/x.md --
x
-- dist/site/index.md --
generated
-- out/site/page.md --
generated
`), Options{Skip: []string{"out"}})
	want := []string{"MEMORY.md", "dist/site/index.md", "memory/.dreams/events.jsonl"}
	if got := paths(w.Files); !equalStrings(got, want) {
		t.Errorf("Files = %v, want %v (dist/ is read unless it is the skip folder)", got, want)
	}
}

func TestLoad_SkipAcceptsAbsolutePathsInsideTheRoot(t *testing.T) {
	dir := writeTree(t, "-- MEMORY.md --\n- x\n-- dist/vault/index.md --\ny\n")
	w := mustLoad(t, dir, Options{Skip: []string{filepath.Join(dir, "dist"), "/elsewhere/dist"}})
	if got := paths(w.Files); !equalStrings(got, []string{"MEMORY.md"}) {
		t.Errorf("Files = %v", got)
	}
}

func TestLoad_ExcludeGlobsFromConfigAndOptions(t *testing.T) {
	w := mustLoad(t, writeTree(t, `
-- dreamwiki.toml --
exclude = ["drafts/**", "*.tmp.md", "memory/scratch"]
-- MEMORY.md --
- x
-- drafts/a.md --
x
-- drafts/deep/b.md --
x
-- notes/c.tmp.md --
x
-- memory/scratch/d.md --
x
-- private/e.md --
x
-- notes/keep.md --
x
`), Options{Exclude: []string{"private/"}})
	if got := paths(w.Files); !equalStrings(got, []string{"MEMORY.md", "notes/keep.md"}) {
		t.Errorf("Files = %v", got)
	}
	noDiagnostics(t, w)
}

func TestLoad_ConfigProblemsAreWarnings(t *testing.T) {
	w := mustLoad(t, writeTree(t, "-- dreamwiki.toml --\ntitle = \"Mine\"\ncolour = \"blue\"\nexclude = [\"[bad\"]\n"), Options{})
	if w.Config.Title != "Mine" {
		t.Errorf("Title = %q", w.Config.Title)
	}
	if n := len(diagsWith(w.Diagnostics, "config")); n != 2 {
		t.Errorf("want unknown-key and bad-pattern warnings, got %v", w.Diagnostics)
	}
}

func TestLoad_AssetsAreListedHashedAndReadableOnlyThroughReadAsset(t *testing.T) {
	dir := writeTree(t, "-- img/diagram.png --\nPNGDATA\n-- docs/spec.pdf --\n%PDF\n-- scripts/run.sh --\necho\n-- MEMORY.md --\n- x\n")
	w := mustLoad(t, dir, Options{})
	var got []string
	for _, a := range w.Assets {
		got = append(got, a.Path)
	}
	if !equalStrings(got, []string{"docs/spec.pdf", "img/diagram.png"}) {
		t.Errorf("Assets = %v", got)
	}
	if !equalStrings(w.Ignored, []string{"scripts/run.sh"}) {
		t.Errorf("Ignored = %v", w.Ignored)
	}
	b, err := w.ReadAsset("img/diagram.png")
	if err != nil || string(b) != "PNGDATA\n" {
		t.Errorf("ReadAsset = %q, %v", b, err)
	}
	sum := sha256.Sum256(b)
	if w.AssetByPath("img/diagram.png").Hash != hex.EncodeToString(sum[:]) {
		t.Error("asset hash mismatch")
	}
	for _, p := range []string{"MEMORY.md", "scripts/run.sh", "../etc/passwd", "/etc/passwd", "img/missing.png"} {
		if _, err := w.ReadAsset(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadAsset(%q) = %v, want not-exist", p, err)
		}
	}
}

func TestLoad_IsDeterministic(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 200; i++ {
		b.WriteString("-- memory/2026-04-" + twoDigits(i%28+1) + "-" + twoDigits(i) + ".md --\n- item " + twoDigits(i) + "\n")
		b.WriteString("-- notes/n" + twoDigits(i) + ".md --\nnote\n")
	}
	dir := writeTree(t, b.String())
	first := mustLoad(t, dir, Options{})
	for i := 0; i < 3; i++ {
		again := mustLoad(t, dir, Options{})
		if !reflect.DeepEqual(paths(first.Files), paths(again.Files)) {
			t.Fatal("file order differs between loads")
		}
		for j := range first.Daily {
			if first.Daily[j].File.Path != again.Daily[j].File.Path {
				t.Fatal("daily order differs between loads")
			}
		}
	}
	for i := 1; i < len(first.Daily); i++ {
		a, b := first.Daily[i-1], first.Daily[i]
		if a.Date.After(b.Date) || a.Date.Equal(b.Date) && a.File.Path > b.File.Path {
			t.Fatalf("Daily not sorted by date then path at %d", i)
		}
	}
}

func TestLoad_FileByPathNormalisesThePath(t *testing.T) {
	w := loadTxtar(t, "-- memory/gateway.md --\n- x\n")
	for _, p := range []string{"memory/gateway.md", "./memory/gateway.md", "/memory/gateway.md", "memory//gateway.md"} {
		if w.FileByPath(p) == nil {
			t.Errorf("FileByPath(%q) = nil", p)
		}
	}
	if w.FileByPath("memory/other.md") != nil {
		t.Error("found a file that does not exist")
	}
	var nilWS *Workspace
	if nilWS.FileByPath("x") != nil {
		t.Error("nil workspace")
	}
}

func TestLoadFS_NilFileSystemIsAnError(t *testing.T) {
	if _, err := LoadFS(nil, Options{}); err == nil {
		t.Error("no error")
	}
}

func twoDigits(i int) string {
	return string([]byte{byte('0' + i/10%10), byte('0' + i%10)})
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestLoad_UnplannedFoldersAndOtherFilesAreNotes(t *testing.T) {
	ws := loadTxtar(t, `
-- .obsidian/app.json --
{}
-- MEMORY.md --
- the root may be an Obsidian vault itself
-- memory/research/vector-dbs.md --
# Vector DBs
-- memory/kb/.obsidian/app.json --
{}
-- memory/kb/Home.md --
# a nested vault
-- memory/kb/daily/2026-04-01.md --
- not a daily log: it belongs to the nested vault
-- memory/gateway.md --
# Gateway
-- notes/todo.txt --
plain text
-- README.md --
# readme
-- memory/.dreams/session-corpus/notes.md --
x
`)
	noDiagnostics(t, ws)
	want := []string{"README.md", "memory/.dreams/session-corpus/notes.md", "memory/kb/Home.md", "memory/kb/daily/2026-04-01.md",
		"memory/research/vector-dbs.md", "notes/todo.txt"}
	if got := paths(ws.Notes); !equalStrings(got, want) {
		t.Errorf("Notes = %v\nwant    %v", got, want)
	}
	if !equalStrings(ws.NestedVaults, []string{"memory/kb"}) {
		t.Errorf("NestedVaults = %v", ws.NestedVaults)
	}
	if len(ws.Topics) != 1 || ws.Topics[0].Title != "Gateway" || len(ws.Daily) != 0 || ws.Memory == nil {
		t.Errorf("topics %v daily %v", ws.Topics, ws.Daily)
	}
	for _, f := range ws.Notes {
		if f.Kind != KindNote {
			t.Errorf("%s has kind %s", f.Path, f.Kind)
		}
	}
}

func TestLoad_SymlinkIntoANeverReadFolderIsNotFollowed(t *testing.T) {
	ws := writeTree(t, "-- .env.md --\nTOKEN=secret\n-- .git/notes.md --\nx\n-- MEMORY.md --\n- x\n")
	must(t, os.Symlink(".env.md", filepath.Join(ws, "env.md")))
	must(t, os.Symlink(".git", filepath.Join(ws, "gitdir")))
	w := mustLoad(t, ws, Options{})
	if got := paths(w.Files); !equalStrings(got, []string{"MEMORY.md"}) {
		t.Errorf("Files = %v", got)
	}
	if n := len(diagsWith(w.Diagnostics, "symlink")); n != 2 {
		t.Errorf("diagnostics = %v", w.Diagnostics)
	}
}

func TestLoad_ARecallStoreOverTheNoteCapIsRead(t *testing.T) {
	// OpenClaw's recall store grows with every search; past 16 MiB it is
	// still what recall signals come from (#24).
	ws := writeTree(t, "-- MEMORY.md --\n- x\n")
	must(t, os.MkdirAll(filepath.Join(ws, "memory", ".dreams"), 0o755))
	var b strings.Builder
	b.WriteString(`{"version":1,"entries":{`)
	entry := `"memory:memory/2026-03-01.md:%d:%d":{"path":"memory/2026-03-01.md","startLine":1,"endLine":1,"recallCount":1,"snippet":"` + strings.Repeat("padding words ", 64) + `"}`
	for i := 0; b.Len() < MaxFileSize+1<<20; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(strings.Replace(strings.Replace(entry, "%d", strconv.Itoa(i), 1), "%d", strconv.Itoa(i), 1))
	}
	b.WriteString("}}")
	must(t, os.WriteFile(filepath.Join(ws, filepath.FromSlash(RecallStorePath)), []byte(b.String()), 0o644))
	w := mustLoad(t, ws, Options{})
	if ds := diagsWith(w.Diagnostics, "size"); len(ds) != 0 {
		t.Errorf("the recall store was skipped: %v", ds)
	}
	if w.Recall == nil || len(w.Recall.Entries) < 1000 {
		t.Fatalf("the recall store was not read: %+v", w.Recall)
	}
}
