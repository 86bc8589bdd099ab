package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
	"github.com/dreamwiki/dreamwiki/internal/demo"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
)

// TestSearch_JSONCitationsContainTheMatch is the acceptance test of
// `dreamwiki search "gateway host" --json`: the output is valid JSON in
// memory_search's shape, and every citation's line range, read back from
// the workspace file, holds a word of the query.
func TestSearch_JSONCitationsContainTheMatch(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"search", "gateway host", "--demo", "--json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var out struct {
		Results []memsearch.Result `json:"results"`
	}
	dec := json.NewDecoder(&stdout)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("not memory_search JSON: %v", err)
	}
	if len(out.Results) == 0 {
		t.Fatal("no results for gateway host")
	}
	for _, r := range out.Results {
		if r.Citation != r.Path+"#L"+itoa(r.StartLine)+"-L"+itoa(r.EndLine) {
			t.Errorf("citation %q does not match path %q lines %d-%d", r.Citation, r.Path, r.StartLine, r.EndLine)
		}
		if r.Snippet == "" || r.Source == "" || r.Score <= 0 {
			t.Errorf("%s: incomplete result %+v", r.Citation, r)
		}
		data, err := fs.ReadFile(demo.FS(), r.Path)
		if err != nil {
			t.Fatalf("%s: %v", r.Citation, err)
		}
		lines := strings.Split(string(data), "\n")
		if r.StartLine < 1 || r.EndLine < r.StartLine || r.EndLine > len(lines) {
			t.Fatalf("%s: range outside the file (%d lines)", r.Citation, len(lines))
		}
		cited := strings.Join(lines[r.StartLine-1:r.EndLine], "\n")
		terms := map[string]bool{}
		for _, term := range analysis.Analyze(cited) {
			terms[term] = true
		}
		if !terms["gateway"] && !terms["host"] {
			t.Errorf("%s cites lines without the match:\n%s", r.Citation, cited)
		}
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return string(b[i:])
}
