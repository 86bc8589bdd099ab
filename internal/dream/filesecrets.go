package dream

import (
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/secrets"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// fileSecrets are the secrets of one log, found in the whole of its text.
// An item alone can hide one: a table row's value is named by the
// table's header ("| App Secret |" above it), which the row does not
// hold. So an item is judged by its file's findings, and its lines are
// taken from the file redacted.
type fileSecrets struct {
	orig, lines []string // the file's lines as written, and redacted
	found       []lineSpan
}

// lineSpan is one finding: its kind and its first and last line.
type lineSpan struct {
	kind        secrets.Kind
	first, last int
}

// secretsOf scans each file once; nil files are skipped.
func secretsOf(files []*workspace.File) map[*workspace.File]*fileSecrets {
	out := make(map[*workspace.File]*fileSecrets, len(files))
	for _, f := range files {
		if f != nil && out[f] == nil {
			out[f] = newFileSecrets(f)
		}
	}
	return out
}

func newFileSecrets(f *workspace.File) *fileSecrets {
	red, found := secrets.Redact(f.Content)
	fs := &fileSecrets{}
	if len(found) == 0 {
		return fs
	}
	fs.orig, fs.lines = strings.Split(f.Content, "\n"), strings.Split(red, "\n")
	for _, x := range found {
		fs.found = append(fs.found, lineSpan{x.Kind, x.Line, x.Line + strings.Count(f.Content[x.Start:x.End], "\n")})
	}
	return fs
}

// in returns the findings on lines [from, to].
func (fs *fileSecrets) in(file string, from, to int) []SecretFinding {
	if fs == nil {
		return nil
	}
	var out []SecretFinding
	for _, x := range fs.found {
		if x.first <= to && x.last >= from {
			out = append(out, SecretFinding{File: file, Line: max(x.first, from), Kind: x.kind, Action: "redacted"})
		}
	}
	return out
}

// redactedRaw returns the item's raw lines, read from line from of the
// file, as the redacted file has them; ok is false when raw is not the
// file's lines (a message quoted from a conversation archive).
func (fs *fileSecrets) redactedRaw(raw string, from int) (string, bool) {
	ls := strings.Split(raw, "\n")
	if from < 1 || from-1+len(ls) > len(fs.orig) {
		return "", false
	}
	for i, l := range ls {
		if fs.orig[from-1+i] != l {
			return "", false
		}
	}
	return strings.Join(fs.lines[from-1:from-1+len(ls)], "\n"), true
}
