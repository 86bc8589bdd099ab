package markdown

import (
	"net/url"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Markdown links and images: goldmark parses them; this file remembers
// where each one ends (goldmark records only where it starts) and decides
// which ones are local links that belong in Doc.Links.

var linkEndsKey = parser.NewContextKey()

// linkSpanParser wraps goldmark's link parser. When the inner parser
// returns a link or image, the reader sits just past its closing ')' or
// ']': that offset is the link's end.
type linkSpanParser struct {
	inner parser.InlineParser
}

func (p *linkSpanParser) Trigger() []byte { return p.inner.Trigger() }

func (p *linkSpanParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	n := p.inner.Parse(parent, block, pc)
	switch n.(type) {
	case *ast.Link, *ast.Image:
		_, pos := block.Position()
		ends, _ := pc.Get(linkEndsKey).(map[ast.Node]int)
		if ends == nil {
			ends = make(map[ast.Node]int)
			pc.Set(linkEndsKey, ends)
		}
		ends[n] = pos.Start
	}
	return n
}

// CloseBlock forwards to goldmark's link parser, which clears its state
// at the end of each block.
func (p *linkSpanParser) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	if cb, ok := p.inner.(parser.CloseBlocker); ok {
		cb.CloseBlock(parent, block, pc)
	}
}

// linkDestination is a Markdown link destination as the browser gets it:
// goldmark keeps destinations raw, with entities and backslash escapes,
// so "&#106;avascript:" must be decoded before anyone judges it.
func linkDestination(raw []byte) []byte {
	return unescapeText(raw)
}

// hasScheme reports whether dest starts with a URL scheme ("https:",
// "mailto:"), or is protocol-relative ("//host"). Like a browser, it
// ignores leading spaces and control characters and tabs or newlines
// anywhere, so "java\tscript:" counts as a scheme (and is then refused
// by isDangerousURL) rather than passing as a vault path.
func hasScheme(dest string) bool {
	n := 0
	for i := 0; i < len(dest); i++ {
		c := dest[i]
		switch {
		case c == '\t' || c == '\n' || c == '\r' || (n == 0 && c <= ' '):
			continue
		case c == '/' && n == 0:
			return i+1 < len(dest) && dest[i+1] == '/'
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case n > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case c == ':' && n > 1:
			// n > 1: "C:\\notes" is a Windows path, not a scheme.
			return true
		default:
			return false
		}
		n++
	}
	return false
}

// splitLocalDest splits a local Markdown link destination into a target
// path and a fragment, both percent-decoded ("my%20note.md#Some%20Heading").
// The split happens before decoding, so "C%23.md" names the file "C#.md".
func splitLocalDest(dest string) (target, fragment string) {
	target, fragment, _ = strings.Cut(dest, "#")
	return unescapePath(target), unescapePath(fragment)
}

func unescapePath(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// safeHref neutralises URLs that run code or smuggle content when
// followed: javascript:, vbscript:, data: and file:, in any letter case
// and with the whitespace and control characters browsers ignore inside
// a scheme. Entities and backslash escapes are already decoded by goldmark
// by the time a destination reaches us. Unsafe URLs become "#".
func safeHref(href string) string {
	if isDangerousURL(href) {
		return "#"
	}
	return href
}

func isDangerousURL(u string) bool {
	// Browsers strip leading C0 controls and spaces, and remove tabs and
	// newlines anywhere, before reading the scheme.
	var scheme [16]byte
	n := 0
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c <= ' ' {
			continue
		}
		if c == ':' {
			switch strings.ToLower(string(scheme[:n])) {
			case "javascript", "vbscript", "data", "file":
				return true
			}
			return false
		}
		if n == len(scheme) {
			return false
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			// Percent-encoding or other characters end the scheme: such a
			// URL is relative, and harmless.
			return false
		}
		scheme[n] = c
		n++
	}
	return false
}
