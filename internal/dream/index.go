package dream

import (
	"path"
	"slices"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// The workspace's own conventions: where it keeps its long-term index.
// Thousands of workspaces keep it at memory/MEMORY.md, some deeper
// (memory/bootstrap/MEMORY.md); a dream that started a root MEMORY.md
// beside it would leave the agent two indexes, one of them a stub.

// indexFile returns the file the workspace keeps its index in and its
// sections: the root MEMORY.md (or memory.md) when there is one, else the
// shallowest file named MEMORY.md (any case) among the L2 files under
// memory/, in path order. nil means the workspace keeps no index yet; a
// dream then starts the root MEMORY.md, as the seeds' setup does.
func indexFile(ws *workspace.Workspace) (*workspace.File, []*workspace.Section) {
	if ws.Memory != nil {
		return ws.Memory.File, ws.Memory.Sections
	}
	var best *workspace.TopicFile
	for _, t := range ws.Topics {
		if !strings.EqualFold(path.Base(t.File.Path), "MEMORY.md") || !isTopicPath(t.File.Path) {
			continue
		}
		if best == nil || depth(t.File.Path) < depth(best.File.Path) {
			best = t
		}
	}
	if best == nil {
		return nil, nil
	}
	return best.File, best.Sections
}

func depth(p string) int { return strings.Count(p, "/") }

// indexLike reports a file of the memory tree that lists other files
// rather than holding facts (an INDEX.md of "date | file | TL;DR" lines,
// a README): no fact is filed into it.
func indexLike(p string) bool {
	base := strings.ToLower(strings.TrimSuffix(path.Base(p), ".md"))
	return slices.Contains([]string{"memory", "index", "readme", "toc", "contents"}, base)
}
