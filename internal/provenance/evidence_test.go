package provenance

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// labelledClaim is one line of testdata/evidence.txtar's claims.txt.
type labelledClaim struct {
	text  string
	truth []labelledLine // empty: no line supports the claim
}

type labelledLine struct {
	path string
	line int
}

// loadLabelledSet reads the labelled set and returns a workspace whose
// MEMORY.md holds every claim (with no pointers, so only matching can
// find evidence) and the claims with their true evidence lines.
func loadLabelledSet(t *testing.T) (*workspace.Workspace, []labelledClaim) {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/evidence.txtar")
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{}
	files := map[string][]string{}
	var claimsTxt string
	for _, f := range ar.Files {
		if f.Name == "claims.txt" {
			claimsTxt = string(f.Data)
			continue
		}
		fsys[f.Name] = &fstest.MapFile{Data: f.Data}
		files[f.Name] = strings.Split(string(f.Data), "\n")
	}
	var claims []labelledClaim
	var memory strings.Builder
	memory.WriteString("# Memory\n\n## Facts\n")
	for _, l := range strings.Split(claimsTxt, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		text, truth, ok := strings.Cut(l, "||")
		if !ok {
			t.Fatalf("claims.txt: no || in %q", l)
		}
		c := labelledClaim{text: strings.TrimSpace(text)}
		if truth = strings.TrimSpace(truth); truth != "-" {
			for _, ref := range strings.Split(truth, " ; ") {
				p, needle, _ := strings.Cut(strings.TrimSpace(ref), " ")
				needle = strings.Trim(needle, `"`)
				line := 0
				for i, s := range files[p] {
					if strings.Contains(strings.ToLower(s), strings.ToLower(needle)) {
						line = i + 1
						break
					}
				}
				if line == 0 {
					t.Fatalf("claims.txt: %q not found in %s", needle, p)
				}
				c.truth = append(c.truth, labelledLine{p, line})
			}
		}
		claims = append(claims, c)
		memory.WriteString("- " + c.text + "\n")
	}
	fsys["MEMORY.md"] = &fstest.MapFile{Data: []byte(memory.String())}
	ws, err := workspace.LoadFS(fsys, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ws, claims
}

// TestEvidence_LabelledSetPrecisionAndRecall measures the matcher on
// labelled claim/evidence pairs: reworded facts, dates written another
// way, Chinese and Japanese, facts spread over lines, and 20 claims no
// line supports. A found line is correct when it is one of the claim's
// true lines; precision is over every line found, recall over every true
// line.
func TestEvidence_LabelledSetPrecisionAndRecall(t *testing.T) {
	ws, claims := loadLabelledSet(t)
	res := Analyze(ws, Options{})
	if len(res.Claims) != len(claims) {
		t.Fatalf("%d claims analysed, %d labelled", len(res.Claims), len(claims))
	}
	var found, correct, truths, hit, negatives, falseOnNegatives int
	for i, c := range res.Claims {
		want := claims[i]
		if c.Text == "" || !strings.Contains(want.text, strings.TrimSuffix(c.Text, ".")[:min(10, len(c.Text))]) {
			t.Fatalf("claim %d is %q, labelled %q", i, c.Text, want.text)
		}
		covered := make([]bool, len(want.truth))
		for _, ev := range c.Evidence {
			found++
			ok := false
			for k, tr := range want.truth {
				if ev.Path == tr.path && ev.StartLine <= tr.line && tr.line <= ev.EndLine {
					ok, covered[k] = true, true
				}
			}
			if ok {
				correct++
			} else {
				t.Logf("false: %q -> %s:%d %q (%s %.2f)", want.text, ev.Path, ev.StartLine, ev.Excerpt, ev.Method, ev.Confidence)
				if len(want.truth) == 0 {
					falseOnNegatives++
				}
			}
		}
		if len(want.truth) == 0 {
			negatives++
		}
		for k, tr := range want.truth {
			truths++
			if covered[k] {
				hit++
			} else {
				t.Logf("missed: %q -> %s:%d", want.text, tr.path, tr.line)
			}
		}
	}
	precision := float64(correct) / float64(max(found, 1))
	recall := float64(hit) / float64(max(truths, 1))
	msg := fmt.Sprintf("evidence matching: %d true pairs, %d claims without evidence; found %d lines, %d correct: precision %.3f, recall %.3f (%d false lines for unsupported claims)",
		truths, negatives, found, correct, precision, recall, falseOnNegatives)
	t.Log(msg)
	if os.Getenv("PROVENANCE_REPORT") != "" {
		fmt.Println(msg)
	}
	if truths < 60 || negatives < 20 {
		t.Errorf("labelled set has %d pairs and %d unsupported claims; want at least 60 and 20", truths, negatives)
	}
	if precision < 0.95 || recall < 0.85 {
		t.Errorf("precision %.3f (want >= 0.95), recall %.3f (want >= 0.85)", precision, recall)
	}
}

// Issue #23, rule 7: evidence must share the claim's values, not only its
// label words, and a dated entry looks in its own day's log first.
func TestEvidence_MustShareDistinctiveTerms(t *testing.T) {
	r := Analyze(load(t, `
-- MEMORY.md --
## Savings
- Harbour Bank deposit rate: 3 months 3.60%, 6 months 3.60%
- Login throttle for the parent portal — 5/IP/15min.
- Nightly job: prune-snapshots.sh keeps 30 days of snapshots.
- The kiln firing moved to Thursday evenings (2026-05-12).
-- memory/2026-04-02.md --
# 2026-04-02

- Harbour Bank deposit rate: 3 months 4.60%, 6 months 4.30%
- Login throttle for the parent portal — none yet, brute force possible
- Nightly job: rotate-logs.sh keeps 30 days of logs.
- The kiln firing is on Thursday evenings at the studio now.
-- memory/2026-05-12.md --
# 2026-05-12

- Studio news: kiln firing moves to Thursday evenings from this week.
-- memory/2026-05-20.md --
# 2026-05-20

- Harbour Bank: 3 months 3.60%, 6 months 3.60%, unchanged since May.
`), Options{})
	if c := claimWith(t, r, "Harbour Bank"); len(c.Evidence) != 1 || c.Evidence[0].Path != "memory/2026-05-20.md" {
		t.Errorf("the rate claim's evidence = %+v; want only the line with its rates", c.Evidence)
	}
	if c := claimWith(t, r, "Login throttle"); len(c.Evidence) != 0 {
		t.Errorf("a line with the label and not the value is evidence: %+v", c.Evidence)
	}
	if c := claimWith(t, r, "prune-snapshots.sh"); len(c.Evidence) != 0 {
		t.Errorf("a line about another script is evidence: %+v", c.Evidence)
	}
	if c := claimWith(t, r, "kiln firing"); len(c.Evidence) == 0 || c.Evidence[0].Path != "memory/2026-05-12.md" {
		t.Errorf("the dated claim's evidence = %+v; want its own day's line first", c.Evidence)
	}
}
