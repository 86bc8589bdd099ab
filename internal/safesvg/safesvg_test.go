package safesvg

import (
	"bytes"
	"encoding/xml"
	"os"
	"strings"
	"testing"
)

const open = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">`

// Each case is an SVG and what its cleaned form must not hold.
var acting = []struct{ name, in, gone string }{
	{"script", open + `<script>fetch("/api/dream")</script><rect/></svg>`, "fetch"},
	{"script in CDATA", open + `<script><![CDATA[ fetch("/") ]]></script></svg>`, "fetch"},
	{"an event handler", `<svg xmlns="http://www.w3.org/2000/svg" onload="fetch('/')"><rect/></svg>`, "fetch"},
	{"an event handler in capitals", open + `<rect ONCLICK="fetch('/')"/></svg>`, "fetch"},
	{"HTML in foreignObject", open + `<foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="fetch('/')"/></body></foreignObject></svg>`, "fetch"},
	{"HTML script by namespace", open + `<h:script xmlns:h="http://www.w3.org/1999/xhtml">fetch("/")</h:script></svg>`, "fetch"},
	{"a javascript: link", open + `<a href="javascript:fetch('/')"><text>x</text></a></svg>`, "javascript"},
	{"a javascript: link with a tab", open + `<a xlink:href="java&#9;script:fetch('/')"><text>x</text></a></svg>`, "fetch"},
	{"a javascript: link padded", open + `<a href="  JavaScript:fetch('/')"><text>x</text></a></svg>`, "fetch"},
	{"a data: document", open + `<a href="data:text/html,&lt;script&gt;fetch('/')&lt;/script&gt;"><text>x</text></a></svg>`, "fetch"},
	{"use of a data: SVG", open + `<use href="data:image/svg+xml,&lt;svg onload='fetch(1)'/&gt;"/></svg>`, "fetch"},
	{"set", open + `<a><set attributeName="href" to="javascript:fetch('/')"/><text>x</text></a></svg>`, "fetch"},
	{"animate a link", open + `<a><animate attributeName="xlink:href" values="javascript:fetch('/')"/><text>x</text></a></svg>`, "fetch"},
	{"animate a handler", open + `<rect><animate attributeName="onclick" to="fetch('/')"/></rect></svg>`, "fetch"},
	{"an XSLT style sheet", `<?xml-stylesheet type="text/xsl" href="evil.xsl"?>` + open + `<rect/></svg>`, "evil"},
	{"xml:base", open + `<a xml:base="javascript:fetch('/')//" href="#x"><text>x</text></a></svg>`, "fetch"},
	{"an iframe", open + `<iframe xmlns="http://www.w3.org/1999/xhtml" src="/"/></svg>`, "iframe"},
	{"a comment", open + `<!-- secret --><rect/></svg>`, "secret"},
}

func TestClean_DropsWhatActs(t *testing.T) {
	for _, c := range acting {
		out, err := Clean([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if strings.Contains(string(out), c.gone) {
			t.Errorf("%s: kept %q:\n%s", c.name, c.gone, out)
		}
		if !strings.Contains(string(out), "<svg") {
			t.Errorf("%s: the drawing is gone:\n%s", c.name, out)
		}
		assertInert(t, c.name, out)
	}
}

// The demo's diagram keeps every shape, text and marker.
func TestClean_KeepsTheDrawing(t *testing.T) {
	in, err := os.ReadFile("../demo/workspace/notes/assets/diagram.svg")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Clean(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`viewBox="0 0 600 220"`, `<marker id="arrow"`, `marker-end="url(#arrow)"`, `memory/&lt;topic&gt;.md`,
		"<title>Daily logs to topic files to MEMORY.md</title>", "raw, read-only → curated → always loaded"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("lost %q:\n%s", want, out)
		}
	}
	if n, m := strings.Count(string(in), "<text"), strings.Count(string(out), "<text"); n != m {
		t.Errorf("%d texts of %d kept", m, n)
	}
	again, err := Clean(out)
	if err != nil || !bytes.Equal(again, out) {
		t.Errorf("cleaning twice changes it (%v):\n%s\n%s", err, out, again)
	}
}

func TestClean_KeepsLinksThatOnlyLead(t *testing.T) {
	in := open + `<a href="https://example.org/"><text>web</text></a><a xlink:href="#part"><text>here</text></a>` +
		`<image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/><use xlink:href="#shape"/></svg>`
	out, err := Clean([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="https://example.org/"`, `xlink:href="#part"`, `href="data:image/png;base64,iVBORw0KGgo="`, `xlink:href="#shape"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("lost %s:\n%s", want, out)
		}
	}
}

// Illustrator declares its namespaces as entities in the DOCTYPE.
func TestClean_ReadsPlainEntities(t *testing.T) {
	in := `<!DOCTYPE svg [ <!ENTITY ns_svg "http://www.w3.org/2000/svg"> ]><svg xmlns="&ns_svg;"><rect width="3"/></svg>`
	out, err := Clean([]byte(in))
	if err != nil || !strings.Contains(string(out), `<rect width="3">`) {
		t.Errorf("%v:\n%s", err, out)
	}
}

func TestClean_RefusesWhatItCannotRead(t *testing.T) {
	for name, in := range map[string]string{
		"broken XML":              open + `<rect></svg>`,
		"an unknown entity":       open + `<text>&nbsp;</text></svg>`,
		"an HTML page":            `<html><body><script>fetch("/")</script></body></html>`,
		"an entity holding a tag": `<!DOCTYPE svg [ <!ENTITY x "<script>fetch(1)</script>"> ]>` + open + `&x;</svg>`,
		"empty":                   ``,
		"two roots":               open + `</svg><svg/>`,
	} {
		if out, err := Clean([]byte(in)); err == nil {
			t.Errorf("%s: cleaned to\n%s", name, out)
		}
	}
	assertInert(t, "Placeholder", Placeholder)
}

func FuzzClean(f *testing.F) {
	for _, c := range acting {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := Clean(in)
		if err != nil {
			return
		}
		assertInert(t, "fuzz", out)
		again, err := Clean(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Errorf("cleaning twice changes it (%v):\n%s\n%s", err, out, again)
		}
	})
}

// assertInert reads a cleaned SVG as a browser would and fails on
// anything that could act.
func assertInert(t *testing.T, name string, out []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(out))
	for {
		tok, err := d.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Errorf("%s: the result is not well-formed (%v):\n%s", name, err, out)
			}
			return
		}
		switch t2 := tok.(type) {
		case xml.StartElement:
			if t2.Name.Space != svgNS || !drawing[t2.Name.Local] {
				t.Errorf("%s: kept <%s:%s>", name, t2.Name.Space, t2.Name.Local)
			}
			for _, a := range t2.Attr {
				if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") || a.Name.Local == "href" && !safeURL(a.Value, true) || a.Name.Space == xmlNS && a.Name.Local == "base" {
					t.Errorf("%s: kept %s=%q", name, a.Name.Local, a.Value)
				}
			}
		case xml.ProcInst, xml.Directive:
			t.Errorf("%s: kept %v", name, t2)
		}
	}
}
