package build_test

import (
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/buildtest"
)

// Private notes leave no trace in any file of the site or the vault: not
// their text, not their title, not their path, not a link to them, in
// pages, twins, JSON, the feed, the graph data, the sitemap, the llms
// files or the lint reports. (The reports were a known gap when the site
// judged privacy note by note; the model now has no private notes.)
func TestBuild_PrivateNotesLeaveNoTraceInAnySiteFile(t *testing.T) {
	out := buildtest.Build(t, `
-- dreamwiki.toml --
private = ["memory/private/**"]
-- MEMORY.md --
# Memory
- Health notes live in [[health-zebra]]; gift ideas in [[gifts-quokka]]; public in [[public-note]].
-- memory/private/health-zebra.md --
# Health zebra
Zebra-secret-phrase: the private health note.
-- memory/journal-okapi.md --
---
private: true
---
# Journal okapi
- Okapi-secret-phrase: an entry of a private topic file, with no evidence.
-- notes/gifts-quokka.md --
---
publish: false
title: Gifts quokka
---
Quokka-secret-phrase: gift ideas.
-- notes/public-note.md --
# Public note
Links back to [[health-zebra]] and [[gifts-quokka]].
-- memory/2026-03-01.md --
- Talked about [[health-zebra]] today.
`)
	out.AssertNoFileHolds("", "Zebra-secret-phrase", "Quokka-secret-phrase", "Okapi-secret-phrase", "health-zebra.html",
		"gifts-quokka.html", "health-zebra.md", "gifts-quokka.md", "journal-okapi", "Gifts quokka", "memory/private")
	if n := out.Report.Private; n != 3 {
		t.Errorf("the report counts %d private files, want 3", n)
	}
	// The public note still says what it links to, as plain text.
	out.AssertContains("site/notes/public-note.html", "health-zebra")
}
