// Package diag defines the diagnostics every stage reports: warnings and
// errors that carry a file, a line and, where we know one, a suggested fix.
// Diagnostics are collected into reports, never lost in logs.
package diag

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// Severity orders diagnostics from informational to fatal.
type Severity int

const (
	// Info is worth showing but needs no action.
	Info Severity = iota
	// Warning means the input was handled in a degraded way (for example a
	// note rendered without its broken front matter).
	Warning
	// Error means the input is wrong in a way `--strict` should fail on.
	Error
)

// String returns the lower-case name used in reports and JSON.
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	default:
		return "error"
	}
}

// MarshalText lets JSON reports carry the severity by name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is one finding about the input.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	// Code is a short stable identifier such as "frontmatter", "broken-link",
	// "symlink", "utf8", "json", "secret".
	Code string `json:"code"`
	// File is workspace-relative with forward slashes; empty when the
	// finding is about the workspace as a whole.
	File string `json:"file,omitempty"`
	// Line and Col are 1-based; 0 when unknown.
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
	// Hint says what to do about it, when we know.
	Hint string `json:"hint,omitempty"`
}

// Redacted returns d with every secret in its text replaced by its
// placeholder: in its file (a path may hold a token, and so may a
// symbolic link's target a message quotes), its message and its hint.
// Error and the JSON encoding print only this, so no report, printed or
// --json, can carry a secret whatever its stage put in it.
func (d Diagnostic) Redacted() Diagnostic {
	d.File, _ = secrets.RedactName(d.File)
	d.Message, _ = secrets.Redact(d.Message)
	d.Hint, _ = secrets.Redact(d.Hint)
	return d
}

// MarshalJSON encodes the redacted diagnostic (see Redacted).
func (d Diagnostic) MarshalJSON() ([]byte, error) {
	type fields Diagnostic // without this method
	return json.Marshal(fields(d.Redacted()))
}

// Error formats the diagnostic as "file:line:col: message; hint", redacted
// (see Redacted).
func (d Diagnostic) Error() string {
	d = d.Redacted()
	loc := d.File
	if loc != "" && d.Line > 0 {
		loc += fmt.Sprintf(":%d", d.Line)
		if d.Col > 0 {
			loc += fmt.Sprintf(":%d", d.Col)
		}
	}
	msg := d.Message
	if d.Hint != "" {
		msg += "; " + d.Hint
	}
	if loc == "" {
		return msg
	}
	return loc + ": " + msg
}

// List collects diagnostics. The zero value is ready to use; it is not safe
// for concurrent use (collect per goroutine and Merge).
type List []Diagnostic

// Add appends a diagnostic.
func (l *List) Add(d Diagnostic) { *l = append(*l, d) }

// Warnf appends a warning about file:line.
func (l *List) Warnf(code, file string, line int, format string, args ...any) {
	l.Add(Diagnostic{Severity: Warning, Code: code, File: file, Line: line, Message: fmt.Sprintf(format, args...)})
}

// Errorf appends an error about file:line.
func (l *List) Errorf(code, file string, line int, format string, args ...any) {
	l.Add(Diagnostic{Severity: Error, Code: code, File: file, Line: line, Message: fmt.Sprintf(format, args...)})
}

// Count returns how many diagnostics have at least the given severity.
func (l List) Count(min Severity) int {
	n := 0
	for _, d := range l {
		if d.Severity >= min {
			n++
		}
	}
	return n
}

// Sort orders diagnostics by file, line, column, code and message so reports
// are deterministic whatever order the stages ran in.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
}
