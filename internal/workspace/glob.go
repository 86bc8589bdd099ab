package workspace

import (
	"path"
	"strings"
)

// MatchGlob reports whether the workspace path p (forward slashes, no
// leading slash) matches the exclude glob pattern.
//
// The syntax is gitignore's, reduced to what exclude lists need:
//   - "*", "?" and "[...]" match within one path segment (path.Match);
//   - "**" as a whole segment matches zero or more segments;
//   - a pattern without a slash matches a file or folder of that name at
//     any depth ("*.tmp", "drafts");
//   - a pattern with a slash is anchored at the workspace root
//     ("memory/scratch/**", "/notes/old.md");
//   - a trailing slash is ignored ("drafts/" is "drafts").
//
// A pattern that names a folder excludes everything under it. A malformed
// pattern matches nothing (ValidGlob reports it).
func MatchGlob(pattern, p string) bool {
	pat, anchored := normGlob(pattern)
	if pat == "" {
		return false
	}
	ps := strings.Split(p, "/")
	segs := strings.Split(pat, "/")
	if !anchored {
		segs = append([]string{"**"}, segs...)
	}
	return matchSegs(segs, ps)
}

// ValidGlob reports whether pattern is well formed.
func ValidGlob(pattern string) bool {
	pat, _ := normGlob(pattern)
	for _, s := range strings.Split(pat, "/") {
		if s == "**" {
			continue
		}
		if _, err := path.Match(s, ""); err != nil {
			return false
		}
	}
	return true
}

func normGlob(pattern string) (pat string, anchored bool) {
	pat = strings.TrimSpace(pattern)
	pat = strings.TrimPrefix(pat, "./")
	if strings.HasPrefix(pat, "/") {
		anchored = true
		pat = strings.TrimLeft(pat, "/")
	}
	pat = strings.TrimRight(pat, "/")
	if strings.Contains(pat, "/") {
		anchored = true
	}
	return pat, anchored
}

// matchSegs matches pattern segments against path segments. A pattern that
// is exhausted while path segments remain still matches when the pattern
// named an ancestor folder: excluding a folder excludes its contents.
func matchSegs(segs, ps []string) bool {
	for len(segs) > 0 {
		s := segs[0]
		if s == "**" {
			rest := segs[1:]
			if len(rest) == 0 {
				return true
			}
			for i := 0; i <= len(ps); i++ {
				if matchSegs(rest, ps[i:]) {
					return true
				}
			}
			return false
		}
		if len(ps) == 0 {
			return false
		}
		if ok, err := path.Match(s, ps[0]); err != nil || !ok {
			return false
		}
		segs, ps = segs[1:], ps[1:]
	}
	return true
}
