package dream

import (
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// Tests of the quality harness's own judging rules: a figure is only as
// exact as the reading behind it.

func TestQualityHarness_StructuresTellListsTablesAndCode(t *testing.T) {
	lines := strings.Split(strings.Join([]string{
		"## Steps",             // 0
		"1. first",             // 1 numbered
		"   more of the first", // 2 continuation
		"2. second",            // 3 numbered
		"",                     // 4
		"- a fact",             // 5 bullet list (new list: other marker)
		"| a | b |",            // 6 table
		"|---|---|",            // 7 table
		"```sh",                // 8 code
		"- not a list item",    // 9 code
		"```",                  // 10 code
		"plain paragraph",      // 11
	}, "\n"), "\n")
	st := qStructures(lines)
	want := []qStruct{{}, {ordered: true, list: 1}, {ordered: true, list: 1}, {ordered: true, list: 1}, {}, {list: 2},
		{table: true}, {table: true}, {code: true}, {code: true}, {code: true}, {}}
	for i := range want {
		if st[i] != want[i] {
			t.Errorf("line %d %q: got %+v, want %+v", i, lines[i], st[i], want[i])
		}
	}
}

func TestQualityHarness_ListLengthAndStatedCount(t *testing.T) {
	doc := strings.Split("## 无SOP（3个）\n- a\n- b\n  - nested\n- c\n\n## Hosts (2)\n| h | ip |\n|---|---|\n| x | 1 |\n| y | 2 |\n", "\n")
	from, to := qSection(doc, 0)
	if n := qListLength(doc, from, to); n != 3 {
		t.Errorf("list length %d, want 3", n)
	}
	from, to = qSection(doc, 6)
	if n := qListLength(doc, from, to); n != 2 {
		t.Errorf("table length %d, want 2", n)
	}
	for heading, want := range map[string]int{"## 无SOP（11个）": 11, "## Capabilities (5)": 5, "## MCP 서버 (7개)": 7,
		"## Escalation (4 steps)": 4, "## Release 2026 (3)": 3, "## Top 10": 10} {
		if n, ok := statedCount(heading); !ok || n != want {
			t.Errorf("statedCount(%q) = %d, %v; want %d", heading, n, ok, want)
		}
	}
}

func TestQualityHarness_CodeSpansAreExact(t *testing.T) {
	got := qCodeSpans("use `a()` and ``b ` c`` here\n```go\nx := 1\n```\nunclosed `tick")
	want := []string{"`a()`", "``b ` c``", "```go\nx := 1\n```"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestQualityHarness_CopiedCodeMustStayByteForByte(t *testing.T) {
	src := "- The right one is `new Date(now.getFullYear(), now.getMonth(), 0)`; CI needs `--pool=forks`."
	for _, c := range []struct {
		line string
		bad  int
	}{
		{"- The right one is `new Date(now.getFullYear(), now.getMonth(), 0)`; CI needs `--pool=forks`.", 0},
		{"- The right one is new Date(now.getFullYear, now.getMonth, 0); CI needs `--pool=forks`.", 1},
		{"- CI needs --pool=forks (2026-05-07).", 1},
		{"- A fact that leaves the code out.", 0},
		{"- Run `make all`.", 1}, // code the source does not have
	} {
		if got := qCopiedCode(c.line, src); len(got) != c.bad {
			t.Errorf("%q: %d bad spans %q, want %d", c.line, len(got), got, c.bad)
		}
	}
}

func TestQualityHarness_InsertionsNextToHumanStructures(t *testing.T) {
	before := "# T\n\n## Steps\n1. one\n2. two\n\n## Facts\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\n"
	q := &qWorkspace{labels: &qLabels{}}
	for _, c := range []struct {
		name, after string
		want        int
	}{
		{"after a numbered item", strings.Replace(before, "2. two\n", "2. two\n- new\n", 1), 1},
		{"after a blank line", strings.Replace(before, "2. two\n\n", "2. two\n\n- new\n\n", 1), 0},
		{"between fact bullets", strings.Replace(before, "- a\n", "- a\n- new\n", 1), 0},
		{"under a table", strings.Replace(before, "| 1 | 2 |\n", "| 1 | 2 |\n- new\n", 1), 1},
		{"inside code", strings.Replace(before, "code\n", "code\n- new\n", 1), 1},
		{"a rewritten numbered item", strings.Replace(before, "1. one\n", "1. one Source: x\n", 1), 1},
	} {
		if got := q.insertedIntoStructures(&qFigures{}, "f.md", before, c.after); got != c.want {
			t.Errorf("%s: %d lines, want %d", c.name, got, c.want)
		}
	}
}

func TestQualityHarness_LabelsMustMatchExactlyOneLine(t *testing.T) {
	ws := txtar.Parse([]byte("-- MEMORY.md --\n- alpha one\n- alpha two\n"))
	for _, c := range []struct{ labels, want string }{
		{"real | MEMORY.md | beta", "matches no line"},
		{"real | MEMORY.md | alpha", "matches lines [1 2]"},
		{"real | MEMORY.md | alpha one\njunk | MEMORY.md | one", "already labelled"},
		{"real | NOTES.md | alpha", "no file NOTES.md"},
		{"real | MEMORY.md | alpha one | from", "takes 2 fields"},
	} {
		_, err := parseQLabels("t", "now | 2026-01-01T00:00:00Z\nindex | MEMORY.md\n"+c.labels, ws)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one saying %q", c.labels, err, c.want)
		}
	}
}
