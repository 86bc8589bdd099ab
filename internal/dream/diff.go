package dream

import (
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// unifiedDiff is the change to one file as a unified diff with a/ and b/
// prefixes, as git prints it. The diff is anchored on unique lines, which
// keeps it O(n log n) on large files.
func unifiedDiff(path string, old, new []byte, created bool) string {
	from := "a/" + path
	if created {
		from = "/dev/null"
	}
	return string(diff.Diff(from, old, "b/"+path, new))
}

// lostSecret returns the line of the first secret value old holds that data
// no longer holds, 0 when it keeps them all: a dream never rewrites a line
// that holds one, so a plan that drops one was made from text that was not
// the file's.
func lostSecret(old, data []byte) int {
	s := string(data)
	for _, f := range secrets.Scan(string(old)) {
		if !strings.Contains(s, string(old[f.Start:f.End])) {
			return f.Line
		}
	}
	return 0
}

// redactNew replaces the secrets in a file's new bytes that are not on a
// line the old bytes already had, and returns those it replaced. A line the
// file had is never changed: redacting it would lose the value from the
// user's file (DESIGN 5.6).
func redactNew(old, data []byte) ([]byte, []secrets.Finding) {
	s := string(data)
	_, found := secrets.Redact(s)
	if len(found) == 0 {
		return data, nil
	}
	had := "\n" + string(old) + "\n"
	var b strings.Builder
	var replaced []secrets.Finding
	last := 0
	for _, f := range found {
		from := strings.LastIndexByte(s[:f.Start], '\n') + 1
		to := len(s)
		if i := strings.IndexByte(s[f.End:], '\n'); i >= 0 {
			to = f.End + i
		}
		if strings.Contains(had, "\n"+s[from:to]+"\n") {
			continue
		}
		b.WriteString(s[last:f.Start])
		b.WriteString(secrets.Placeholder(f.Kind))
		last = f.End
		replaced = append(replaced, f)
	}
	if len(replaced) == 0 {
		return data, nil
	}
	b.WriteString(s[last:])
	return []byte(b.String()), replaced
}
