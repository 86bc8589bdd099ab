package server

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue #22, findings 4 and 5: what a workspace's files and other sites'
// pages can make the server do. Only the server's own pages, holding its
// token, change anything; a file of the workspace opened from the wiki's
// address runs no script as the wiki.

// getWith sends a GET with extra headers, as a browser or an agent would.
func (ts *testServer) getWith(t *testing.T, path string, header map[string]string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, ts.base+path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := ts.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

// searchReady waits for the search index, asking as a page of the server
// would not (no token): such a request logs nothing.
func (ts *testServer) searchReady(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		code, body, _ := ts.getWith(t, "/api/search?q=zzzznothing", map[string]string{"Origin": "http://evil.example"})
		if code == http.StatusOK {
			return
		}
		if code != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("search: %d %s", code, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestServe_SearchFromAnotherSiteAnswersButWritesNothing(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{recallSettle: 20 * time.Millisecond})
	ts.searchReady(t)
	for name, h := range map[string]map[string]string{
		"a fetch from another site":                 {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
		"a foreign Origin alone":                    {"Origin": "http://evil.example"},
		"an <img> or no-cors fetch of another site": {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"},
		"another port of this host":                 {"Sec-Fetch-Site": "same-site"},
		"the token from another site":               {TokenHeader: ts.Token(), "Origin": "http://evil.example"},
		"a program without the token":               {},
		"a wrong token":                             {TokenHeader: "0123"},
	} {
		code, body, _ := ts.getWith(t, "/api/search?q=gateway+uptime", h)
		if code != http.StatusOK || !strings.Contains(body, "gateway") {
			t.Errorf("%s: search answered %d %s; reading is allowed", name, code, body)
		}
	}
	ts.recalls.mu.Lock()
	queued := len(ts.recalls.queue)
	ts.recalls.mu.Unlock()
	if queued != 0 {
		t.Errorf("%d searches without the page's token were queued for the recall log", queued)
	}
	time.Sleep(300 * time.Millisecond) // well past recallSettle
	for _, p := range []string{"memory/.dreams/events.jsonl", "memory/.dreams/short-term-recall.json"} {
		if b, err := os.ReadFile(filepath.Join(ts.dir, p)); err == nil {
			t.Errorf("%s was written by searches from elsewhere:\n%s", p, b)
		}
	}
}

func TestServe_SearchWithThePagesTokenIsLoggedAsARecall(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{recallSettle: time.Hour})
	ts.searchReady(t)
	h := map[string]string{TokenHeader: ts.Token(), "Sec-Fetch-Site": "same-origin"}
	if code, body, _ := ts.getWith(t, "/api/search?q=gateway+uptime", h); code != http.StatusOK {
		t.Fatalf("search: %d %s", code, body)
	}
	ts.recalls.mu.Lock()
	defer ts.recalls.mu.Unlock()
	if len(ts.recalls.queue) != 1 {
		t.Errorf("want the query queued for the recall log once, got %d", len(ts.recalls.queue))
	}
}

func TestServe_DreamWithoutSameOriginProofIsRefused(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{})
	for name, h := range map[string]map[string]string{
		"a page of another site":             {TokenHeader: ts.Token(), "Origin": "http://evil.example"},
		"a sandboxed document (Origin null)": {TokenHeader: ts.Token(), "Origin": "null"},
		"a cross-site request":               {TokenHeader: ts.Token(), "Sec-Fetch-Site": "cross-site"},
		"another port of this host":          {TokenHeader: ts.Token(), "Sec-Fetch-Site": "same-site"},
		"no token":                           {"Origin": ts.base},
	} {
		if code, _ := ts.post(t, "/api/dream?dry_run=1", h); code != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", name, code)
		}
	}
	if code, body := ts.post(t, "/api/dream?dry_run=1", map[string]string{TokenHeader: ts.Token(), "Origin": ts.base, "Sec-Fetch-Site": "same-origin"}); code != http.StatusOK {
		t.Errorf("the server's own page: %d %v, want 200", code, body["error"])
	}
}

func TestServe_WorkspaceFilesRunNoScriptAsTheWiki(t *testing.T) {
	dir := smallWorkspace(t)
	writeFile(t, dir, "notes/diagram.svg", `<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/api/dream?force=1",{method:"POST"})</script></svg>`)
	writeFile(t, dir, "notes/page.html", `<html><body><script>alert(1)</script></body></html>`)
	writeFile(t, dir, "notes/drawing.md", "# Drawing\n\n![[diagram.svg]]\n\n[[page.html]]\n")
	ts := start(t, dir, Options{ReadOnly: true})
	code, body, h := ts.get(t, "/notes/diagram.svg")
	if code != http.StatusOK || !strings.Contains(body, "<svg") {
		t.Fatalf("the SVG: %d %s", code, body)
	}
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "sandbox") {
		t.Errorf("an SVG of the workspace is served with Content-Security-Policy %q; want sandbox", csp)
	}
	if h.Get("X-Content-Type-Options") != "nosniff" {
		t.Error("an SVG of the workspace is served without nosniff")
	}
	// A workspace's HTML is never published, so never a page of the site.
	if code, body, h := ts.get(t, "/notes/page.html"); code == http.StatusOK && !strings.Contains(h.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("a workspace's HTML file is served as a page of the wiki:\n%s", body)
	}
	// The site's own pages run the serve client.
	code, body, h = ts.get(t, "/notes/drawing.html")
	if code != http.StatusOK || strings.Contains(h.Get("Content-Security-Policy"), "sandbox") || !strings.Contains(body, "/_dreamwiki/client.js") {
		t.Errorf("the note's page: %d, Content-Security-Policy %q", code, h.Get("Content-Security-Policy"))
	}
}
