package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/output"
)

// TestStatic_PagesReloadWhenABuildChangesThem serves a site built from a
// folder, as team serve does: an edit rebuilds it and reloads the pages
// it changed, a build that fails shows its error on open pages (the last
// good site still served), and the next good build clears it.
func TestStatic_PagesReloadWhenABuildChangesThem(t *testing.T) {
	dir := t.TempDir()
	note := filepath.Join(dir, "note.md")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(note, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("first words")
	build := func(context.Context) (*output.Memory, error) {
		b, err := os.ReadFile(note)
		if err != nil {
			return nil, err
		}
		if strings.Contains(string(b), "BROKEN") {
			return nil, errors.New("note.md:1: a broken note")
		}
		m := output.NewMemory()
		err = errors.Join(
			m.WriteFile("index.html", []byte("<html><head></head><body><p>"+string(b)+"</p></body></html>")),
			m.WriteFile("other.html", []byte("<html><head></head><body>unchanged</body></html>")))
		return m, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s, err := NewStatic(ctx, []string{dir}, build, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	base := "http://" + ln.Addr().String()
	get := func(p string) string {
		t.Helper()
		res, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	page := get("/")
	if !strings.Contains(page, `<script src="/_dreamwiki/client.js" defer></script>`) || !strings.Contains(page, `data-dream="0"`) || strings.Contains(page, "data-api") {
		t.Fatalf("the page has no live-reload client, or offers dreams or a search API:\n%s", page)
	}
	if js := get("/_dreamwiki/client.js"); !strings.Contains(js, "_dreamwiki/ws") {
		t.Errorf("the client script is not served")
	}
	ws, hello := dialWS(t, base)
	if hello.Type != "hello" || hello.Problems != nil {
		t.Fatalf("first message %+v; want a hello without problems", hello)
	}

	write("second words")
	m := await(t, ws, "a reload", func(m Message) bool { return m.Type == "reload" })
	if strings.Join(m.Paths, " ") != "index.html" {
		t.Errorf("reload of %v; want only the page that changed", m.Paths)
	}
	if !strings.Contains(get("/"), "second words") {
		t.Error("the reloaded page is not the new build's")
	}

	write("BROKEN words")
	m = await(t, ws, "the build's error", func(m Message) bool { return m.Type == "error" })
	if len(m.Problems) != 1 || !strings.Contains(m.Problems[0].Message, "note.md:1") {
		t.Errorf("error message %+v; want the build's error", m)
	}
	if !strings.Contains(get("/"), "second words") {
		t.Error("a failed build did not leave the last site served")
	}
	if _, hello := dialWS(t, base); len(hello.Problems) != 1 {
		t.Errorf("a page opened while the build is broken hears %+v; want its error", hello)
	}

	write("third words")
	await(t, ws, "the error cleared", func(m Message) bool { return m.Type == "clear" })
	await(t, ws, "a reload", func(m Message) bool { return m.Type == "reload" && has(m.Paths, "index.html") })
}
