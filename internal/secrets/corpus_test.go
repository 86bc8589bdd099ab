package secrets

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// corpusCase is one case of testdata/secrets.txt or testdata/shapes.txt.
type corpusCase struct {
	line     int // line of the "==" header, for failure messages
	kinds    []Kind
	name     string // after "|" in the header, if any
	notIn    []string
	text     string
	redacted string // empty when the case gives none
	hasRedac bool
}

// readCorpus parses testdata/secrets.txt (its format is described at the top
// of the file).
func readCorpus(t testing.TB) []corpusCase { return readCases(t, "testdata/secrets.txt") }

// readCases parses a file of cases: "== kinds [| name]", optionally
// "-- not in: contexts", the text, and optionally "-- redacted" and the
// expected redaction.
func readCases(t testing.TB, path string) []corpusCase {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []corpusCase
	var cur *corpusCase
	var text, red []string
	inRed := false
	flush := func() {
		if cur == nil {
			return
		}
		cur.text = trimBlankLines(strings.Join(text, "\n"))
		cur.redacted = trimBlankLines(strings.Join(red, "\n"))
		cases = append(cases, *cur)
		cur, text, red, inRed = nil, nil, nil, false
	}
	for i, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "== "):
			flush()
			cur = &corpusCase{line: i + 1}
			kinds, name, _ := strings.Cut(l[3:], "|")
			cur.name = strings.TrimSpace(name)
			for _, k := range strings.Fields(kinds) {
				cur.kinds = append(cur.kinds, Kind(k))
			}
		case cur == nil:
			// comment or blank line before the first case
		case strings.HasPrefix(l, "-- not in: ") && len(text) == 0:
			cur.notIn = strings.Fields(strings.TrimPrefix(l, "-- not in: "))
		case l == "-- redacted":
			inRed, cur.hasRedac = true, true
		case inRed:
			red = append(red, l)
		default:
			text = append(text, l)
		}
	}
	flush()
	return cases
}

// trimBlankLines drops the blank lines that end s: the blank line that
// separates two cases, and the emptied lines a redacted key block ends
// with.
func trimBlankLines(s string) string {
	ls := strings.Split(s, "\n")
	for len(ls) > 0 && strings.TrimSpace(ls[len(ls)-1]) == "" {
		ls = ls[:len(ls)-1]
	}
	return strings.Join(ls, "\n")
}

func TestCorpus_EverySecretIsFoundWithItsKind(t *testing.T) {
	cases := readCorpus(t)
	seen := map[Kind]int{}
	for _, c := range cases {
		fs := Scan(c.text)
		var got []Kind
		for _, f := range fs {
			got = append(got, f.Kind)
			seen[f.Kind]++
		}
		if !slices.Equal(got, c.kinds) {
			t.Errorf("secrets.txt:%d: kinds = %v, want %v\n%s", c.line, got, c.kinds, c.text)
		}
		if !Contains(c.text) {
			t.Errorf("secrets.txt:%d: Contains = false", c.line)
		}
	}
	// The corpus must exercise every kind with several variants.
	for _, k := range Kinds() {
		if min := 2; seen[k] < min {
			t.Errorf("corpus has %d findings of kind %s, want at least %d", seen[k], k, min)
		}
	}
}

func TestCorpus_RedactionKeepsLabelsAndIsIdempotent(t *testing.T) {
	for _, c := range readCorpus(t) {
		red, fs := Redact(c.text)
		if len(fs) != len(c.kinds) {
			t.Errorf("secrets.txt:%d: %d findings, want %d", c.line, len(fs), len(c.kinds))
		}
		if c.hasRedac && trimBlankLines(red) != c.redacted {
			t.Errorf("secrets.txt:%d: Redact =\n%s\nwant\n%s", c.line, red, c.redacted)
		}
		if got, want := strings.Count(red, "\n"), strings.Count(c.text, "\n"); got != want {
			t.Errorf("secrets.txt:%d: redacted text has %d line breaks, want %d:\n%s", c.line, got, want, red)
		}
		if again := Scan(red); len(again) != 0 {
			t.Errorf("secrets.txt:%d: redacted text still has %v:\n%s", c.line, again, red)
		}
		if twice, _ := Redact(red); twice != red {
			t.Errorf("secrets.txt:%d: redacting twice changed the text:\n%s", c.line, twice)
		}
		for _, f := range fs {
			if strings.Contains(f.String(), c.text[f.Start:f.End]) {
				t.Errorf("secrets.txt:%d: Finding.String() %q shows the secret", c.line, f.String())
			}
		}
	}
}

func TestCorpus_OrdinaryLinesAreNeverFlagged(t *testing.T) {
	b, err := os.ReadFile("testdata/ordinary.txt")
	if err != nil {
		t.Fatal(err)
	}
	whole := string(b)
	lines := 0
	for i, l := range strings.Split(whole, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		lines++
		if fs := Scan(l); len(fs) != 0 {
			t.Errorf("ordinary.txt:%d: flagged %v: %s", i+1, fs, l)
		}
		if Contains(l) {
			t.Errorf("ordinary.txt:%d: Contains = true: %s", i+1, l)
		}
	}
	if lines < 300 {
		t.Errorf("ordinary.txt has %d lines, want at least 300", lines)
	}
	// Context across lines must not create findings either.
	if fs := Scan(whole); len(fs) != 0 {
		for _, f := range fs {
			t.Errorf("ordinary.txt as a whole: flagged %v", f)
		}
	}
	if red, _ := Redact(whole); red != whole {
		t.Error("Redact changed ordinary.txt")
	}
}
