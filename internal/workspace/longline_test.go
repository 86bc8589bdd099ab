package workspace

import (
	"strings"
	"testing"
	"time"
)

// TestParse_PathologicalLongLinesStayLinear feeds every parser half a
// megabyte of one repeated construct on a single line. Any scan that
// restarts from the beginning for each occurrence turns this from
// milliseconds into hours, so the test guards linearity without timing.
func TestParse_PathologicalLongLinesStayLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("long lines")
	}
	const n = 512 << 10
	for _, p := range []string{
		"[", "[[", "]]", "](", "[a](", "**", "<!--", "-->", "memory/", "see memory/", "(", "—", "#", "2026-04-01 ",
		"source:", "(source: ", "[score=", "`", "~~", "status: ", "type: ", "[user", "#type/x ", "详见 ", "来源",
		"a.md#L1", "| ", "> ", "- ", "Why: How: ", "x.md", "![[", "(04-27) ", "evidence: ", "confidence ", "<https://",
	} {
		src := "- " + strings.Repeat(p, n/len(p)) + "\n"
		parseEntries("MEMORY.md", src, time.Time{}, nil)
		parseDreamItem("light", 1, src)
	}
}
