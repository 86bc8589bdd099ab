package assets

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

func gzipSize(t *testing.T, data []byte) int {
	t.Helper()
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Len()
}

func file(t *testing.T, b Bundle, entry string) []byte {
	t.Helper()
	name, ok := b.Names[entry]
	if !ok {
		t.Fatalf("no bundle for %s; have %v", entry, b.Names)
	}
	for _, f := range b.Files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("bundle %s missing from Files", name)
	return nil
}

// The JavaScript every content page loads stays under 40 KB gzipped; the
// graph is a separate bundle loaded on demand and does not count.
func TestBundle_ContentPageJavaScriptIsUnder40KBGzipped(t *testing.T) {
	b, err := Build()
	if err != nil {
		t.Fatal(err)
	}
	const budget = 40 << 10
	total := 0
	for _, entry := range ContentPageScripts {
		total += gzipSize(t, file(t, b, entry))
	}
	t.Logf("content-page JavaScript: %d bytes gzipped (budget %d); graph: %d bytes gzipped", total, budget, gzipSize(t, file(t, b, "graph.ts")))
	if total > budget {
		t.Errorf("content-page JavaScript is %d bytes gzipped, over the %d budget", total, budget)
	}
}

func TestBundle_NamesAreContentHashedAndStable(t *testing.T) {
	a, err := bundle()
	if err != nil {
		t.Fatal(err)
	}
	b, err := bundle()
	if err != nil {
		t.Fatal(err)
	}
	for entry, name := range a.Names {
		if b.Names[entry] != name {
			t.Errorf("%s bundled as %s then %s", entry, name, b.Names[entry])
		}
		if !strings.Contains(name, ".") || strings.Count(name, ".") < 2 {
			t.Errorf("%s: name %s has no hash", entry, name)
		}
	}
}

func TestBundle_StylesheetCarriesCodeHighlightingForBothThemes(t *testing.T) {
	b, err := Build()
	if err != nil {
		t.Fatal(err)
	}
	css := string(file(t, b, "style.css"))
	for _, want := range []string{".chroma .kd", "[data-theme=dark] .chroma", "prefers-color-scheme:dark", ".callout[data-callout=warning]", "@media print"} {
		if !strings.Contains(css, want) {
			t.Errorf("style bundle lacks %q", want)
		}
	}
	if strings.Contains(css, "@import") {
		t.Errorf("style bundle still has an @import: every part must be inlined")
	}
}

func TestBundle_ScriptsImportNothingFromOutside(t *testing.T) {
	b, err := Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range b.Files {
		if strings.HasSuffix(f.Name, ".js") && (bytes.Contains(f.Data, []byte("https://")) || bytes.Contains(f.Data, []byte("http://"))) {
			t.Errorf("%s mentions an absolute URL; the site uses no CDN", f.Name)
		}
	}
}
