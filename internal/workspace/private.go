package workspace

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/diag"
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
//     Publish's key), or names either key in a way that is not plain
//     (privateByFrontMatter), or
//   - a path that reaches it is private: its real path with symbolic
//     links resolved, a link to it, a link on the way (classify).

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

// privateFiles are the files the candidates reach (by their paths in the
// file system, symbolic links resolved) that are private whatever they
// hold: a file is private when any path that reaches it is, be it its
// own, a link to it or a link on the way (privateByPath with the valid
// globs private). A file read through a link it is private by is
// reported at the public path without naming the private one.
func privateFiles(cands []candidate, private []string, diags *diag.List) map[string]bool {
	secret := map[string]bool{}
	for _, c := range cands {
		if privateByPath(private, c.path) || privateByPath(private, c.source) || slices.ContainsFunc(c.via, func(v string) bool {
			return privateByPath(private, v)
		}) {
			secret[c.source] = true
		}
	}
	for _, c := range cands {
		if !secret[c.source] || privateByPath(private, c.path) {
			continue
		}
		msg := "this symbolic link leads to a private file (or through a private path); it is kept private"
		if c.path == c.source && len(c.via) == 0 {
			msg = "a symbolic link at a private path leads to this file; it is kept private"
		}
		diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "symlink", File: c.path, Message: msg,
			Hint: "to publish it, remove the link or move the file out of the private place"})
	}
	return secret
}

// privateByFrontMatter reports whether a note's front matter makes it
// private, with a warning in diags wherever what it says is not plain.
// Only a Markdown note's YAML front matter is read, and there only a
// "private" or "publish" key written once with a plain true or false
// decides. Anything else that names either key errs private, because
// publishing a note that asked not to be is the mistake that cannot be
// undone: front matter that cannot be read (bad YAML, no closing fence),
// a key written twice, a value that is an alias, quoted, 1, yes or on,
// TOML front matter (+++), front matter in a .txt note.
func privateByFrontMatter(file, content string, diags *diag.List) bool {
	switch {
	case strings.HasPrefix(content, "+++"):
		return privacyKeyUnread(file, content, "+++", "TOML front matter (+++) is not read", diags)
	case !strings.HasPrefix(content, "---"):
		return false
	case !isMarkdown(file):
		return privacyKeyUnread(file, content, "---", "front matter is read only in Markdown notes (.md)", diags)
	}
	fm, bad := markdown.ReadFrontMatter(file, content)
	if !fm.Present || len(bad) > 0 {
		return privacyKeyUnread(file, content, "---", "the front matter cannot be read", diags)
	}
	private := false
	seen := map[string]int{}
	for _, k := range fm.Privacy {
		name := strings.ToLower(k.Key)
		on, off := "private: true", "private: false"
		if name == "publish" {
			on, off = "publish: false", "publish: true"
		}
		hint := fmt.Sprintf("write `%s` to keep it private, or `%s` to publish it", on, off)
		switch {
		case seen[name] > 0:
			private = true
			diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "private", File: file, Line: k.Line,
				Message: fmt.Sprintf("front matter says %s twice (lines %d and %d); the note was kept private", name, seen[name], k.Line),
				Hint:    "keep one: " + hint})
		case k.Bool == nil:
			private = true
			diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "private", File: file, Line: k.Line,
				Message: fmt.Sprintf("%s: %s is not a plain true or false; the note was kept private", k.Key, k.Value),
				Hint:    hint})
		case name == "private" && *k.Bool, name == "publish" && !*k.Bool:
			private = true
		}
		seen[name] = k.Line
	}
	return private
}

// privacyKeyUnread reports whether a front matter block the reader does
// not decode (why says why) names "private" or "publish" before its
// closing fence (or within its first lines, when it has none), and warns
// that the note was then kept private.
func privacyKeyUnread(file, content, fence, why string, diags *diag.List) bool {
	lines := mdline.Split(content)
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t") != fence {
		return false
	}
	end := min(len(lines), maxUnclosedFrontMatter)
	for i := 1; i < len(lines); i++ {
		if t := strings.TrimRight(lines[i], " \t"); t == fence || fence == "---" && t == "..." {
			end = i
			break
		}
	}
	for i, l := range lines[1:end] {
		k, _, ok := strings.Cut(strings.TrimSpace(l), ":")
		if eq, _, found := strings.Cut(strings.TrimSpace(l), "="); found && (!ok || len(eq) < len(k)) {
			k, ok = eq, true // TOML: private = true
		}
		if !ok {
			continue
		}
		if k = strings.ToLower(strings.Trim(k, `"' `)); k == "private" || k == "publish" {
			diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "private", File: file, Line: i + 2,
				Message: fmt.Sprintf("%s, and it names %s; the note was kept private", why, k),
				Hint:    "write YAML front matter between --- lines in a .md note: `private: true` to keep it private, or `private: false` to publish it"})
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
