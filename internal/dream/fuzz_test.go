package dream

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/secrets"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

func FuzzAbsoluteDates(f *testing.F) {
	for _, s := range []string{"tomorrow at 9", "next Monday", "3 days ago", "11-07 → 11-14", "昨天和下周一", "来週の月曜日", "`today` https://x/today", "in a week", "last night"} {
		f.Add(s)
	}
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		once, _ := absoluteDates(s, day)
		twice, _ := absoluteDates(once, day)
		if twice != once {
			t.Errorf("not idempotent: %q -> %q -> %q", s, once, twice)
		}
	})
}

// FuzzCandidate reads arbitrary daily logs: no panic, and every distilled
// fact is free of secrets and fits on a line.
func FuzzCandidate(f *testing.F) {
	for _, s := range []string{
		"# 2026-04-10\n\n- Gateway host is now the Mac mini.\n- password: hunter2-very-long\n",
		"# Session: 2026-04-10 08:10:37 UTC\n\n- **Session Key**: x\n\n## Light Sleep\n- a\n\n## Notes\n- TODO: renew tomorrow\n",
		"- -----BEGIN OPENSSH PRIVATE KEY-----\n  abc\n  -----END OPENSSH PRIVATE KEY-----\n",
		"- " + strings.Repeat("word ", 200) + "\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		ws, err := workspace.LoadFS(fstest.MapFS{"memory/2026-04-10.md": {Data: []byte(content)}}, workspace.Options{})
		if err != nil || len(ws.Daily) != 1 {
			return
		}
		for i, it := range ws.Daily[0].Items {
			c, _ := newCandidate(i, ws.Daily[0], it, newFileSecrets(ws.Daily[0].File))
			if c == nil {
				continue
			}
			if secrets.Contains(c.fact) {
				t.Errorf("fact holds a secret: %q", c.fact)
			}
			for _, l := range c.lines(true) {
				if utf8.RuneCountInString(l) > MaxLine {
					t.Errorf("line of %d characters: %q", utf8.RuneCountInString(l), l)
				}
			}
		}
	})
}

// FuzzDoc edits arbitrary Markdown: rendering without edits gives the file
// back; with entries removed, marked and added it never panics, and every
// entry left keeps its lines.
func FuzzDoc(f *testing.F) {
	for _, s := range []string{basicMemory, "# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- x\n", "**[feedback] T (04-27)**\n> a\n> b\n\n**Rule:** r\n**Why:** w\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		if !utf8.ValidString(content) || strings.ContainsRune(content, '\r') {
			return
		}
		ws, err := workspace.LoadFS(fstest.MapFS{"memory/topic.md": {Data: []byte(content)}}, workspace.Options{})
		if err != nil || len(ws.Topics) != 1 {
			return
		}
		tp := ws.Topics[0]
		d := newDoc(tp.File.Path, tp.File.Content, []byte(tp.File.Content), tp.Sections)
		if got := string(d.render()); got != tp.File.Content && got != tp.File.Content+"\n" {
			t.Fatalf("render without edits changed the file:\n%q\n%q", tp.File.Content, got)
		}
		for i, u := range d.units {
			switch i % 3 {
			case 0:
				u.remove()
			case 1:
				u.replace(insertMarker(u.lines, "(done 2026-04-10)"))
				u.replace(addEvidence(u.lines, []evidence{{Path: "memory/2026-04-10.md", Line: 3, EndLine: 3}}))
			default:
				u.after = append(u.after, newBlock("- after"))
			}
		}
		d.addSection("Notes", 2).inserts = append(d.addSection("Notes", 2).inserts, newBlock("- new"))
		out := string(d.render())
		for i, u := range d.units {
			if i%3 == 2 && !strings.Contains(out, strings.Join(u.lines, "\n")) {
				t.Errorf("an untouched entry lost its lines: %q", u.lines)
			}
		}
	})
}

const basicMemory = "# MEMORY.md\n\n> limit: 200 lines / 25KB | last dream: 2026-04-01\n\n## People\n- [user] Sam. (source: 2026-03-20)\n\n## Infra\n- Gateway host is the NUC. Source: memory/2026-03-20.md#L3-L3\n"
