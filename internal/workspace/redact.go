package workspace

import (
	"fmt"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// A read with Options.Redact replaces secrets at the root: in each file's
// text as it is read (redactFile), in each text asset (an SVG) as it is
// copied (ReadAsset), and in each path as the walk finds it
// (walker.named, with Guard.RedactName). Nothing downstream redacts
// again; whatever it makes, it makes from these. With [publish]
// redact_personal the guard redacts personal data too; without it,
// personal data in a published file is reported (code "personal", at
// info level), so that `check` can list it and a build can say so.

// redactFile replaces the secrets (and, when g says so, the personal
// data) in f's text and reports each one at its line. Redaction keeps the
// text's lines, so line numbers, citations and block ids still match the
// file on disk.
func redactFile(f *File, g secrets.Guard, diags *diag.List) {
	if !g.Personal {
		for _, p := range secrets.ScanPersonal(f.Content) {
			diags.Add(personalDiagnostic(f.Path, p, false))
		}
		if !secrets.Contains(f.Content) {
			return
		}
	}
	text, found := g.Redact(f.Content)
	f.Content = text
	for _, s := range found {
		if personal(s.Kind) {
			diags.Add(personalDiagnostic(f.Path, s, true))
			continue
		}
		diags.Add(secretDiagnostic(f.Path, s, "the site, the vault and the search index show"))
	}
}

// secretDiagnostic reports a secret found at file:line.
func secretDiagnostic(file string, s secrets.Finding, shown string) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Warning, Code: "secret", File: file, Line: s.Line, Col: s.Col,
		Message: fmt.Sprintf("%s %s found; %s %s instead", s.Kind, s.Preview, shown, secrets.Placeholder(s.Kind)),
		Hint:    "rotate it, and remove it from the workspace"}
}

// PersonalCode is the diagnostic code of personal data in a published
// file.
const PersonalCode = "personal"

// personalDiagnostic reports personal data found at file:line, published
// as it is or (redacted) replaced.
func personalDiagnostic(file string, p secrets.Finding, redacted bool) diag.Diagnostic {
	d := diag.Diagnostic{Severity: diag.Info, Code: PersonalCode, File: file, Line: p.Line, Col: p.Col,
		Message: describePersonal(p.Kind) + " published",
		Hint:    "set [publish] redact_personal = true in dreamwiki.toml to redact personal data"}
	if redacted {
		d.Message, d.Hint = fmt.Sprintf("%s redacted; published as %s", describePersonal(p.Kind), secrets.Placeholder(p.Kind)), ""
	}
	return d
}

// PersonalCounts counts the personal data the diagnostics ds report
// (code PersonalCode), by kind.
func PersonalCounts(ds diag.List) (phones, emails, addresses int) {
	for _, d := range ds {
		if d.Code != PersonalCode {
			continue
		}
		switch {
		case strings.HasPrefix(d.Message, describePersonal(secrets.KindPhone)):
			phones++
		case strings.HasPrefix(d.Message, describePersonal(secrets.KindEmail)):
			emails++
		case strings.HasPrefix(d.Message, describePersonal(secrets.KindAddress)):
			addresses++
		}
	}
	return phones, emails, addresses
}

// personal reports whether k is a kind of personal data.
func personal(k secrets.Kind) bool {
	return k == secrets.KindPhone || k == secrets.KindEmail || k == secrets.KindAddress
}

// describePersonal names a kind of personal data for a report.
func describePersonal(k secrets.Kind) string {
	switch k {
	case secrets.KindPhone:
		return "phone number"
	case secrets.KindEmail:
		return "e-mail address"
	case secrets.KindAddress:
		return "street address"
	}
	return string(k)
}

// textAsset reports whether the asset at p is text a browser shows (an SVG
// image, whose <text> and metadata are copied byte for byte), which is
// scanned and redacted like a note. The other assets are binary formats.
func textAsset(p string) bool { return strings.HasSuffix(strings.ToLower(p), ".svg") }

// assetGuard is the guard assets are read with: nil when the workspace is
// read as written.
func (l *loader) assetGuard() *secrets.Guard {
	if !l.opts.Redact {
		return nil
	}
	return &l.guard
}
