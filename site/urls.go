package site

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode"

	"github.com/dreamwiki/dreamwiki/vault"
)

// slug makes one path segment safe for URLs and every file system:
// lower-case, spaces to '-', "&" to "and", URL-reserved and control
// characters dropped. Letters of every script are kept.
func slug(seg string) string {
	var b strings.Builder
	dash := false
	emit := func(s string) {
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteString(s)
	}
	for _, r := range seg {
		switch {
		case r == '&':
			dash = true
			emit("and")
			dash = true
		case r == '.' || r == '_':
			emit(string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			emit(string(unicode.ToLower(r)))
		default:
			// Spaces, punctuation and symbols separate words.
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-.")
	if s == "" {
		return "untitled"
	}
	return s
}

// slugPath slugs every segment of a slash path.
func slugPath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = slug(s)
	}
	return strings.Join(segs, "/")
}

// urlsFor assigns every published note its page path ("topics/gateway.html"),
// keeping them unique after slugging; collided reports whether some note
// did not get its own base + ".html" (a slug another note, or a page of
// the site, already had). bases, when not nil, keeps each vault path's
// slugged base between calls (serve mode makes the URLs again whenever
// notes come or go).
func urlsFor(notes []*vault.Note, bases map[string]string) (urls map[*vault.Note]string, collided bool) {
	out := make(map[*vault.Note]string, len(notes))
	taken := make(map[string]bool, len(reserved))
	for p := range reserved {
		taken[p] = true
	}
	for _, n := range notes {
		base := urlBase(n, bases)
		u := base + ".html"
		for i := 2; taken[u]; i++ {
			u = base + "-" + strconv.Itoa(i) + ".html"
			collided = true
		}
		taken[u] = true
		out[n] = u
	}
	return out, collided
}

// PageURLs are the pages of v's notes as a site of v gives them
// ("topics/gateway.html"), by vault path: a team site gives them to each
// workspace's site for links into v's (Team.Peers).
func PageURLs(v *vault.Vault) map[string]string {
	urls, _ := urlsFor(v.Notes, nil)
	out := make(map[string]string, len(urls))
	for n, u := range urls {
		out[n.Path] = u
	}
	return out
}

// reserved are the pages of the site no note may take.
var reserved = map[string]bool{"404.html": true, "search.html": true, foldersPage: true}

// urlBase is a note's URL without ".html", before urlsFor makes it unique;
// bases (see urlsFor) may be nil.
func urlBase(n *vault.Note, bases map[string]string) string {
	if n.Kind == vault.KindIndex && n.Path == "index.md" {
		return "index"
	}
	if b, ok := bases[n.Path]; ok {
		return b
	}
	b := slugPath(strings.TrimSuffix(n.Path, path.Ext(n.Path)))
	if bases != nil {
		bases[n.Path] = b
	}
	return b
}

// rootPrefix is the relative path from a page back to the site root.
func rootPrefix(page string) string {
	return strings.Repeat("../", strings.Count(page, "/"))
}

// rel returns the URL of target (a root-relative path) as seen from page.
func rel(page, target string) string {
	return rootPrefix(page) + escapePath(target)
}

// escapePath percent-escapes what must be escaped in a URL path while
// keeping letters of every script readable. Most paths need nothing
// escaped and are returned as they are: every link of every page goes
// through here.
func escapePath(p string) string {
	i := 0
	for i < len(p) && pathSafe(p[i]) {
		i++
	}
	if i == len(p) {
		return p
	}
	var b strings.Builder
	b.Grow(len(p) + 8)
	b.WriteString(p[:i])
	for ; i < len(p); i++ {
		if c := p[i]; pathSafe(c) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// pathSafe tells whether a byte stands for itself in a URL path (bytes
// of multi-byte letters included).
func pathSafe(c byte) bool {
	return c >= 0x80 || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		strings.IndexByte("-._~/!$'()*,;=:@", c) >= 0
}

// twinPath is the Markdown twin of a page: x.html -> x.md.
func twinPath(page string) string { return strings.TrimSuffix(page, ".html") + ".md" }

// tagPage is the page of a tag; nested tags nest folders (a/b -> tags/a/b.html).
func tagPage(tag string) string { return "tags/" + slugPath(tag) + ".html" }
