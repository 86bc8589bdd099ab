package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dreamwiki/dreamwiki/internal/demo"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
)

// testServer is a server running in-process on a random loopback port.
type testServer struct {
	*Server
	dir    string
	base   string // http://127.0.0.1:port
	client *http.Client
}

// demoWorkspace copies the demo into a temporary folder, with a note of
// our own to edit.
func demoWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, demo.FS()); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "notes/today.md", "# Today\n\nThe first version of this note.\n")
	return dir
}

func writeFile(t *testing.T, dir, p, text string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// smallWorkspace is a workspace that builds in a blink, for the tests
// that need no dream.
func smallWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for p, text := range map[string]string{
		"MEMORY.md":              "# Memory\n\n## Hosts\n- Gateway host is the Mac mini. Source: memory/2026-10-29.md#L3-L3\n- See [[gateway]] and [[today]].\n",
		"memory/2026-10-29.md":   "# 2026-10-29\n\n- The gateway host is the Mac mini now.\n- Backups run at 02:00.\n",
		"memory/2026-10-30.md":   "# 2026-10-30\n\n- Sam asked about the gateway uptime.\n",
		"memory/gateway.md":      "# Gateway\n\n## Hardware\n\n- A Mac mini on the LAN, 10.0.0.12.\n",
		"notes/today.md":         "# Today\n\nThe first version of this note.\n",
		"notes/gift-ideas.md":    "---\npublish: false\n---\n# Gift ideas\n\n- A brush pen set.\n",
		"notes/assets/small.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>`,
	} {
		writeFile(t, dir, p, text)
	}
	return dir
}

// start serves dir until the test ends, then checks that shutting down
// left no goroutine behind.
func start(t *testing.T, dir string, opts Options) *testServer {
	t.Helper()
	before := runtime.NumGoroutine()
	opts.Workspace = dir
	if opts.Debounce == 0 {
		opts.Debounce = 20 * time.Millisecond
	}
	if opts.FinishAfter == 0 {
		opts.FinishAfter = 50 * time.Millisecond
	}
	s, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	ts := &testServer{Server: s, dir: dir, base: "http://" + ln.Addr().String(),
		client: &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}}
	t.Cleanup(func() {
		// A connection the client dialled but never used (the MCP client's
		// stream, cancelled as it closed) is new to the server, and
		// Shutdown waits five seconds for new connections: close it first.
		ts.client.CloseIdleConnections()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		ts.client.CloseIdleConnections()
		noLeak(t, before)
	})
	return ts
}

// noLeak waits for the goroutines a test started to end.
func noLeak(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Errorf("%d goroutines before the server, %d after it stopped:\n%s", before, runtime.NumGoroutine(), buf[:n])
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (ts *testServer) get(t *testing.T, path string) (int, string, http.Header) {
	t.Helper()
	res, err := ts.client.Get(ts.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

// raw sends a request line as written, so that no client cleans the path.
func (ts *testServer) raw(t *testing.T, method, target string, header map[string]string) int {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(ts.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	host := strings.TrimPrefix(ts.base, "http://")
	fmt.Fprintf(c, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, target, host)
	for k, v := range header {
		fmt.Fprintf(c, "%s: %s\r\n", k, v)
	}
	fmt.Fprint(c, "\r\n")
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	res.Body.Close()
	return res.StatusCode
}

func (ts *testServer) post(t *testing.T, path string, header map[string]string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, ts.base+path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := ts.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	// Read to the end: a long answer is chunked, and its last chunk is sent
	// once the handler has returned (a dream's lock released).
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode, out
}

// dial opens the websocket as a page of the server would.
func (ts *testServer) dial(t *testing.T) *websocket.Conn {
	t.Helper()
	c, hello := dialWS(t, ts.base)
	if hello.Type != "hello" {
		t.Fatalf("first message %+v; want hello", hello)
	}
	return c
}

// dialWS opens the websocket of the server at base, as its pages do, and
// reads the first message; the test closes it.
func dialWS(t *testing.T, base string) (*websocket.Conn, Message) {
	t.Helper()
	c, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(base, "http")+"/_dreamwiki/ws", http.Header{"Origin": {base}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	t.Cleanup(func() { c.Close() })
	var hello Message
	if err := c.ReadJSON(&hello); err != nil {
		t.Fatal(err)
	}
	return c, hello
}

// await reads messages until one satisfies ok.
func await(t *testing.T, c *websocket.Conn, what string, ok func(Message) bool) Message {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	defer c.SetReadDeadline(time.Time{})
	for {
		var m Message
		if err := c.ReadJSON(&m); err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok(m) {
			return m
		}
	}
}

func has(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func TestServe_PagesAreTheBuiltSiteWithServeMode(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{})
	code, body, h := ts.get(t, "/")
	if code != 200 || !strings.Contains(h.Get("Content-Type"), "text/html") {
		t.Fatalf("GET / = %d %s", code, h.Get("Content-Type"))
	}
	for _, want := range []string{`data-api="1"`, `data-serve="1"`, `data-token="` + ts.Token() + `"`, `/_dreamwiki/client.js`, `/_dreamwiki/client.css`} {
		if !strings.Contains(body, want) {
			t.Errorf("the home page lacks %s", want)
		}
	}
	code, body, _ = ts.get(t, "/notes/today.html")
	if code != 200 || !strings.Contains(body, "The first version of this note.") {
		t.Fatalf("GET /notes/today.html = %d", code)
	}
	if code, body, _ = ts.get(t, "/notes/today.md"); code != 200 || strings.Contains(body, "client.js") {
		t.Errorf("a Markdown twin is served as built (code %d)", code)
	}
	if code, _, _ = ts.get(t, "/notes/"); code != 200 {
		t.Errorf("GET /notes/ = %d", code)
	}
	if code, body, _ = ts.get(t, "/api/pages.json"); code != 200 || !strings.Contains(body, `"pages"`) {
		t.Errorf("GET /api/pages.json (a file of the site) = %d", code)
	}
	if code, _, _ = ts.get(t, "/_dreamwiki/client.js"); code != 200 {
		t.Errorf("GET client.js = %d", code)
	}
	code, body, _ = ts.get(t, "/no/such/page.html")
	if code != 404 || !strings.Contains(body, "Not found") {
		t.Errorf("GET a missing page = %d, want 404 with the site's 404 page", code)
	}
}

func TestServe_TraversalAndHiddenFilesAre404(t *testing.T) {
	dir := smallWorkspace(t)
	writeFile(t, dir, ".git/config", "[core]\n")
	outside := filepath.Join(t.TempDir(), "secret.md")
	writeFile(t, filepath.Dir(outside), "secret.md", "# Secret\n\nNot in the workspace.\n")
	if err := os.Symlink(outside, filepath.Join(dir, "notes", "secret.md")); err != nil {
		t.Fatal(err)
	}
	ts := start(t, dir, Options{})
	for _, target := range []string{
		"/../../../../etc/passwd",
		"/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
		"/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
		"/notes/..%2f..%2fMEMORY.md",
		"/notes/..%5c..%5cMEMORY.md",
		"/..\\..\\etc\\passwd",
		"//etc/passwd",
		"/etc/passwd",
		"/.git/config",
		"/memory/.dreams/events.jsonl",
		"/MEMORY.md",
		"/index.html~",
		"/index.html.bak",
		"/notes/today.md%00.html",
		"/api/../index.html",
		"/_dreamwiki/../index.html",
		"/notes/secret.html", // a symbolic link out of the workspace
		"/notes/secret.md",
	} {
		if code := ts.raw(t, "GET", target, nil); code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", target, code)
		}
	}
	for _, target := range []string{"../MEMORY.md", "/etc/passwd", "notes/../../x", ".git/config", "notes/secret.md", outside} {
		if code, _, _ := ts.get(t, "/api/get?path="+target); code != http.StatusNotFound && code != http.StatusBadRequest {
			t.Errorf("GET /api/get?path=%s = %d, want 404 or 400", target, code)
		}
	}
}

func TestServe_RefusesForeignHostsAndOrigins(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{})
	if code := ts.raw(t, "GET", "/", map[string]string{"Host": "evil.example"}); code == 200 {
		t.Error("a request for another host name was answered (DNS rebinding)")
	}
	h := http.Header{"Origin": {"http://evil.example"}}
	_, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(ts.base, "http")+"/_dreamwiki/ws", h)
	if err == nil || res == nil || res.StatusCode != http.StatusForbidden {
		t.Errorf("a websocket from a foreign Origin was not refused with 403 (%v)", err)
	}
	if res != nil {
		res.Body.Close()
	}
}

func TestServe_EditReloadsThePage(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{})
	ws := ts.dial(t)
	writeFile(t, ts.dir, "notes/today.md", "# Today\n\nThe second version of this note.\n")
	await(t, ws, "a reload of notes/today.html", func(m Message) bool {
		return m.Type == "reload" && has(m.Paths, "notes/today.html")
	})
	if _, body, _ := ts.get(t, "/notes/today.html"); !strings.Contains(body, "The second version") {
		t.Error("the page does not show the edit")
	}
	// Editors save in other ways too.
	tmp := filepath.Join(ts.dir, "notes", "today.md.tmp")
	if err := os.WriteFile(tmp, []byte("# Today\n\nThe third version, renamed into place.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(ts.dir, "notes", "today.md")); err != nil {
		t.Fatal(err)
	}
	await(t, ws, "a reload after a rename", func(m Message) bool { return m.Type == "reload" && has(m.Paths, "notes/today.html") })
	if _, body, _ := ts.get(t, "/notes/today.html"); !strings.Contains(body, "The third version") {
		t.Error("the page does not show the renamed-in edit")
	}
	// Delete then create: the page stays, with the new text.
	if err := os.Remove(filepath.Join(ts.dir, "notes", "today.md")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, ts.dir, "notes/today.md", "# Today\n\nThe fourth version, deleted and written again.\n")
	await(t, ws, "a reload after delete and create", func(m Message) bool { return m.Type == "reload" && has(m.Paths, "notes/today.html") })
	if code, body, _ := ts.get(t, "/notes/today.html"); code != 200 || !strings.Contains(body, "The fourth version") {
		t.Errorf("after delete and create: %d, the page does not show the new text", code)
	}
	// A new folder with a note in it.
	writeFile(t, ts.dir, "notes/new/idea.md", "# Idea\n\nFresh.\n")
	await(t, ws, "the new note", func(m Message) bool { return m.Type == "reload" && has(m.Paths, "notes/new/idea.html") })
}

func TestServe_BrokenFrontMatterShowsAnErrorUntilFixed(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{})
	ws := ts.dial(t)
	writeFile(t, ts.dir, "notes/today.md", "---\ntitle: [unclosed\n---\n# Today\n")
	m := await(t, ws, "an error", func(m Message) bool { return m.Type == "error" })
	if len(m.Problems) == 0 || m.Problems[0].File != "notes/today.md" || m.Problems[0].Line == 0 || m.Problems[0].Message == "" {
		t.Fatalf("problems = %+v, want notes/today.md with a line and a message", m.Problems)
	}
	// A page opened now hears about it at once.
	late := ts.dial2(t)
	if len(late.Problems) == 0 {
		t.Error("a page connecting while the build is broken is not told")
	}
	writeFile(t, ts.dir, "notes/today.md", "---\ntitle: Today\n---\n# Today\n")
	await(t, ws, "the clear", func(m Message) bool { return m.Type == "clear" })
}

// dial2 connects and returns the hello message.
func (ts *testServer) dial2(t *testing.T) Message {
	t.Helper()
	c, hello := dialWS(t, ts.base)
	c.Close()
	return hello
}

func TestServe_DreamNeedsTheTokenAndTheOrigin(t *testing.T) {
	ts := start(t, demoWorkspace(t), Options{})
	same := ts.base
	if code, _ := ts.post(t, "/api/dream?dry_run=1", map[string]string{"Origin": same}); code != http.StatusForbidden {
		t.Errorf("without the token: %d, want 403", code)
	}
	if code, _ := ts.post(t, "/api/dream?dry_run=1", map[string]string{TokenHeader: "nope", "Origin": same}); code != http.StatusForbidden {
		t.Errorf("with a wrong token: %d, want 403", code)
	}
	if code, _ := ts.post(t, "/api/dream?dry_run=1", map[string]string{TokenHeader: ts.Token(), "Origin": "http://evil.example"}); code != http.StatusForbidden {
		t.Errorf("from a foreign Origin: %d, want 403", code)
	}
	code, plan := ts.post(t, "/api/dream?dry_run=1&force=1", map[string]string{TokenHeader: ts.Token(), "Origin": same})
	if code != http.StatusOK || plan["id"] == "" || plan["plan"] == nil {
		t.Fatalf("with the token: %d %v, want a plan", code, plan)
	}
	p := plan["plan"].(map[string]any)
	if _, ok := p["gates"]; !ok {
		t.Errorf("the plan has no gates: %v", p)
	}
	// A second press while a dream runs is refused.
	ts.dreaming.Lock()
	code, msg := ts.post(t, "/api/dream?dry_run=1", map[string]string{TokenHeader: ts.Token(), "Origin": same})
	ts.dreaming.Unlock()
	if code != http.StatusConflict || !strings.Contains(fmt.Sprint(msg["error"]), "already running") {
		t.Errorf("a second dream: %d %v, want 409 saying one is running", code, msg)
	}
	// GET is not a way in.
	if code, _, _ := ts.get(t, "/api/dream?dry_run=1"); code != http.StatusMethodNotAllowed && code != http.StatusNotFound {
		t.Errorf("GET /api/dream = %d", code)
	}
}

func TestServe_DreamAppliesAndRebuilds(t *testing.T) {
	// The site-wide work that follows an edit waits for an hour: the
	// answer to a dream comes once everything shows it, the journal it
	// links to included.
	ts := start(t, demoWorkspace(t), Options{FinishAfter: time.Hour})
	ws := ts.dial(t)
	hdr := map[string]string{TokenHeader: ts.Token(), "Origin": ts.base}
	code, plan := ts.post(t, "/api/dream?dry_run=1&force=1", hdr)
	if code != http.StatusOK {
		t.Fatalf("plan: %d %v", code, plan)
	}
	code, res := ts.post(t, "/api/dream?force=1&plan="+plan["id"].(string), hdr)
	if code != http.StatusOK || res["applied"] != true {
		t.Fatalf("apply: %d %v", code, res)
	}
	notes, _ := res["notes"].([]any)
	if len(notes) == 0 {
		t.Fatalf("the answer links no new dream note: %v", res)
	}
	url := notes[0].(map[string]any)["url"].(string)
	if code, _, _ := ts.get(t, "/"+url); code != 200 {
		t.Errorf("the new dream note %s is not served (%d)", url, code)
	}
	// The journal (dreams/journal.html) links each run's page.
	journal := res["journal"].(string)
	if _, body, _ := ts.get(t, "/"+journal); !strings.Contains(body, `href="../`+url+`"`) {
		t.Errorf("the dream journal does not link the new dream %s", url)
	}
	await(t, ws, "the dream's progress", func(m Message) bool { return m.Type == "dream" && m.Stage == "backup" })
	await(t, ws, "the dream's end", func(m Message) bool { return m.Type == "dreamed" && m.Dream != nil && m.Dream.Applied })
}

func TestServe_ReadOnlyRefusesDreams(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{ReadOnly: true})
	code, _ := ts.post(t, "/api/dream?dry_run=1", map[string]string{TokenHeader: ts.Token(), "Origin": ts.base})
	if code != http.StatusForbidden {
		t.Errorf("a dream with --read-only: %d, want 403", code)
	}
	if _, body, _ := ts.get(t, "/"); !strings.Contains(body, `data-readonly="1"`) {
		t.Error("pages do not know the server is read-only")
	}
}

func TestServe_SearchAndGet(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{ReadOnly: true})
	code, body, _ := ts.get(t, "/api/search?q=gateway&n=3")
	for deadline := time.Now().Add(30 * time.Second); code == http.StatusServiceUnavailable && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond) // the index is built in the background
		code, body, _ = ts.get(t, "/api/search?q=gateway&n=3")
	}
	if code != 200 {
		t.Fatalf("search: %d %s", code, body)
	}
	var res struct {
		Results []struct {
			Path      string `json:"path"`
			StartLine int    `json:"startLine"`
			EndLine   int    `json:"endLine"`
			Citation  string `json:"citation"`
			Snippet   string `json:"snippet"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(body), &res); err != nil || len(res.Results) == 0 || len(res.Results) > 3 {
		t.Fatalf("search answer %s (%v)", body, err)
	}
	r := res.Results[0]
	if r.Path == "" || r.StartLine == 0 || !strings.HasPrefix(r.Citation, r.Path) {
		t.Errorf("result %+v lacks a citation", r)
	}
	code, body, _ = ts.get(t, fmt.Sprintf("/api/get?path=%s&from=%d&lines=2", r.Path, r.StartLine))
	var got memsearch.GetResult
	if code != 200 || json.Unmarshal([]byte(body), &got) != nil || got.StartLine != r.StartLine || got.Text == "" {
		t.Errorf("get: %d %s", code, body)
	}
	if code, _, _ := ts.get(t, "/api/get?path=notes/gift-ideas.md"); code != http.StatusNotFound {
		t.Errorf("get of an unpublished note: %d, want 404", code)
	}
	if code, _, _ := ts.get(t, "/api/search"); code != http.StatusBadRequest {
		t.Errorf("search without q: %d, want 400", code)
	}
}

// A secret typed into the search box is redacted before the query is
// handed to the recall log (memory/.dreams/), which is written to disk.
func TestServe_SearchLogsItsQueryRedacted(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{recallSettle: time.Hour})
	token := "ghp_" + strings.Repeat("Ab3dE", 7) + "x"
	q := "/api/search?q=" + url.QueryEscape("gateway "+token)
	ts.searchReady(t)
	code, body, _ := ts.getWith(t, q, map[string]string{TokenHeader: ts.Token()})
	if code != 200 || !strings.Contains(body, "gateway") {
		t.Fatalf("search: %d %s", code, body)
	}
	ts.recalls.mu.Lock()
	defer ts.recalls.mu.Unlock()
	if len(ts.recalls.queue) != 1 {
		t.Fatalf("want the query queued for the recall log once, got %d", len(ts.recalls.queue))
	}
	if got := ts.recalls.queue[0].query; strings.Contains(got, token) || !strings.Contains(got, "[REDACTED:github-token]") {
		t.Errorf("the recall log is handed %q", got)
	}
}

// TestServe_ErrorStaysWhileProvenanceCatchesUp breaks a daily log, which
// provenance reads: the page goes live first, provenance follows, and the
// overlay must stay until the file is fixed.
func TestServe_ErrorStaysWhileProvenanceCatchesUp(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{})
	ws := ts.dial(t)
	writeFile(t, ts.dir, "memory/2026-10-30.md", "---\ntitle: [unclosed\n---\n# 2026-10-30\n\n- Sam asked about the gateway uptime.\n")
	await(t, ws, "an error", func(m Message) bool { return m.Type == "error" })
	_ = ws.SetReadDeadline(time.Now().Add(3 * time.Second))
	for {
		var m Message
		if err := ws.ReadJSON(&m); err != nil {
			break // quiet for 3 s: good
		}
		if m.Type == "clear" {
			t.Fatal("the overlay was cleared while the file is still broken")
		}
	}
	_ = ws.Close()
	ws = ts.dial(t)
	writeFile(t, ts.dir, "memory/2026-10-30.md", "# 2026-10-30\n\n- Sam asked about the gateway uptime.\n")
	await(t, ws, "the clear", func(m Message) bool { return m.Type == "clear" })
}

func TestServe_SearchesAreLoggedAsRecalls(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{recallSettle: 50 * time.Millisecond})
	deadline := time.Now().Add(30 * time.Second)
	ts.searchReady(t)
	if code, _, _ := ts.getWith(t, "/api/search?q=gateway+uptime", map[string]string{TokenHeader: ts.Token()}); code != 200 {
		t.Fatalf("search: %d", code)
	}
	events := filepath.Join(ts.dir, "memory", ".dreams", "events.jsonl")
	for {
		b, _ := os.ReadFile(events)
		if strings.Contains(string(b), "memory.recall.recorded") && strings.Contains(string(b), "gateway uptime") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no recall event in %s:\n%s", events, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestServe_OnlyStylesheetsChangedSwapsThemInPlace(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{})
	ws := ts.dial(t)
	ts.announce([]string{"assets/style.abc.css"})
	if m := await(t, ws, "a message", func(Message) bool { return true }); m.Type != "css" {
		t.Errorf("only a stylesheet changed: %q, want css", m.Type)
	}
	ts.announce([]string{"assets/style.abc.css", "notes/today.html"})
	if m := await(t, ws, "a message", func(Message) bool { return true }); m.Type != "reload" {
		t.Errorf("a page changed too: %q, want reload", m.Type)
	}
}
