package secrets

import (
	"bufio"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// gitleaksCase is one example of testdata/gitleaks/cases.jsonl: the true
// and false positives gitleaks v8.30.1 validates each default rule with
// (cmd/generate/config/rules/*.go), dumped from its generator, up to 12
// true positives per rule and every false positive.
type gitleaksCase struct {
	Rule string `json:"rule"`
	Want string `json:"want"` // "tp" or "fp"
	Text string `json:"text"`
	line int
}

func readGitleaksCases(t testing.TB) []gitleaksCase {
	t.Helper()
	f, err := os.Open("testdata/gitleaks/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cs []gitleaksCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var c gitleaksCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("cases.jsonl:%d: %v", n, err)
		}
		c.line = n
		cs = append(cs, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cs
}

// caseID names a case in exceptions.txt: its rule, its kind and the first
// eight hex digits of the SHA-1 of its text.
func caseID(c gitleaksCase) string {
	h := sha1.Sum([]byte(c.Text))
	return c.Rule + " " + c.Want + " " + hex.EncodeToString(h[:4])
}

// readExceptions reads testdata/gitleaks/exceptions.txt: one case id per
// line, a tab, and why the guard deliberately differs from gitleaks there.
func readExceptions(t testing.TB) map[string]string {
	t.Helper()
	b, err := os.ReadFile("testdata/gitleaks/exceptions.txt")
	if err != nil {
		t.Fatal(err)
	}
	ex := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		id, why, ok := strings.Cut(l, "\t")
		if !ok || strings.TrimSpace(why) == "" {
			t.Fatalf("exceptions.txt: %q has no reason", l)
		}
		ex[id] = why
	}
	return ex
}

// scanRule runs one pattern rule alone over text, as gitleaks validates a
// rule with a detector holding only that rule.
func scanRule(r *ruleState, text string) []candidate {
	s := scanner{t: text}
	newAutomaton(r.keywords).scan(text, func(id, start, end int) bool {
		r.detector(r.keywords[id])(&s, start, end)
		return false
	})
	return s.found
}

// handWritten are gitleaks rules whose job a hand-written detector does;
// their cases run against the whole guard.
var handWritten = map[string]bool{"generic-api-key": true, "private-key": true}

func TestGitleaks_RulesFindTheirTruePositivesAndNotTheirFalsePositives(t *testing.T) {
	rules := map[string][]*ruleState{}
	for _, r := range ruleSet() {
		rules[r.id] = append(rules[r.id], r)
	}
	ex := readExceptions(t)
	used := map[string]bool{}
	counts := map[string]int{}
	for _, c := range readGitleaksCases(t) {
		var found bool
		switch rs := rules[c.Rule]; {
		case len(rs) > 0:
			for _, r := range rs {
				found = found || len(scanRule(r, c.Text)) > 0
			}
		case handWritten[c.Rule]:
			found = len(Scan(c.Text)) > 0
		default:
			counts["left out"]++
			continue // a rule left out (rules_gitleaks.go says why)
		}
		counts[c.Want]++
		id := caseID(c)
		if _, ok := ex[id]; ok {
			used[id] = true
			if found == (c.Want == "tp") {
				t.Errorf("cases.jsonl:%d: %s is listed in exceptions.txt but the guard agrees with gitleaks", c.line, id)
			}
			continue
		}
		if found != (c.Want == "tp") {
			t.Errorf("cases.jsonl:%d: %s: found=%v\n%s", c.line, id, found, c.Text)
		}
	}
	for id := range ex {
		if !used[id] {
			t.Errorf("exceptions.txt: %s matches no case", id)
		}
	}
	t.Logf("gitleaks cases: %d true positives, %d false positives, %d of rules left out, %d exceptions",
		counts["tp"], counts["fp"], counts["left out"], len(ex))
}

func TestGitleaks_TruePositivesAreFoundByTheWholeGuard(t *testing.T) {
	ex := readExceptions(t)
	for _, c := range readGitleaksCases(t) {
		if c.Want != "tp" || strings.HasSuffix(c.Rule, "(path-scoped)") || ex[caseID(c)] != "" {
			continue
		}
		if !Contains(c.Text) {
			t.Errorf("cases.jsonl:%d: %s not found by Contains\n%s", c.line, caseID(c), c.Text)
		}
	}
}

func TestRules_AllCompileAndHaveKeywords(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range ruleSet() {
		r.compile()
		if len(r.keywords) == 0 || r.kind == "" || priority(r.kind) == len(kinds) {
			t.Errorf("rule %s: keywords %v, kind %q", r.id, r.keywords, r.kind)
		}
		ids[r.id] = true
	}
	if n := len(ids); n < 220 {
		t.Errorf("%d rule ids, want gitleaks' 215 carried rules and the guard's own", n)
	}
}
