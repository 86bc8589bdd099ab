package workspace

import (
	"fmt"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// A read with Options.Redact replaces secrets at the root: in each file's
// text as it is read (redactFile) and in each path as the walk finds it
// (redactPath). Nothing downstream redacts again; whatever it makes, it
// makes from these.

// redactFile replaces the secrets in f's text and reports each one at its
// line. The text keeps its line count, so line numbers, citations and
// block ids still match the file on disk.
func redactFile(f *File, diags *diag.List) {
	if !secrets.Contains(f.Content) {
		return
	}
	text, found := secrets.Redact(f.Content)
	f.Content = keepLines(f.Content, text, found)
	for _, s := range found {
		diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "secret", File: f.Path, Line: s.Line, Col: s.Col,
			Message: fmt.Sprintf("%s %s found; the site, the vault and the search index show %s instead", s.Kind, s.Preview, secrets.Placeholder(s.Kind)),
			Hint:    "rotate it, and remove it from the workspace"})
	}
}

// keepLines returns redacted (orig with found redacted) with as many lines
// as orig: a secret that spans lines (a private key block) leaves its
// line breaks after its placeholder.
func keepLines(orig, redacted string, found []secrets.Finding) string {
	if strings.Count(redacted, "\n") == strings.Count(orig, "\n") {
		return redacted
	}
	var b strings.Builder
	b.Grow(len(orig))
	last := 0
	for _, s := range found {
		b.WriteString(orig[last:s.Start])
		b.WriteString(secrets.Placeholder(s.Kind))
		b.WriteString(strings.Repeat("\n", strings.Count(orig[s.Start:s.End], "\n")))
		last = s.End
	}
	b.WriteString(orig[last:])
	return b.String()
}

// redactPath returns p with each secret in it replaced by
// "redacted-<kind>", which a file name, a URL and a wikilink can all
// hold, and the secrets found.
func redactPath(p string) (string, []secrets.Finding) {
	if !secrets.Contains(p) {
		return p, nil
	}
	_, found := secrets.Redact(p)
	var b strings.Builder
	last := 0
	for _, s := range found {
		b.WriteString(p[last:s.Start])
		b.WriteString("redacted-" + string(s.Kind))
		last = s.End
	}
	b.WriteString(p[last:])
	return b.String(), found
}
