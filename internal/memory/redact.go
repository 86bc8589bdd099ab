package memory

import "github.com/dreamwiki/dreamwiki/internal/secrets"

// scrub is a text as a state file may hold it: every secret in it replaced
// by its placeholder ("[REDACTED:password]"). The state files are written
// by dreams, recalls from the command line, serve mode's searches and MCP
// alike; their encoders (MetaDoc, RecallDoc, RecallEvent, Event) pass each
// text through scrub, so no writer can put a raw secret into one, and a
// secret an older version wrote there is redacted the next time the file
// is written. Curated Markdown is different: the dream never rewrites an
// existing line there.
func scrub(s string) string {
	out, _ := secrets.Redact(s)
	return out
}
