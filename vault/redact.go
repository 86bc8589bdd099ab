package vault

import (
	"fmt"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// Redact replaces every secret (DESIGN 5.6) in the inputs' text with
// "[REDACTED:kind]" before anything is parsed, so no output made from the
// vault (notes, pages, twins, JSON, search data) can carry one. Each
// finding is reported with its file and line, never with its value.
func Redact(inputs []Input) diag.List {
	var diags diag.List
	for i := range inputs {
		in := &inputs[i]
		if !secrets.Contains(in.Text) {
			continue
		}
		text, found := secrets.Redact(in.Text)
		in.Text = text
		file := in.Source
		if file == "" {
			file = in.Path
		}
		for _, f := range found {
			diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "secret", File: file, Line: f.Line, Col: f.Col,
				Message: fmt.Sprintf("%s %s redacted from every output", f.Kind, f.Preview),
				Hint:    "rotate it and remove it from the workspace"})
		}
	}
	return diags
}
