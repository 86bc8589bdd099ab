package workspace

import (
	"fmt"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// A read with Options.Redact replaces secrets at the root: in each file's
// text as it is read (redactFile) and in each path as the walk finds it
// (walker.named, with secrets.RedactName). Nothing downstream redacts
// again; whatever it makes, it makes from these.

// redactFile replaces the secrets in f's text and reports each one at its
// line. secrets.Redact keeps the text's lines, so line numbers, citations
// and block ids still match the file on disk.
func redactFile(f *File, diags *diag.List) {
	if !secrets.Contains(f.Content) {
		return
	}
	text, found := secrets.Redact(f.Content)
	f.Content = text
	for _, s := range found {
		diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "secret", File: f.Path, Line: s.Line, Col: s.Col,
			Message: fmt.Sprintf("%s %s found; the site, the vault and the search index show %s instead", s.Kind, s.Preview, secrets.Placeholder(s.Kind)),
			Hint:    "rotate it, and remove it from the workspace"})
	}
}
