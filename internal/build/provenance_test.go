package build_test

import (
	"context"
	"encoding/json"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/buildtest"
	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/vault"
)

// vaultFiles reads every file of the written vault: its path in the
// vault -> content.
func vaultFiles(out *buildtest.Output) map[string]string {
	files := map[string]string{}
	for _, name := range out.Files("vault") {
		files[strings.TrimPrefix(name, "vault/")] = out.Read(name)
	}
	return files
}

// writtenVault parses the vault as Obsidian sees it: only the written
// files, names resolved among them and their aliases.
type writtenVault struct {
	files map[string]string
	docs  map[string]*markdown.Doc
	names *markdown.NameIndex
}

func readVault(out *buildtest.Output) *writtenVault {
	w := &writtenVault{files: vaultFiles(out), docs: map[string]*markdown.Doc{}}
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

// buildDemo builds the demo and loads its model, judged at the same day.
func buildDemo(t *testing.T) (*build.Model, *buildtest.Output) {
	t.Helper()
	out := buildtest.BuildWith(t, build.Options{Demo: true})
	m, err := build.Load(context.Background(), build.Options{Demo: true, AsOf: out.Options.AsOf})
	if err != nil {
		t.Fatal(err)
	}
	return m, out
}

func TestProvenance_EveryWikilinkInTheDemoVaultResolvesInObsidian(t *testing.T) {
	_, out := buildDemo(t)
	w := readVault(out)
	links := 0
	for _, p := range slices.Sorted(maps.Keys(w.docs)) {
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
	for _, p := range slices.Sorted(maps.Keys(w.docs)) {
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

var fmRe = regexp.MustCompile(`(?s)\A---\n(.*?)\n---\n`)

func TestProvenance_FrontMatterParsesWithTheDeclaredTypesAndIDsAreUnique(t *testing.T) {
	_, out := buildDemo(t)
	files := vaultFiles(out)
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
	for _, p := range slices.Sorted(maps.Keys(files)) {
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
	files := vaultFiles(out)
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
	files := vaultFiles(out)
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
