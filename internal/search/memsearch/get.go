package memsearch

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// GetResult is memory_get's answer: lines of a workspace file.
type GetResult struct {
	Path      string `json:"path"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	Text      string `json:"text"`
}

// ErrNotPublished is Get's error for a path that names no published file:
// missing, private or never read (a dot-folder, an excluded glob) alike,
// so that the answer tells nothing about what is not published. The JSON
// state files (memory-meta.json, the recall store, events) are not
// published either: they describe private notes too. A path that is not
// written as the workspace writes it ("../x.md", "/x.md", "a/../x.md")
// names nothing.
var ErrNotPublished = errors.New("no such published file in the workspace")

// Get is memory_get, for `dreamwiki get` and serve mode's /api/get alike:
// lines start to end (1-based, inclusive) of the workspace file at p, the
// whole file when start is 0. end is cut at the file's last line and
// raised to start. ws must be read for publishing (build.ReadWorkspace,
// build.Load): its text is redacted and its private files are absent, so
// what Get returns is what the site may show, and a private path is
// ErrNotPublished like a missing one. A start past the end is an error
// that gives the file's length.
func Get(ws *workspace.Workspace, p string, start, end int) (GetResult, error) {
	f := ws.FileByPath(p)
	if f == nil || f.Path != p || f.Kind == workspace.KindData {
		return GetResult{}, fmt.Errorf("%s: %w", p, ErrNotPublished)
	}
	lines := strings.Split(strings.TrimSuffix(f.Content, "\n"), "\n")
	if start == 0 {
		start, end = 1, len(lines)
	}
	if start > len(lines) {
		return GetResult{}, fmt.Errorf("%s has %d lines; L%d is past the end", f.Path, len(lines), start)
	}
	end = min(max(end, start), len(lines))
	return GetResult{Path: f.Path, StartLine: start, EndLine: end, Text: strings.Join(lines[start-1:end], "\n")}, nil
}
