package workspace

import (
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// PrivateFolder is the folder name that makes everything under it private,
// wherever it sits ("memory/private/health.md", "notes/private/x.png"):
// a safe default for the folder people already use for what is not for
// sharing, with no configuration needed.
const PrivateFolder = "private"

// This file is the one place that decides who may read a file (DESIGN
// 5.7): the reader sets File.Private from it, and every output, the
// server and the CLI ask the model rather than judge again.
//
// A file is private when
//   - its path matches a `private` glob of dreamwiki.toml,
//   - it lies in a folder named "private" (PrivateFolder, any case), or
//   - its front matter says `private: true` or `publish: false` (Obsidian
//     Publish's key).

// privateByPath reports whether a workspace path is private whatever the
// file holds: a `private` glob or a private folder. Assets and data files
// can only be private this way.
func privateByPath(globs []string, p string) bool {
	for _, g := range globs {
		if MatchGlob(g, p) {
			return true
		}
	}
	segs := strings.Split(p, "/")
	for _, s := range segs[:len(segs)-1] {
		if strings.EqualFold(s, PrivateFolder) {
			return true
		}
	}
	return false
}

// privateByFrontMatter reports whether a note's front matter makes it
// private. Front matter that cannot be read (bad YAML, no closing fence)
// but names either key is taken as private: the author meant something by
// it, and publishing a note that asked not to be is the mistake that
// cannot be undone.
func privateByFrontMatter(file, content string) bool {
	if !strings.HasPrefix(content, "---") {
		return false
	}
	fm, diags := markdown.ReadFrontMatter(file, content)
	if fm.Present && len(diags) == 0 {
		return fm.Private || fm.Publish != nil && !*fm.Publish
	}
	return namesPrivacyKey(content)
}

// namesPrivacyKey reports whether a front matter block that could not be
// decoded has a "private:" or "publish:" line before its closing fence (or
// within its first lines, when it has none).
func namesPrivacyKey(content string) bool {
	lines := mdline.Split(content)
	end := mdline.FrontMatterEnd(lines)
	if end == 0 {
		end = min(len(lines), maxUnclosedFrontMatter)
	}
	for _, l := range lines[1:end] {
		k, _, ok := strings.Cut(strings.TrimSpace(l), ":")
		if !ok {
			continue
		}
		if k = strings.ToLower(strings.Trim(k, `"' `)); k == "private" || k == "publish" {
			return true
		}
	}
	return false
}

// maxUnclosedFrontMatter is how many lines of a front matter block without
// a closing fence are read for a privacy key.
const maxUnclosedFrontMatter = 50

// Unpublished reports whether the workspace path p is kept out of what is
// published: a private file this read left out, or a path the privacy
// rule makes private whatever it holds (a file yet to be written in a
// private folder).
func (w *Workspace) Unpublished(p string) bool {
	return w.Withholds(p) || privateByPath(w.Config.Private, cleanRel(p))
}
