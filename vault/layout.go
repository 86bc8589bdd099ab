package vault

import (
	"path"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Layout maps workspace files onto the vault layout of DESIGN 4.1:
//
//	MEMORY.md                          -> index.md
//	memory/<topic>.md, memory/**/x.md  -> topics/<topic>.md, topics/**/x.md
//	memory/YYYY-MM-DD*.md              -> sources/daily/YYYY-MM-DD*.md
//	archives/<channel>/<group>/...     -> sources/conversations/<channel>/<group>/...
//	memory/dream-log.md, DREAMS.md     -> dreams/dream-log.md, dreams/DREAMS.md
//	memory/dreaming/<phase>/DATE.md    -> dreams/<phase>/DATE.md
//	memory/archive/YYYY-MM.md          -> archive/YYYY-MM.md
//	USER.md, AGENTS.md, ...            -> profile/USER.md, ...
//	anything else                      -> the same path
//
// It returns the vault path for a workspace file of the given kind.
func Layout(f *workspace.File) string {
	p := f.Path
	base := path.Base(p)
	switch f.Kind {
	case workspace.KindMemory:
		return "index.md"
	case workspace.KindTopic:
		return "topics/" + strings.TrimPrefix(p, "memory/")
	case workspace.KindDaily:
		return "sources/daily/" + base
	case workspace.KindConversation:
		return "sources/conversations/" + strings.TrimPrefix(p, "archives/")
	case workspace.KindDreamLog:
		return "dreams/dream-log.md"
	case workspace.KindDreams:
		return "dreams/DREAMS.md"
	case workspace.KindPhase:
		return "dreams/" + strings.TrimPrefix(p, "memory/dreaming/")
	case workspace.KindArchive:
		return "archive/" + strings.TrimPrefix(p, "memory/archive/")
	case workspace.KindBootstrap:
		return "profile/" + base
	}
	return p
}

// kindOf maps a workspace file kind to the vault note kind.
func kindOf(k workspace.Kind) Kind {
	switch k {
	case workspace.KindMemory:
		return KindIndex
	case workspace.KindTopic:
		return KindTopic
	case workspace.KindDaily:
		return KindDaily
	case workspace.KindConversation:
		return KindConversation
	case workspace.KindDreamLog, workspace.KindDreams, workspace.KindPhase:
		return KindDream
	case workspace.KindArchive:
		return KindArchive
	case workspace.KindBootstrap:
		return KindBootstrap
	}
	return KindNote
}

// fileDates are the dates of the workspace's daily logs and dated phase
// files, by path, as the notes made from them carry them.
func fileDates(ws *workspace.Workspace) map[string]string {
	dates := map[string]string{}
	for _, d := range ws.Daily {
		dates[d.File.Path] = d.Date.Format("2006-01-02")
	}
	for _, p := range ws.Phases {
		if !p.Date.IsZero() {
			dates[p.File.Path] = p.Date.Format("2006-01-02")
		}
	}
	return dates
}

// FromWorkspace returns a vault input for every Markdown file of the
// workspace, placed by Layout, and the workspace's assets. Private files
// (in a workspace read with them) are marked private.
func FromWorkspace(ws *workspace.Workspace) ([]Input, []*Asset) {
	dates := fileDates(ws)
	var inputs []Input
	for _, f := range ws.Files {
		if in, ok := fileInput(ws, f, dates[f.Path]); ok {
			inputs = append(inputs, in)
		}
	}
	return inputs, workspaceAssets(ws)
}

// workspaceAssets are the vault assets of the workspace's assets.
func workspaceAssets(ws *workspace.Workspace) []*Asset {
	assets := make([]*Asset, 0, len(ws.Assets))
	for _, a := range ws.Assets {
		src := a.Path
		assets = append(assets, &Asset{Path: src, Source: src, Size: a.Size, Hash: a.Hash,
			Read: func() ([]byte, error) { return ws.ReadAsset(src) }})
	}
	return assets
}

// fileInput is the input of one workspace file dated date; ok is false for
// files that are not notes (data files).
func fileInput(ws *workspace.Workspace, f *workspace.File, date string) (Input, bool) {
	if f.Kind == workspace.KindData {
		return Input{}, false
	}
	text, vpath := f.Content, Layout(f)
	if !isMarkdown(f.Path) {
		// Plain text is shown as written, not read as Markdown; the
		// vault keeps it as a note so it can still be linked to.
		text, vpath = plainTextNote(f), vpath+".md"
	}
	return Input{
		Path:    vpath,
		Kind:    kindOf(f.Kind),
		Source:  f.Path,
		Text:    text,
		Date:    date,
		Private: f.Private,
	}, true
}

// plainTextNote wraps a text file in a fence long enough that no line of
// the file can close it.
func plainTextNote(f *workspace.File) string {
	fence := "```"
	for strings.Contains(f.Content, fence) {
		fence += "`"
	}
	return "# " + path.Base(f.Path) + "\n\n" + fence + "text\n" + strings.TrimRight(f.Content, "\n") + "\n" + fence + "\n"
}

func isMarkdown(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext == ".md" || ext == ".markdown"
}
