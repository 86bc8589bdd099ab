package site_test

import (
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/buildtest"
	"github.com/dreamwiki/dreamwiki/internal/safesvg"
)

// A workspace's SVG is a document of the site when opened on its own, and
// most hosts let no header sandbox it: the site publishes it cleaned of
// what could run (issue #22, finding 4), and one it cannot read as a
// placeholder. The note still shows it.
func TestSite_SVGsArePublishedWithoutScript(t *testing.T) {
	out := buildtest.Build(t, `
-- notes/drawing.md --
# Drawing

![[diagram.svg]] ![[broken.svg]]
-- notes/diagram.svg --
<svg xmlns="http://www.w3.org/2000/svg" onload="fetch('/')" width="20" height="10"><script>fetch("/api/dream")</script><rect width="20" height="10" fill="teal"/><a href="javascript:fetch('/')"><text>go</text></a></svg>
-- notes/broken.svg --
<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/api/dream")</script><rect>
`)
	out.AssertContains("site/notes/diagram.svg", `<rect width="20" height="10" fill="teal">`, `<text>go</text>`)
	out.AssertNotContains("site/notes/diagram.svg", "fetch", "<script", "onload", "javascript:")
	if got := out.Read("site/notes/broken.svg"); got != string(safesvg.Placeholder) {
		t.Errorf("an SVG that is not well-formed is published as\n%s", got)
	}
	out.AssertContains("site/notes/drawing.html", `<img src="../notes/diagram.svg"`)
}
