// Package buildtest builds a workspace written as one txtar string and
// checks the files the build wrote, as Hugo's integration tests do: the
// input and the expected output read together in the test. Only tests
// import it; package build's own tests cannot (it imports build), so
// theirs live in package build_test.
//
//	out := buildtest.Build(t, `
//	-- MEMORY.md --
//	- The gateway is the [[mac-mini]].
//	-- notes/mac-mini.md --
//	# Mac mini
//	`)
//	out.AssertContains("site/index.html", `href="notes/mac-mini.html"`)
//	out.AssertExists("vault/notes/mac-mini.md")
package buildtest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/dreamwiki/dreamwiki/internal/build"
)

// asOf is the day every build here is judged at unless its options name
// another: decay, tiers and lapsed permissions depend on it, and a test
// must not change with the calendar. It is the day of the demo's golden
// snapshots (internal/build/golden_test.go), so tests and snapshots see
// the same demo.
var asOf = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// Workspace writes archive into a new temporary folder and returns the
// folder: each `-- name --` section becomes a file (txtar ends each with
// a newline). A test adds what txtar cannot carry (invalid UTF-8, CRLF,
// symlinks) before it builds the folder with BuildWith.
func Workspace(t testing.TB, archive string) string {
	t.Helper()
	dir := t.TempDir()
	if err := txtar.Write(txtar.Parse([]byte(archive)), dir); err != nil {
		t.Fatalf("writing the workspace: %v", err)
	}
	return dir
}

// Build builds the workspace written as archive (see Workspace) into a
// temporary folder, as BuildWith does.
func Build(t testing.TB, archive string) *Output {
	t.Helper()
	return BuildWith(t, build.Options{Workspace: Workspace(t, archive)})
}

// BuildWith builds the vault and site of opts (a workspace folder, or the
// demo) and fails t if the build fails. Out defaults to a temporary
// folder and AsOf to a fixed day, so the output is the same on any date.
func BuildWith(t testing.TB, opts build.Options) *Output {
	t.Helper()
	if !opts.Demo && opts.Workspace == "" {
		// build.Build would read the working directory: the test's package.
		t.Fatal("buildtest.BuildWith: the options name no workspace and not the demo")
	}
	if opts.Out == "" {
		opts.Out = filepath.Join(t.TempDir(), "dist")
	}
	if opts.AsOf.IsZero() {
		opts.AsOf = asOf
	}
	o := &Output{t: t, Dir: opts.Out, Options: opts}
	o.Rebuild()
	return o
}

// Open returns the output a build wrote into dir by other means (a team
// site's, internal/team), for the same assertions.
func Open(t testing.TB, dir string) *Output { return &Output{t: t, Dir: dir} }

// Output is what a build wrote, and the assertions a test makes on it.
// Names of files are slash-separated and relative to Dir:
// "site/index.html", "vault/claims/x.md".
type Output struct {
	t testing.TB
	// Dir is the output folder, holding vault/ and site/.
	Dir string
	// Options are those the build ran with (Workspace is the folder the
	// archive was written into).
	Options build.Options
	// Report is what the last build reported.
	Report *build.Report
}

// Rebuild builds again with the same options into the same folder, as a
// second `dreamwiki build` does after a person edited the workspace or
// the vault, and replaces Report.
func (o *Output) Rebuild() {
	o.t.Helper()
	r, err := build.Build(o.t.Context(), o.Options)
	if err != nil {
		o.t.Fatalf("build: %v", err)
	}
	o.Report = r
}

// Path returns the path on disk of the output file name.
func (o *Output) Path(name string) string {
	return filepath.Join(o.Dir, filepath.FromSlash(name))
}

// Read returns the content of the output file name; a missing file fails
// the test.
func (o *Output) Read(name string) string {
	o.t.Helper()
	data, err := os.ReadFile(o.Path(name))
	if err != nil {
		o.t.Fatalf("reading the output: %v", err)
	}
	return string(data)
}

// Files returns the names of every file under the output folder dir
// ("" for all of them), sorted.
func (o *Output) Files(dir string) []string {
	o.t.Helper()
	var names []string
	err := filepath.WalkDir(o.Path(dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(o.Dir, p)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		o.t.Fatalf("listing the output: %v", err)
	}
	slices.Sort(names)
	return names
}

// AssertExists fails the test for each of names that is not a file.
func (o *Output) AssertExists(names ...string) {
	o.t.Helper()
	for _, name := range names {
		if st, err := os.Stat(o.Path(name)); err != nil || st.IsDir() {
			o.t.Errorf("%s was not written", name)
		}
	}
}

// AssertNotExists fails the test for each of names that exists.
func (o *Output) AssertNotExists(names ...string) {
	o.t.Helper()
	for _, name := range names {
		if _, err := os.Stat(o.Path(name)); err == nil {
			o.t.Errorf("%s was written, and should not have been", name)
		}
	}
}

// AssertContains fails the test for each of subs the file name does not
// contain, showing the file.
func (o *Output) AssertContains(name string, subs ...string) {
	o.t.Helper()
	data := o.Read(name)
	for _, s := range subs {
		if !strings.Contains(data, s) {
			o.t.Errorf("%s lacks %q; it reads:\n%s", name, s, excerpt(data))
		}
	}
}

// AssertNotContains fails the test for each of subs the file name
// contains, showing the line it is on.
func (o *Output) AssertNotContains(name string, subs ...string) {
	o.t.Helper()
	data := o.Read(name)
	for _, s := range subs {
		if i := strings.Index(data, s); i >= 0 {
			line, text := lineAt(data, i)
			o.t.Errorf("%s:%d holds %q, and should not:\n%s", name, line, s, text)
		}
	}
}

// AssertMatches fails the test when no part of the file name matches the
// regular expression pattern, showing the file.
func (o *Output) AssertMatches(name, pattern string) {
	o.t.Helper()
	data := o.Read(name)
	if !regexp.MustCompile(pattern).MatchString(data) {
		o.t.Errorf("%s does not match `%s`; it reads:\n%s", name, pattern, excerpt(data))
	}
}

// AssertNoFileHolds fails the test for every file under the output
// folder dir ("" for all of them) whose name or content holds one of
// words: what a private note or a secret must never reach.
func (o *Output) AssertNoFileHolds(dir string, words ...string) {
	o.t.Helper()
	for _, name := range o.Files(dir) {
		data := o.Read(name)
		for _, w := range words {
			if strings.Contains(name, w) {
				o.t.Errorf("the name of %s holds %q", name, w)
			}
			if i := strings.Index(data, w); i >= 0 {
				line, _ := lineAt(data, i)
				o.t.Errorf("%s:%d holds %q", name, line, w)
			}
		}
	}
}

// AssertDiagnostic fails the test when the report has no diagnostic with
// the code about the workspace file, listing those it has.
func (o *Output) AssertDiagnostic(code, file string) {
	o.t.Helper()
	for _, d := range o.Report.Diagnostics {
		if d.Code == code && d.File == file {
			return
		}
	}
	var all strings.Builder
	for _, d := range o.Report.Diagnostics {
		fmt.Fprintf(&all, "\n  %s: %v", d.Code, d)
	}
	o.t.Errorf("no %s diagnostic about %s; the report has:%s", code, file, all.String())
}

// excerptLimit is how much of a file a failure message shows.
const excerptLimit = 4000

// excerpt is what a failure message shows of a file: all of it when it
// is short; else, for an HTML page, its main element (every page starts
// with the same header and explorer); clipped either way.
func excerpt(data string) string {
	if len(data) > excerptLimit {
		if i := strings.Index(data, "<main"); i >= 0 {
			data = data[i:]
			if j := strings.Index(data, "</main>"); j >= 0 {
				data = data[:j+len("</main>")]
			}
		}
	}
	if len(data) <= excerptLimit {
		return data
	}
	cut := excerptLimit
	for cut > 0 && !utf8.RuneStart(data[cut]) {
		cut--
	}
	return fmt.Sprintf("%s\n… (%d bytes more)", data[:cut], len(data)-cut)
}

// lineAt returns the 1-based number and the text of the line holding
// byte i of data.
func lineAt(data string, i int) (int, string) {
	start := strings.LastIndexByte(data[:i], '\n') + 1
	end := strings.IndexByte(data[i:], '\n')
	if end < 0 {
		end = len(data)
	} else {
		end += i
	}
	return strings.Count(data[:start], "\n") + 1, data[start:end]
}
