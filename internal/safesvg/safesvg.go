// Package safesvg makes a workspace's SVG safe to publish on the site's
// own origin. An SVG shown with <img> never runs script, but one opened on
// its own (a link to it, its address typed) is a document of the site and
// runs its scripts as the site, and most static hosts (GitHub Pages,
// GitLab Pages) let no header sandbox it. So the site publishes what
// Clean keeps: what draws, never what acts.
//
// Clean keeps the elements of SVG that draw (shapes, paths, text,
// gradients, patterns, markers, masks, filters, style sheets, links and
// images) with their attributes, and drops: script and anything outside
// SVG's namespace (HTML inside foreignObject, an editor's metadata), event
// handler attributes, links and references to any URL but a fragment, a
// relative path, http(s), mailto or (for images) a raster data: URL,
// animations that set a link or a handler, processing instructions (an
// XSLT style sheet), comments and the DOCTYPE. It reads; it never writes.
package safesvg

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// Namespaces of SVG and the attributes Clean keeps.
const (
	svgNS   = "http://www.w3.org/2000/svg"
	xlinkNS = "http://www.w3.org/1999/xlink"
	xmlNS   = "http://www.w3.org/XML/1998/namespace"
)

// maxDepth bounds nesting, so that a hostile file cannot exhaust the stack
// of whatever reads the result.
const maxDepth = 256

// drawing are the SVG elements Clean keeps: SVG 1.1 and 2's structure,
// shapes, text, paint servers, clipping, masking, filters and
// animations. script, foreignObject, set (it sets any attribute, a link
// too) and the old font elements are not among them.
var drawing = map[string]bool{}

func init() {
	for _, name := range strings.Fields(`
		svg g defs symbol use switch view title desc a image style
		path rect circle ellipse line polyline polygon
		text tspan textPath
		linearGradient radialGradient stop pattern marker clipPath mask
		animate animateMotion animateTransform mpath
		filter feBlend feColorMatrix feComponentTransfer feComposite
		feConvolveMatrix feDiffuseLighting feDisplacementMap feDistantLight
		feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR feGaussianBlur
		feImage feMerge feMergeNode feMorphology feOffset fePointLight
		feSpecularLighting feSpotLight feTile feTurbulence`) {
		drawing[name] = true
	}
}

// Placeholder is what the site publishes in place of an SVG Clean could
// not read: a browser shows a file it cannot parse up to the error, and
// runs the scripts before it.
var Placeholder = []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="240" height="40" viewBox="0 0 240 40"><rect width="240" height="40" fill="#eee"/><text x="120" y="25" text-anchor="middle" font-family="sans-serif" font-size="12">This SVG could not be read.</text></svg>` + "\n")

// Clean returns the SVG in data with everything that could act removed
// (see the package comment). An SVG that is not well-formed XML, or whose
// root is not <svg>, is an error: the caller publishes Placeholder.
func Clean(data []byte) ([]byte, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.Entity = map[string]string{}
	var out bytes.Buffer
	depth := 0    // open elements written
	root := false // the root has been seen
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not well-formed XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			// A DOCTYPE: its internal entities (Illustrator declares the
			// namespaces it uses) are plain text, and are read as such.
			for _, m := range entityDecl.FindAllSubmatch(t, -1) {
				d.Entity[string(m[1])] = string(m[2]) + string(m[3]) // one is empty
			}
		case xml.StartElement:
			if root && depth == 0 {
				return nil, errors.New("more than one root element")
			}
			if !root && (t.Name.Local != "svg" || !inSVG(t.Name)) {
				return nil, fmt.Errorf("the root element is <%s>, not <svg>", t.Name.Local)
			}
			root = true
			if !keep(t) || depth >= maxDepth {
				if err := d.Skip(); err != nil {
					return nil, fmt.Errorf("not well-formed XML: %w", err)
				}
				continue
			}
			writeStart(&out, t, depth == 0)
			depth++
		case xml.EndElement:
			if depth == 0 {
				continue
			}
			depth--
			out.WriteString("</" + t.Name.Local + ">")
		case xml.CharData:
			if depth > 0 {
				_ = xml.EscapeText(&out, t)
			}
		}
		// Comments and processing instructions are dropped.
	}
	if !root {
		return nil, errors.New("no <svg> element")
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// entityDecl is an internal entity of plain text: <!ENTITY name "value">.
var entityDecl = regexp.MustCompile(`<!ENTITY\s+([A-Za-z_][\w.-]*)\s+(?:"([^"<&%]*)"|'([^'<&%]*)')\s*>`)

// inSVG reports whether an element is SVG's: in its namespace, or in none
// (a file that forgot xmlns).
func inSVG(n xml.Name) bool { return n.Space == svgNS || n.Space == "" }

// keep reports whether an element is written: one that draws, and no
// animation of a link or an event handler.
func keep(t xml.StartElement) bool {
	if !inSVG(t.Name) || !drawing[t.Name.Local] {
		return false
	}
	if strings.HasPrefix(t.Name.Local, "animate") {
		for _, a := range t.Attr {
			if a.Name.Local == "attributeName" {
				name := strings.ToLower(strings.TrimSpace(a.Value))
				if _, local, ok := strings.Cut(name, ":"); ok {
					name = local
				}
				if name == "href" || strings.HasPrefix(name, "on") {
					return false
				}
			}
		}
	}
	return true
}

// writeStart writes a start tag with the attributes that are kept, the
// root declaring the two namespaces written.
func writeStart(out *bytes.Buffer, t xml.StartElement, root bool) {
	out.WriteString("<" + t.Name.Local)
	if root {
		out.WriteString(` xmlns="` + svgNS + `" xmlns:xlink="` + xlinkNS + `"`)
	}
	for _, a := range t.Attr {
		name, ok := attrName(a.Name)
		if !ok {
			continue
		}
		if a.Name.Local == "href" && !safeURL(a.Value, t.Name.Local == "image" || t.Name.Local == "feImage") {
			continue
		}
		out.WriteString(" " + name + `="`)
		_ = xml.EscapeText(out, []byte(a.Value))
		out.WriteByte('"')
	}
	out.WriteByte('>')
}

// attrName is the name an attribute is written with, and whether it is
// kept: SVG's own attributes but event handlers (on...), xlink's, and
// xml:space and xml:lang;
// namespace declarations are the root's, and any other namespace's
// attributes are an editor's.
func attrName(n xml.Name) (string, bool) {
	switch n.Space {
	case "":
		if n.Local == "xmlns" || strings.HasPrefix(strings.ToLower(n.Local), "on") {
			return "", false
		}
		return n.Local, true
	case xlinkNS:
		return "xlink:" + n.Local, true
	case xmlNS:
		// Not xml:base, which would move where every link leads.
		return "xml:" + n.Local, n.Local == "space" || n.Local == "lang"
	}
	return "", false
}

// safeURL reports whether a link or reference may stay: a fragment, a
// relative path, http(s) or mailto, and for an image a raster data: URL.
// Browsers ignore tabs and newlines in a URL and spaces around it, so they
// are ignored here too ("java\tscript:").
func safeURL(v string, image bool) bool {
	u := strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return -1
		}
		return r
	}, v)
	u = strings.ToLower(u)
	end := strings.IndexAny(u, "/?#")
	if end < 0 {
		end = len(u)
	}
	scheme, _, hasScheme := strings.Cut(u[:end], ":")
	if !hasScheme {
		return true // a fragment or a relative path
	}
	switch scheme {
	case "http", "https", "mailto":
		return true
	case "data":
		if !image {
			return false
		}
		for _, t := range []string{"png", "jpeg", "jpg", "gif", "webp", "avif"} {
			if strings.HasPrefix(u, "data:image/"+t+";") || strings.HasPrefix(u, "data:image/"+t+",") {
				return true
			}
		}
	}
	return false
}
