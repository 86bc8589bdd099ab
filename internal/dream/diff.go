package dream

import (
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

// redactFile replaces every secret in a file's bytes by its placeholder.
func redactFile(b []byte) ([]byte, []secrets.Finding) {
	out, found := secrets.Redact(string(b))
	if len(found) == 0 {
		return b, nil
	}
	return []byte(out), found
}

func secretsIn(b []byte) bool { return secrets.Contains(string(b)) }
