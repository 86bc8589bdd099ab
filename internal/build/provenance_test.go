package build

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/vault"
)

// vaultFiles reads every file of a written vault: path -> content.
func vaultFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// writtenVault parses the vault as Obsidian sees it: only the written
// files, names resolved among them and their aliases.
type writtenVault struct {
	files map[string]string
	docs  map[string]*markdown.Doc
	names *markdown.NameIndex
}

func readVault(t *testing.T, dir string) *writtenVault {
	t.Helper()
	w := &writtenVault{files: vaultFiles(t, dir), docs: map[string]*markdown.Doc{}}
	eng := markdown.New()
	var entries []markdown.IndexEntry
	for p, content := range w.files {
		e := markdown.IndexEntry{Path: p}
		if strings.HasSuffix(p, ".md") {
			d := eng.Parse(p, []byte(content))
			w.docs[p] = d
			e.Aliases = d.Meta.Aliases
		}
		entries = append(entries, e)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	w.names = markdown.NewNameIndex(entries)
	return w
}

func buildDemo(t *testing.T) (*Model, string) {
	t.Helper()
	_, out := buildInto(t, Options{Demo: true})
	m, err := Load(context.Background(), Options{Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	return m, out
}

func TestProvenance_EveryWikilinkInTheDemoVaultResolvesInObsidian(t *testing.T) {
	_, out := buildDemo(t)
	w := readVault(t, filepath.Join(out, "vault"))
	links := 0
	for _, p := range sortedKeysOf(w.docs) {
		d := w.docs[p]
		for _, l := range d.Links {
			links++
			target := p
			if l.Target != "" {
				var ok bool
				target, ok = w.names.Lookup(p, l.Target)
				if !ok {
					t.Errorf("%s:%d: [[%s]] resolves to nothing in the written vault", p, l.Line, l.Target)
					continue
				}
			}
			if l.Fragment == "" {
				continue
			}
			td := w.docs[target]
			if td == nil {
				t.Errorf("%s:%d: %s#%s: the target is not a note", p, l.Line, l.Target, l.Fragment)
				continue
			}
			if _, ok := td.Anchor(l.Fragment); !ok {
				t.Errorf("%s:%d: %s has no heading or block %q", p, l.Line, target, l.Fragment)
			}
		}
	}
	// Links in properties (evidence, supersedes, ...) resolve the same way.
	propLink := regexp.MustCompile(`\[\[([^\]|#]*)(?:#([^\]|]*))?(?:\|[^\]]*)?\]\]`)
	for _, p := range sortedKeysOf(w.docs) {
		m := fmRe.FindStringSubmatch(w.files[p])
		if m == nil {
			continue
		}
		for _, g := range propLink.FindAllStringSubmatch(m[1], -1) {
			links++
			target, ok := w.names.Lookup(p, g[1])
			if !ok {
				t.Errorf("%s: property link [[%s]] resolves to nothing", p, g[1])
				continue
			}
			if g[2] != "" {
				if _, ok := w.docs[target].Anchor(g[2]); !ok {
					t.Errorf("%s: property link [[%s#%s]]: no such block", p, g[1], g[2])
				}
			}
		}
	}
	if links < 1000 {
		t.Errorf("only %d links walked; the demo vault should have well over a thousand", links)
	}
}

func sortedKeysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var fmRe = regexp.MustCompile(`(?s)\A---\n(.*?)\n---\n`)

func TestProvenance_FrontMatterParsesWithTheDeclaredTypesAndIDsAreUnique(t *testing.T) {
	_, out := buildDemo(t)
	files := vaultFiles(t, filepath.Join(out, "vault"))
	var types struct {
		Types map[string]string `json:"types"`
	}
	if err := json.Unmarshal([]byte(files[".obsidian/types.json"]), &types); err != nil {
		t.Fatalf("types.json: %v", err)
	}
	for _, f := range []string{".obsidian/app.json", ".obsidian/graph.json", vault.ManifestFile} {
		var v map[string]any
		if err := json.Unmarshal([]byte(files[f]), &v); err != nil {
			t.Errorf("%s is not JSON: %v", f, err)
		}
	}
	date := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	ids := map[string]string{}
	claims := 0
	for _, p := range sortedKeysOf(files) {
		if !strings.HasSuffix(p, ".md") {
			continue
		}
		m := fmRe.FindStringSubmatch(files[p])
		if m == nil {
			continue
		}
		var props map[string]any
		if err := yaml.Unmarshal([]byte(m[1]), &props); err != nil {
			t.Errorf("%s: front matter is not YAML: %v", p, err)
			continue
		}
		for k, v := range props {
			want, declared := types.Types[k]
			if !declared || v == nil {
				continue
			}
			ok := false
			switch want {
			case "text":
				_, ok = v.(string)
			case "number":
				switch v.(type) {
				case int, float64:
					ok = true
				}
			case "checkbox":
				_, ok = v.(bool)
			case "date":
				switch x := v.(type) {
				case time.Time:
					ok = true
				case string:
					ok = date.MatchString(x)
				}
			case "multitext", "tags", "aliases":
				list, isList := v.([]any)
				ok = isList
				for _, item := range list {
					if _, s := item.(string); !s {
						ok = false
					}
				}
			}
			if !ok {
				t.Errorf("%s: %s = %#v is not a %s", p, k, v, want)
			}
		}
		if props["type"] == "claim" {
			claims++
			for _, k := range []string{"id", "memory_type", "status", "tier", "decay", "recalls", "created", "last_recalled", "evidence", "supersedes", "superseded_by", "tags", "aliases"} {
				if _, ok := props[k]; !ok {
					t.Errorf("%s: claim front matter lacks %s", p, k)
				}
			}
		}
		if id, ok := props["id"].(string); ok {
			if other := ids[id]; other != "" {
				t.Errorf("%s and %s share the id %s", other, p, id)
			}
			ids[id] = p
		}
	}
	if claims < 150 {
		t.Errorf("%d claim notes, want the demo's 175 or so", claims)
	}
}

// contentWords are the words of s worth comparing: lower-case letters and
// digits of three or more characters, and CJK bigrams.
func contentWords(s string) map[string]bool {
	out := map[string]bool{}
	var word []rune
	var cjk []rune
	flush := func() {
		if len(word) >= 3 || (len(word) >= 2 && unicode.IsDigit(word[0])) {
			out[string(word)] = true
		}
		for i := 0; i+1 < len(cjk); i++ {
			out[string(cjk[i:i+2])] = true
		}
		word, cjk = word[:0], cjk[:0]
	}
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
			if len(word) > 0 {
				flush()
			}
			cjk = append(cjk, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if len(cjk) > 0 {
				flush()
			}
			word = append(word, r)
		default:
			flush()
		}
	}
	flush()
	for _, w := range []string{"the", "and", "for", "with", "from", "that", "this", "are", "was", "not", "his", "her", "see", "claim", "source", "memory"} {
		delete(out, w)
	}
	return out
}

var blockLinkRe = regexp.MustCompile(`\[\[([^\]#|]+)#\^([A-Za-z0-9-]+)\]\]`)

// TestProvenance_EveryDemoClaimLinksToALineThatSaysIt follows every
// evidence link of every claim note to the line it lands on in the
// written vault, and checks that one of them says what the claim says:
// it shares at least two content words with the claim. Claims with no
// evidence are exactly those the report lists.
func TestProvenance_EveryDemoClaimLinksToALineThatSaysIt(t *testing.T) {
	m, out := buildDemo(t)
	files := vaultFiles(t, filepath.Join(out, "vault"))
	// block id -> the text of its block, per note.
	blockText := func(note, id string) (string, bool) {
		content, ok := files[note+".md"]
		if !ok {
			return "", false
		}
		lines := strings.Split(content, "\n")
		for i, l := range lines {
			if strings.HasSuffix(l, " ^"+id) {
				start := i
				for start > 0 && strings.TrimSpace(lines[start-1]) != "" && !strings.HasPrefix(strings.TrimSpace(lines[start]), "- ") {
					start--
				}
				return strings.Join(lines[start:i+1], " "), true
			}
		}
		return "", false
	}
	noEvidence := files[vault.ReportNoEvidence]
	checked := 0
	for _, n := range m.Vault.Notes {
		c := n.Claim
		if c == nil {
			continue
		}
		content := files[n.Path]
		ev := content[:strings.Index(content, "\n---\n")]
		var found []string
		for _, line := range strings.Split(ev, "\n") {
			if strings.HasPrefix(line, "evidence:") {
				for _, g := range blockLinkRe.FindAllStringSubmatch(line, -1) {
					found = append(found, g[1]+"#^"+g[2])
				}
			}
		}
		if len(c.Evidence) == 0 {
			if c.Origin != provenance.OriginArchive && !strings.Contains(noEvidence, vault.ClaimPath(c)[:len(vault.ClaimPath(c))-3]) {
				t.Errorf("%s has no evidence and is not in the report", c.ID)
			}
			continue
		}
		claimWords := contentWords(c.Text)
		ok := false
		for _, f := range found {
			note, id, _ := strings.Cut(f, "#^")
			text, exists := blockText(note, id)
			if !exists {
				t.Errorf("%s: evidence %s lands on no block", c.ID, f)
				continue
			}
			shared := 0
			for w := range contentWords(text) {
				if claimWords[w] {
					shared++
				}
			}
			if shared >= 2 || (shared >= 1 && len(claimWords) <= 2) {
				ok = true
			}
		}
		if !ok && !navigational(c) {
			t.Errorf("%s (%q): no evidence link lands on a line that says it; links %v", c.ID, c.Text, found)
		}
		checked++
	}
	if checked < 150 {
		t.Errorf("only %d claims with evidence checked", checked)
	}
}

// navigational claims point at a whole file ("Group chats: archives/…/
// DIGEST.md"): their evidence is the file, which they name.
func navigational(c *provenance.Claim) bool {
	for _, ev := range c.Evidence {
		if ev.StartLine == 0 && ev.Method.IsPointer() && strings.Contains(c.Text, strings.TrimSuffix(path.Base(ev.Path), ".md")) {
			return true
		}
	}
	return false
}

func TestProvenance_DemoChainPermissionAndLint(t *testing.T) {
	m, out := buildDemo(t)
	files := vaultFiles(t, filepath.Join(out, "vault"))
	var cur, old, lapsed *provenance.Claim
	for _, c := range m.Provenance.Claims {
		switch {
		case c.File == "MEMORY.md" && strings.HasPrefix(c.Text, "Gateway host is the Mac mini"):
			cur = c
		case strings.HasPrefix(c.Text, "Gateway host is nuc-01"):
			old = c
		case c.File == "MEMORY.md" && strings.HasPrefix(c.Text, "You may deploy the blog"):
			lapsed = c
		}
	}
	if cur == nil || old == nil || lapsed == nil {
		t.Fatal("the demo's gateway claims or blog permission are missing")
	}
	curNote, oldNote := files[vault.ClaimPath(cur)], files[vault.ClaimPath(old)]
	if !strings.Contains(curNote, `supersedes: ["[[`+strings.TrimSuffix(vault.ClaimPath(old), ".md")+`]]"]`) ||
		!strings.Contains(curNote, "Supersedes [["+strings.TrimSuffix(vault.ClaimPath(old), ".md")) {
		t.Errorf("the Mac mini claim does not show what it superseded:\n%s", curNote)
	}
	if !strings.Contains(oldNote, `superseded_by: ["[[`+strings.TrimSuffix(vault.ClaimPath(cur), ".md")+`]]"]`) ||
		!strings.Contains(oldNote, "status: superseded") || !strings.Contains(oldNote, "Superseded by [["+strings.TrimSuffix(vault.ClaimPath(cur), ".md")) {
		t.Errorf("the nuc-01 claim does not show what superseded it:\n%s", oldNote)
	}
	lapsedNote := files[vault.ClaimPath(lapsed)]
	for _, want := range []string{"lapsed: true", "expires: 2026-10-01", "memory/lapsed", "**lapsed**"} {
		if !strings.Contains(lapsedNote, want) {
			t.Errorf("the blog permission note lacks %q", want)
		}
	}
	if !strings.Contains(files[vault.ReportLapsed], strings.TrimSuffix(vault.ClaimPath(lapsed), ".md")) {
		t.Errorf("the lapsed permission is not in the report")
	}
	codes := map[string]int{}
	for _, d := range m.Diagnostics() {
		codes[d.Code]++
	}
	for _, code := range []string{"claim-no-evidence", "claim-contested", "claim-stale", "permission-lapsed"} {
		if codes[code] == 0 {
			t.Errorf("no %s finding on the demo", code)
		}
	}
	if codes["broken-link"]+codes["broken-anchor"] != 0 {
		t.Errorf("the demo vault has broken links: %v", codes)
	}
}

// TestProvenance_RebuildKeepsHumanEdits edits a built vault the ways a
// person does, rebuilds twice, and finds every word they typed.
func TestProvenance_RebuildKeepsHumanEdits(t *testing.T) {
	ws := writeTxtar(t, `
-- MEMORY.md --
# Memory

## Infrastructure
- Gateway host is the Mac mini. Source: memory/2026-10-21.md#L1-L1
- Zigbee2MQTT uses the by-id path.
-- memory/2026-10-21.md --
- Moved the gateway to the Mac mini.
`)
	out := filepath.Join(t.TempDir(), "dist")
	opts := Options{Workspace: ws, Out: out}
	if _, err := Build(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	v := filepath.Join(out, "vault")
	claim := filepath.Join(v, "claims", "gateway-host-is-the-mac-mini.md")
	edit := func(p string, f func(string) string) {
		t.Helper()
		must(t, os.WriteFile(p, []byte(f(read(t, p))), 0o644))
	}
	// Inside a human block, outside one, a new note and a second block.
	edit(claim, func(s string) string {
		return strings.Replace(s, vault.HumanStart+"\n", vault.HumanStart+"\nChecked the router page myself.\n", 1)
	})
	daily := filepath.Join(v, "sources", "daily", "2026-10-21.md")
	edit(daily, func(s string) string {
		return s + "\nA line I added outside any block.\n\n" + vault.HumanStart + "\nA block I made myself.\n" + vault.HumanEnd + "\n"
	})
	must(t, os.WriteFile(filepath.Join(v, "my-note.md"), []byte("# Mine\n\nMy own note.\n"), 0o644))
	// The entry's text changes a little; its id must not.
	memory := filepath.Join(ws, "MEMORY.md")
	edit(memory, func(s string) string {
		return strings.Replace(s, "Gateway host is the Mac mini.", "The gateway host is now the Mac mini.", 1)
	})

	r, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, claim); !strings.Contains(got, "Checked the router page myself.") || !strings.Contains(got, "The gateway host is now the Mac mini") {
		t.Errorf("the claim lost its human text or its id:\n%s", got)
	}
	if got := read(t, daily); !strings.Contains(got, "A block I made myself.") || strings.Contains(got, "A line I added outside") {
		t.Errorf("daily log after rebuild:\n%s", got)
	}
	if read(t, filepath.Join(v, "my-note.md")) != "# Mine\n\nMy own note.\n" {
		t.Errorf("a note made in the vault was not kept")
	}
	var backedUp string
	for _, d := range r.Diagnostics {
		if d.Code == "hand-edit" && strings.Contains(d.Message, "sources/daily/2026-10-21.md") {
			backedUp = d.Message
		}
	}
	if backedUp == "" {
		t.Fatalf("the edit outside human blocks was not reported: %v", r.Diagnostics)
	}
	found := false
	_ = filepath.WalkDir(filepath.Join(out, "vault-backup"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && bytes.Contains([]byte(read(t, p)), []byte("A line I added outside any block.")) {
			found = true
		}
		return nil
	})
	if !found {
		t.Errorf("the edited file is not in vault-backup")
	}
	// A third build changes nothing a person wrote and backs up nothing.
	r, err = Build(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range r.Diagnostics {
		if d.Code == "hand-edit" {
			t.Errorf("third build: %s", d.Message)
		}
	}
	if got := read(t, claim); !strings.Contains(got, "Checked the router page myself.") {
		t.Errorf("third build lost the human text")
	}
	if got := read(t, daily); !strings.Contains(got, "A block I made myself.") {
		t.Errorf("third build lost the appended human block")
	}
}
