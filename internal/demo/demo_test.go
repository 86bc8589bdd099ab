package demo

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The demo's fake credentials, for tests that check redaction: none of
// these strings may appear in anything dreamwiki publishes. They are
// clearly fake and grant access to nothing.
const (
	// FakeGitHubToken is on line 4 of memory/2026-10-09.md.
	FakeGitHubToken = "ghp_DemoOnlyJuniperFakeToken0123456789ab"
	// FakeAWSAccessKey is on line 6 of memory/2026-11-03.md.
	FakeAWSAccessKey = "AKIAJUNIPERDEMO00042"
	// FakePassword is on line 7 of memory/2026-09-24.md ("password: hunter2-demo").
	FakePassword = "hunter2-demo"
)

// fakeSecrets says where each fake credential is written; each appears
// exactly once in the whole workspace.
var fakeSecrets = []struct {
	value, file string
	line        int
}{
	{FakeGitHubToken, "memory/2026-10-09.md", 4},
	{FakeAWSAccessKey, "memory/2026-11-03.md", 6},
	{FakePassword, "memory/2026-09-24.md", 7},
}

var (
	dailyName = regexp.MustCompile(`^memory/(\d{4}-\d{2}-\d{2})(-[A-Za-z0-9-]+)?\.md$`)

	// Evidence pointers with line numbers (DESIGN 3).
	anchorPointer  = regexp.MustCompile(`Source:\s*(memory/[^\s#]+\.md)#L(\d+)-L(\d+)`)
	scorePointer   = regexp.MustCompile(`source=(memory/[^\s:\]]+\.md):(\d+)-(\d+)`)
	commentPointer = regexp.MustCompile(`openclaw-memory-promotion:memory:(memory/[^\s:]+\.md):(\d+):(\d+)`)
	evidence       = regexp.MustCompile(`evidence:\s*(memory/[^\s:]+\.md):(\d+)-(\d+)`)

	// Evidence pointers naming a date or a file.
	datePointer = regexp.MustCompile(`\(source: (\d{4}-\d{2}-\d{2})\)|详见 daily notes (\d{4}-\d{2}-\d{2})`)
	seePointer  = regexp.MustCompile(`see (memory/[^\s,;)]+\.md)`)
	wikilink    = regexp.MustCompile(`!?\[\[([^\]|#]*)(#[^\]|]*)?(\|[^\]]*)?\]\]`)
	htmlComment = regexp.MustCompile(`<!--.*?-->`)
)

// workspaceFiles reads every file of the demo workspace into memory.
func workspaceFiles(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(FS(), p)
		if err != nil {
			return err
		}
		out[p] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// isTopic reports whether p is an L2 topic file (memory/<topic>.md or
// memory/**/<topic>.md that is none of the other memory files).
func isTopic(p string) bool {
	if !strings.HasPrefix(p, "memory/") || !strings.HasSuffix(p, ".md") || dailyName.MatchString(p) {
		return false
	}
	if p == "memory/dream-log.md" {
		return false
	}
	for _, skip := range []string{"memory/dreaming/", "memory/.dreams/", "memory/archive/", "memory/private/"} {
		if strings.HasPrefix(p, skip) {
			return false
		}
	}
	return true
}

func TestFS_HasTheCoreFiles(t *testing.T) {
	files := workspaceFiles(t)
	for _, want := range []string{
		"MEMORY.md", "DREAMS.md", "USER.md", "AGENTS.md", "SOUL.md", "IDENTITY.md", "TOOLS.md", "HEARTBEAT.md",
		"dreamwiki.toml", "memory/dream-log.md", "memory/memory-meta.json", "memory/heartbeat-state.json",
		"memory/.dreams/short-term-recall.json", "memory/.dreams/events.jsonl",
		"memory/dreaming/light/2026-11-18.md", "memory/dreaming/rem/2026-11-18.md", "memory/dreaming/deep/2026-11-18.md",
		"memory/archive/2026-10.md", "memory/private/health.md", "archives/archive-config.json",
		"notes/reading-list.md", "notes/assets/diagram.svg",
	} {
		if _, ok := files[want]; !ok {
			t.Errorf("missing %s", want)
		}
	}
	var daily, topics int
	for p := range files {
		if dailyName.MatchString(p) {
			daily++
		}
		if isTopic(p) {
			topics++
		}
	}
	if daily < 55 {
		t.Errorf("%d daily logs, want at least 55", daily)
	}
	if topics < 8 {
		t.Errorf("%d L2 topic files, want at least 8", topics)
	}
}

func TestFS_JSONIsValid(t *testing.T) {
	files := workspaceFiles(t)
	for _, p := range slices.Sorted(maps.Keys(files)) {
		switch {
		case strings.HasSuffix(p, ".json"):
			var v any
			if err := json.Unmarshal([]byte(files[p]), &v); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		case strings.HasSuffix(p, ".jsonl"):
			for i, line := range strings.Split(strings.TrimRight(files[p], "\n"), "\n") {
				var v map[string]any
				if err := json.Unmarshal([]byte(line), &v); err != nil {
					t.Errorf("%s:%d: %v", p, i+1, err)
				}
			}
		}
	}
}

// stopwords are words too common in this workspace to count as shared content.
var stopwords = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "from": true, "that": true, "this": true,
	"not": true, "are": true, "was": true, "his": true, "her": true, "its": true, "into": true,
	"after": true, "before": true, "only": true, "when": true, "source": true, "memory": true,
	"sam": true, "has": true, "have": true, "but": true, "all": true, "now": true, "one": true,
	"user": true, "project": true, "feedback": true, "reference": true, "will": true, "then": true,
}

// contentWords returns the set of lower-case words of three or more
// letters that are not stopwords or bare numbers.
func contentWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len([]rune(w)) < 3 || stopwords[w] {
			continue
		}
		if _, err := strconv.Atoi(w); err == nil {
			continue
		}
		out[w] = true
	}
	return out
}

func shared(a, b string) []string {
	wb := contentWords(b)
	var out []string
	for w := range contentWords(a) {
		if wb[w] {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// entryAt returns the text of the entry a pointer on line i (0-based)
// belongs to: the next line for a promotion comment, the line itself for a
// list item or table row, else the block of non-blank lines ending at i.
func entryAt(lines []string, i int, comment bool) string {
	if comment {
		for j := i + 1; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) != "" {
				return lines[j]
			}
		}
		return ""
	}
	trim := strings.TrimSpace(lines[i])
	if indent := len(lines[i]) - len(strings.TrimLeft(lines[i], " ")); indent > 0 && strings.HasPrefix(trim, "- evidence:") {
		// An annotation sub-item of DREAMS.md: the entry is its parent item.
		j := i
		for j > 0 && len(lines[j])-len(strings.TrimLeft(lines[j], " ")) >= indent {
			j--
		}
		return strings.Join(lines[j:i+1], "\n")
	}
	if strings.HasPrefix(trim, "- ") || strings.HasPrefix(trim, "* ") || strings.HasPrefix(trim, "|") {
		return lines[i]
	}
	j := i
	for j > 0 && strings.TrimSpace(lines[j-1]) != "" {
		j--
	}
	return strings.Join(lines[j:i+1], "\n")
}

func stripPointers(s string) string {
	for _, re := range []*regexp.Regexp{anchorPointer, scorePointer, commentPointer, evidence, htmlComment} {
		s = re.ReplaceAllString(s, " ")
	}
	return s
}

// checkRange reports whether path:a-b names real lines sharing at least
// two content words with entry.
func checkRange(t *testing.T, files map[string]string, where, target string, a, b int, entry string) {
	t.Helper()
	content, ok := files[target]
	if !ok {
		t.Errorf("%s: points at %s, which does not exist", where, target)
		return
	}
	lines := strings.Split(strings.TrimRight(content, "\n"), "\n")
	if a < 1 || b < a || b > len(lines) {
		t.Errorf("%s: %s:%d-%d is outside the file (%d lines)", where, target, a, b, len(lines))
		return
	}
	evidence := strings.Join(lines[a-1:b], "\n")
	if w := shared(stripPointers(entry), evidence); len(w) < 2 {
		t.Errorf("%s: %s:%d-%d shares %v with the entry, want two words or more\n entry: %s\n lines: %s",
			where, target, a, b, w, entry, evidence)
	}
}

func TestFS_LinePointersNameRealLinesThatSupportTheEntry(t *testing.T) {
	files := workspaceFiles(t)
	checked := 0
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if p != "MEMORY.md" && p != "DREAMS.md" && !isTopic(p) {
			continue
		}
		lines := strings.Split(files[p], "\n")
		for i, line := range lines {
			for _, re := range []*regexp.Regexp{anchorPointer, scorePointer, commentPointer, evidence} {
				for _, m := range re.FindAllStringSubmatch(line, -1) {
					a, _ := strconv.Atoi(m[2])
					b, _ := strconv.Atoi(m[3])
					where := fmt.Sprintf("%s:%d", p, i+1)
					checkRange(t, files, where, m[1], a, b, entryAt(lines, i, re == commentPointer))
					checked++
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("checked only %d line pointers; the demo should carry more", checked)
	}
}

func dailyExists(files map[string]string, date string) bool {
	for p := range files {
		if m := dailyName.FindStringSubmatch(p); m != nil && m[1] == date {
			return true
		}
	}
	return false
}

// resolveWikilink finds the file an Obsidian link target names: an exact
// path, a path without ".md", or a unique base name.
func resolveWikilink(files map[string]string, target string) (string, bool) {
	if _, ok := files[target]; ok {
		return target, true
	}
	if _, ok := files[target+".md"]; ok {
		return target + ".md", true
	}
	var hits []string
	for p := range files {
		base := path.Base(p)
		if base == target || strings.TrimSuffix(base, ".md") == target {
			hits = append(hits, p)
		}
	}
	if len(hits) == 1 {
		return hits[0], true
	}
	return "", false
}

func TestFS_DateFileAndWikiPointersResolve(t *testing.T) {
	files := workspaceFiles(t)
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if !strings.HasSuffix(p, ".md") {
			continue
		}
		for i, line := range strings.Split(files[p], "\n") {
			where := fmt.Sprintf("%s:%d", p, i+1)
			for _, m := range datePointer.FindAllStringSubmatch(line, -1) {
				date := m[1] + m[2]
				if !dailyExists(files, date) {
					t.Errorf("%s: no daily log for %s", where, date)
				}
			}
			for _, m := range seePointer.FindAllStringSubmatch(line, -1) {
				if _, ok := files[m[1]]; !ok {
					t.Errorf("%s: %s does not exist", where, m[1])
				}
			}
			for _, m := range wikilink.FindAllStringSubmatch(line, -1) {
				if m[1] == "" {
					continue // a link to a heading of the same note
				}
				target, ok := resolveWikilink(files, m[1])
				if !ok {
					t.Errorf("%s: [[%s]] does not resolve to one file", where, m[1])
					continue
				}
				switch frag := strings.TrimPrefix(m[2], "#"); {
				case frag == "":
				case strings.HasPrefix(frag, "^"):
					if !regexp.MustCompile(`(?m)\s` + regexp.QuoteMeta(frag) + `$`).MatchString(files[target]) {
						t.Errorf("%s: block %s not found in %s", where, frag, target)
					}
				default:
					if !regexp.MustCompile(`(?m)^#+ ` + regexp.QuoteMeta(frag) + `$`).MatchString(files[target]) {
						t.Errorf("%s: heading %q not found in %s", where, frag, target)
					}
				}
			}
		}
	}
}

type recallStore struct {
	Version int `json:"version"`
	Entries map[string]struct {
		Path        string   `json:"path"`
		StartLine   int      `json:"startLine"`
		EndLine     int      `json:"endLine"`
		Snippet     string   `json:"snippet"`
		RecallCount int      `json:"recallCount"`
		QueryHashes []string `json:"queryHashes"`
		RecallDays  []string `json:"recallDays"`
	} `json:"entries"`
}

func TestFS_RecallStoreAndEventsPointAtRealLines(t *testing.T) {
	files := workspaceFiles(t)
	var store recallStore
	if err := json.Unmarshal([]byte(files["memory/.dreams/short-term-recall.json"]), &store); err != nil {
		t.Fatal(err)
	}
	if store.Version != 1 || len(store.Entries) < 12 {
		t.Fatalf("recall store: version %d, %d entries", store.Version, len(store.Entries))
	}
	var gatesPass, crystallised int
	for key, e := range store.Entries {
		if want := fmt.Sprintf("memory:%s:%d:%d", e.Path, e.StartLine, e.EndLine); key != want {
			t.Errorf("recall key %q, want %q", key, want)
		}
		checkRange(t, files, "recall "+key, e.Path, e.StartLine, e.EndLine, e.Snippet)
		if e.RecallCount >= 3 && len(e.QueryHashes) >= 3 {
			gatesPass++
		}
		if e.RecallCount >= 20 {
			crystallised++
		}
		if len(e.QueryHashes) > e.RecallCount {
			t.Errorf("recall %s: more unique queries than recalls", key)
		}
	}
	if gatesPass < 3 || crystallised < 1 {
		t.Errorf("recall store: %d entries pass the recall gates, %d crystallised", gatesPass, crystallised)
	}

	for i, line := range strings.Split(strings.TrimRight(files["memory/.dreams/events.jsonl"], "\n"), "\n") {
		var ev struct {
			Type      string `json:"type"`
			Timestamp string `json:"timestamp"`
			TS        string `json:"ts"`
			Results   []struct {
				Path      string `json:"path"`
				StartLine int    `json:"startLine"`
				EndLine   int    `json:"endLine"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("events.jsonl:%d: %v", i+1, err)
		}
		if ev.Type == "" || ev.Timestamp+ev.TS == "" {
			t.Errorf("events.jsonl:%d: missing type or timestamp", i+1)
		}
		for _, r := range ev.Results {
			n := strings.Count(strings.TrimRight(files[r.Path], "\n"), "\n") + 1
			if _, ok := files[r.Path]; !ok || r.StartLine < 1 || r.EndLine < r.StartLine || r.EndLine > n {
				t.Errorf("events.jsonl:%d: result %s:%d-%d does not exist", i+1, r.Path, r.StartLine, r.EndLine)
			}
		}
	}
}

// normalise drops Markdown emphasis and collapses whitespace so meta texts
// can be compared with the entries they describe.
func normalise(s string) string {
	s = strings.NewReplacer("**", "", "`", "", "~~", "").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

func TestFS_MetaEntriesMatchCuratedText(t *testing.T) {
	files := workspaceFiles(t)
	var meta struct {
		Entries []struct {
			ID           string `json:"id"`
			Text         string `json:"text"`
			SupersededBy string `json:"supersededBy"`
			Supersedes   string `json:"supersedes"`
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(files["memory/memory-meta.json"]), &meta); err != nil {
		t.Fatal(err)
	}
	curated := normalise(files["MEMORY.md"] + "\n" + files["memory/archive/2026-10.md"])
	ids := map[string]bool{}
	for _, e := range meta.Entries {
		ids[e.ID] = true
	}
	var superseded int
	for _, e := range meta.Entries {
		if !strings.Contains(curated, normalise(e.Text)) {
			t.Errorf("meta %s: text %q is in neither MEMORY.md nor the archive", e.ID, e.Text)
		}
		for _, link := range []string{e.SupersededBy, e.Supersedes} {
			if link != "" && !ids[link] {
				t.Errorf("meta %s: links to unknown id %s", e.ID, link)
			}
		}
		if e.SupersededBy != "" {
			superseded++
		}
	}
	if len(meta.Entries) < 25 || superseded < 1 {
		t.Errorf("meta: %d entries, %d superseded", len(meta.Entries), superseded)
	}
}

func TestFS_FakeSecretsAreWhereTheTestsExpectThem(t *testing.T) {
	files := workspaceFiles(t)
	if !regexp.MustCompile(`^ghp_[A-Za-z0-9]{36}$`).MatchString(FakeGitHubToken) ||
		!regexp.MustCompile(`^AKIA[A-Z0-9]{16}$`).MatchString(FakeAWSAccessKey) {
		t.Fatal("fake credentials no longer look like the real kinds")
	}
	for _, s := range fakeSecrets {
		lines := strings.Split(files[s.file], "\n")
		if len(lines) < s.line || !strings.Contains(lines[s.line-1], s.value) {
			t.Errorf("%s:%d does not hold %s", s.file, s.line, s.value)
		}
		n := 0
		for _, c := range files {
			n += strings.Count(c, s.value)
		}
		if n != 1 {
			t.Errorf("%s appears %d times in the workspace, want once", s.value, n)
		}
	}
	if !strings.Contains(files["memory/2026-09-24.md"], "password: "+FakePassword) {
		t.Error(`the password is not written as a "password: x" line`)
	}
}
