package dream

import (
	"fmt"
	"path"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Private notes (DESIGN 5.7; File.Private is the workspace's one rule for
// which they are) are out of a dream's reach both ways: a private daily
// log is no source, a private topic file or index no target, and a dream
// reads neither.
//
// The other rule a dream could follow, that a fact from a private source
// may land in a private file, is the one that leaks. A fact that leaves
// its log loses the front matter or glob that kept it private, so only a
// private folder could take it; and to weigh, merge, supersede or archive
// facts of private files a dream compares them with public ones and
// quotes both in its plan, its log, memory-meta.json and the archive,
// which the site and the vault read. Keeping private notes out of the
// dream altogether is as safe as it gets and needs no second index, no
// second budget and no care at each place a text is quoted: what a dream
// never read it cannot write anywhere.
//
// The dream's own records (the dream log, the archive, the state files)
// stay the dream's to write when a glob makes them private: they only
// ever receive text from public notes, and a private copy of it leaks
// nothing.

// dailyLogs are the daily logs a dream reads: the public ones.
func dailyLogs(ws *workspace.Workspace) []*workspace.DailyLog {
	out := make([]*workspace.DailyLog, 0, len(ws.Daily))
	for _, d := range ws.Daily {
		if !d.File.Private {
			out = append(out, d)
		}
	}
	return out
}

// privateFile reports whether the workspace keeps the file at p private:
// a file it read as private (File.Private), one it withheld (a read with
// OmitPrivate, as serve mode's), or a path yet to be written that the
// privacy rule makes private (Unpublished).
func privateFile(ws *workspace.Workspace, p string) bool {
	if f := ws.FileByPath(p); f != nil && f.Private {
		return true
	}
	return ws.Unpublished(p)
}

// privateIndex returns an error when the index the workspace keeps (see
// indexFile) is private. A dream can then neither write index lines into
// it without reading it nor start a second index beside it, so it stops.
func privateIndex(ws *workspace.Workspace) error {
	f, _ := indexFile(ws)
	idx := ""
	switch {
	case f != nil && f.Private:
		idx = f.Path
	case ws.Memory == nil:
		// A workspace read with OmitPrivate knows its private files by
		// path only: a withheld MEMORY.md at the root is the index, and a
		// withheld memory/**/MEMORY.md is when no public one is.
		for _, w := range ws.Withheld {
			if w.Kind == workspace.KindMemory || f == nil && w.Kind == workspace.KindTopic && strings.EqualFold(path.Base(w.Path), "MEMORY.md") && isTopicPath(w.Path) {
				idx = w.Path
				break
			}
		}
	}
	if idx == "" {
		return nil
	}
	return fmt.Errorf("%s is private: a dream writes its index lines there and would have to read it, and quote it in its log, to do so (it never starts a second index); make the index public and keep private facts in files of their own, such as memory/private/", idx)
}
