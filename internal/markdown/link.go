package markdown

import (
	"bytes"
	"net/url"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
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

func (r *nodeRenderer) renderLink(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	st := stateOf(w)
	if !entering {
		if st == nil {
			_, _ = w.WriteString("</a>")
		} else {
			_, _ = w.WriteString(st.pop())
		}
		return ast.WalkContinue, nil
	}
	if l := st.link(n); l != nil {
		t := st.resolve(l)
		switch {
		case t.Plain:
			st.push("")
		case isBroken(t):
			writeBroken(w, l, "")
			st.push("</span>")
		default:
			_, _ = w.WriteString(`<a class="internal" href="`)
			writeEscaped(w, st.href(t))
			_, _ = w.WriteString(`" data-path="`)
			writeEscaped(w, t.Path)
			_ = w.WriteByte('"')
			writeTitle(w, n.Title)
			_ = w.WriteByte('>')
			st.push("</a>")
		}
		return ast.WalkContinue, nil
	}
	dest := linkDestination(n.Destination)
	_, _ = w.WriteString("<a ")
	if hasScheme(string(dest)) && !isDangerousURL(string(dest)) {
		_, _ = w.WriteString(`class="external" `)
	}
	_, _ = w.WriteString(`href="`)
	writeURL(w, dest)
	_ = w.WriteByte('"')
	writeTitle(w, n.Title)
	_ = w.WriteByte('>')
	if st != nil {
		st.push("</a>")
	}
	return ast.WalkContinue, nil
}

// writeURL writes a destination (already unescaped, see linkDestination)
// as an attribute value: unsafe schemes become "#", the rest is
// percent-escaped as goldmark does and then HTML-escaped.
func writeURL(w util.BufWriter, dest []byte) {
	if isDangerousURL(string(dest)) {
		_ = w.WriteByte('#')
		return
	}
	html.DefaultWriter.RawWrite(w, util.URLEscape(dest, false))
}

func writeTitle(w util.BufWriter, title []byte) {
	if len(title) == 0 {
		return
	}
	_, _ = w.WriteString(` title="`)
	html.DefaultWriter.Write(w, title)
	_ = w.WriteByte('"')
}

// writeBroken opens the span a broken link renders as; text follows.
func writeBroken(w util.BufWriter, l *Link, what string) {
	_, _ = w.WriteString(`<span class="broken-link" title="`)
	switch {
	case what != "":
		writeEscaped(w, what)
	case l.Target == "":
		writeEscaped(w, "No heading “"+l.Fragment+"” in this note")
	case l.Embed && isAttachment(l.Target):
		writeEscaped(w, "No file named “"+l.Target+"”")
	default:
		writeEscaped(w, "No note named “"+l.Target+"”")
	}
	_, _ = w.WriteString(`">`)
}

func (r *nodeRenderer) renderImage(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	st := stateOf(w)
	alt := inlineText(n, source)
	var src string
	if l := st.link(n); l != nil {
		t := st.resolve(l)
		switch {
		case t.Plain:
			writeEscaped(w, alt)
			return ast.WalkSkipChildren, nil
		case isBroken(t):
			writeBroken(w, l, "No file named “"+l.Target+"”")
			writeEscaped(w, alt)
			_, _ = w.WriteString("</span>")
			return ast.WalkSkipChildren, nil
		}
		src = st.href(t)
	} else {
		dest := linkDestination(n.Destination)
		if isDangerousURL(string(dest)) {
			writeEscaped(w, alt)
			return ast.WalkSkipChildren, nil
		}
		src = string(util.URLEscape(dest, false))
	}
	_, _ = w.WriteString(`<img src="`)
	writeEscaped(w, src)
	_, _ = w.WriteString(`" alt="`)
	writeEscaped(w, alt)
	_ = w.WriteByte('"')
	writeTitle(w, n.Title)
	_, _ = w.WriteString(` loading="lazy">`)
	return ast.WalkSkipChildren, nil
}

func (r *nodeRenderer) renderAutoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	url := n.URL(source)
	label := n.Label(source)
	if n.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(url), []byte("mailto:")) {
		url = append([]byte("mailto:"), url...)
	}
	if isDangerousURL(string(url)) {
		_, _ = w.WriteString(`<a href="#">`)
	} else {
		_, _ = w.WriteString(`<a class="external" href="`)
		writeURL(w, url)
		_, _ = w.WriteString(`">`)
	}
	html.DefaultWriter.RawWrite(w, label)
	_, _ = w.WriteString("</a>")
	return ast.WalkSkipChildren, nil
}
