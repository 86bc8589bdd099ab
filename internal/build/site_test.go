package build

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every HTML page of the demo has the whole frame: stylesheet and script,
// header, explorer, one main landmark and exactly one h1, whichever folder
// it is in (tag pages live in folders that hold no notes).
func TestBuild_EveryPageHasTheWholeFrame(t *testing.T) {
	_, out := buildInto(t, Options{Demo: true})
	site := filepath.Join(out, "site")
	h1 := regexp.MustCompile(`<h1[ >]`)
	pages := 0
	err := filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		pages++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		page := string(data)
		rel, _ := filepath.Rel(site, p)
		for _, want := range []string{`<html lang="`, `rel="stylesheet" href="`, `<script defer src="`, `<header class="site-header">`,
			`<nav class="explorer"`, `<main id="content">`, `<footer class="site-footer">`, `name="viewport"`} {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %s", rel, want)
			}
		}
		if n := len(h1.FindAllString(page, -1)); n != 1 {
			t.Errorf("%s has %d h1 elements, want 1", rel, n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < 300 {
		t.Errorf("only %d pages", pages)
	}
}
