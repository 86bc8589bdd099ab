package workspace

import (
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/demo"
)

// The embedded demo is a realistic workspace with every input kind: it
// must load without a single diagnostic, with every kind populated.
func TestLoadFS_DemoWorkspaceLoadsCleanly(t *testing.T) {
	ws, err := LoadFS(demo.FS(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	noDiagnostics(t, ws)
	switch {
	case ws.Memory == nil || ws.Memory.Limit == nil || len(ws.Memory.Entries()) < 40:
		t.Errorf("MEMORY.md: %+v", ws.Memory)
	case len(ws.Daily) < 50 || len(ws.Topics) < 5 || ws.DreamLog == nil || ws.Dreams == nil || len(ws.Phases) == 0:
		t.Errorf("daily %d topics %d dream log %v dreams %v phases %d", len(ws.Daily), len(ws.Topics), ws.DreamLog != nil, ws.Dreams != nil, len(ws.Phases))
	case ws.Recall == nil || len(ws.Events) == 0 || ws.Meta == nil || ws.Heartbeat == nil:
		t.Error("state files missing")
	case len(ws.Archive) == 0 || len(ws.Conversations) == 0 || ws.ArchiveConfig == nil || len(ws.Bootstrap) < 6:
		t.Error("archives or bootstrap files missing")
	}
	// Every file pointer written in curated memory names a file that was
	// loaded (wikilinks are resolved by name later, by provenance).
	for _, e := range append(ws.Memory.Entries(), topicEntries(ws)...) {
		for _, p := range e.Sources {
			if p.Kind == PointerWikilink || !strings.Contains(p.Path, "/") && !strings.HasSuffix(p.Path, ".md") {
				continue
			}
			if ws.FileByPath(p.Path) == nil {
				t.Errorf("%s:%d: %s pointer to %q names no file", e.File, p.Line, p.Kind, p.Path)
			}
		}
	}
	// Every entry of MEMORY.md has substance and a section.
	for _, e := range ws.Memory.Entries() {
		if e.Text == "" || e.Line == 0 {
			t.Errorf("entry %+v", e)
		}
	}
}

func topicEntries(ws *Workspace) []*Entry {
	var out []*Entry
	for _, t := range ws.Topics {
		out = append(out, t.Entries()...)
	}
	return out
}
