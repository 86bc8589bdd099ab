package build

import (
	"html"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	hrefRe = regexp.MustCompile(`\s(?:href|src)="([^"]*)"`)
	idRe   = regexp.MustCompile(`\sid="([^"]*)"`)
)

// checkLinks walks every HTML page under dir and reports every relative
// link whose file is missing or whose #fragment names no id in it.
func checkLinks(t *testing.T, dir string) (pages int) {
	t.Helper()
	ids := map[string]map[string]bool{}
	idsOf := func(file string) map[string]bool {
		if m, ok := ids[file]; ok {
			return m
		}
		m := map[string]bool{}
		if data, err := os.ReadFile(file); err == nil {
			for _, g := range idRe.FindAllStringSubmatch(string(data), -1) {
				m[html.UnescapeString(g[1])] = true
			}
		}
		ids[file] = m
		return m
	}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		pages++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "404.html" {
			return nil // served at any depth; its links are relative to the root
		}
		for _, g := range hrefRe.FindAllStringSubmatch(string(data), -1) {
			raw := html.UnescapeString(g[1])
			if raw == "" || raw == "#" || strings.Contains(raw, "://") || strings.HasPrefix(raw, "mailto:") || strings.HasPrefix(raw, "data:") {
				continue
			}
			u, err := url.Parse(raw)
			if err != nil {
				t.Errorf("%s: unparseable link %q", rel, raw)
				continue
			}
			target := p
			if u.Path != "" {
				target = filepath.Join(filepath.Dir(p), filepath.FromSlash(u.Path))
			}
			if st, err := os.Stat(target); err != nil || st.IsDir() {
				t.Errorf("%s: link %q: no file %s", rel, raw, target)
				continue
			}
			if u.Fragment != "" && path.Ext(target) == ".html" && !idsOf(target)[u.Fragment] {
				t.Errorf("%s: link %q: no id %q in %s", rel, raw, u.Fragment, filepath.Base(target))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}
