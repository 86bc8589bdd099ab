package buildtest

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what the assertions report.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// A failed assertion names the file and shows it: the whole of a short
// file, the main element of a page, the line a forbidden text is on.
func TestAssertions_FailureShowsTheFile(t *testing.T) {
	out := Build(t, `
-- MEMORY.md --
# Memory
- The NAS sits under the stairs.
`)
	rec := &recorder{TB: t}
	out.t = rec
	out.AssertContains("vault/index.md", "The NAS sits under the stairs.")
	out.AssertExists("site/index.html", "vault/index.md")
	out.AssertNotExists("site/missing.html")
	out.AssertMatches("site/index.html", `<h1[ >]`)
	out.AssertDiagnostic("claim-no-evidence", "") // one count for the workspace (issue #23, rule 7)
	out.AssertLinksResolve()
	if len(rec.errors) > 0 {
		t.Fatalf("assertions that hold failed:\n%s", strings.Join(rec.errors, "\n"))
	}

	// failure runs one assertion that does not hold and returns what it
	// reported.
	failure := func(assert func()) string {
		rec.errors = nil
		assert()
		return strings.Join(rec.errors, "\n")
	}
	for _, c := range []struct {
		assert func()
		want   string
	}{
		{func() { out.AssertContains("vault/index.md", "under the bed") },
			`vault/index.md lacks "under the bed"; it reads:` + "\n---\ntitle: Memory\ntype: index\n"},
		{func() { out.AssertContains("site/index.html", "under the bed") },
			`site/index.html lacks "under the bed"; it reads:` + "\n<main"},
		{func() { out.AssertNotContains("vault/index.md", "stairs") },
			`vault/index.md:7 holds "stairs", and should not:` + "\n- The NAS sits under the stairs."},
		{func() { out.AssertNoFileHolds("vault/claims", "NAS sits") },
			`vault/claims/the-nas-sits-under-the-stairs.md:2 holds "NAS sits"`},
		{func() { out.AssertExists("site/missing.html") },
			`site/missing.html was not written`},
		{func() { out.AssertDiagnostic("secret", "MEMORY.md") },
			"no secret diagnostic about MEMORY.md; the report has:\n  claim-no-evidence: 1 of 1 claims have no evidence (MEMORY.md 1)"},
	} {
		if got := failure(c.assert); !strings.HasPrefix(got, c.want) {
			t.Errorf("the failure reads\n%s\nwant it to start with\n%s", got, c.want)
		}
	}
}
