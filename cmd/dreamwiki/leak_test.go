package main

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/rogpeppe/go-internal/txtar"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dreamwiki/dreamwiki/internal/server"
)

// TestLeak_NoPlantedSecretOrPrivateWordIsPublished is issue #13's
// acceptance test. It writes a workspace (testdata/leak/workspace.txtar)
// with credentials of every shape in testdata/leak/shapes.txtar planted
// in prose, lists, code blocks, tables, front matter, file names and the
// JSON state files, and private notes (by glob, folder and front matter)
// holding marker words. It builds it with `dreamwiki build`, searches it
// with `dreamwiki search` (which writes .dreamwiki/index), reads every
// file with `dreamwiki get`, and serves it in-process to fetch every page
// and the search and get APIs. Then it reads every byte and every file
// name of dist/, of .dreamwiki/ (and the terms and stored fields of the
// bleve index, which compresses what it stores), of the static search
// shards once inflated, and of every answer: no planted secret and no
// marker word may appear.
func TestLeak_NoPlantedSecretOrPrivateWordIsPublished(t *testing.T) {
	if testing.Short() {
		t.Skip("builds, searches and serves a workspace")
	}
	shapes := readShapes(t)
	ws, markers, files := plantWorkspace(t, shapes)
	sc := newLeakScanner(shapes, markers)
	sc.selfTest(t, ws)

	dist := filepath.Join(t.TempDir(), "dist")
	var answers []answer
	answers = append(answers, mustRun(t, "build", ws, "--out", dist, "--json"))
	queries := leakQueries(shapes, markers)
	for i, q := range queries {
		a := runCLI(q, "search", "-w", ws, "--json", "-n", "20", q)
		a.name = fmt.Sprintf("dreamwiki search (query %d)", i)
		answers = append(answers, a)
	}
	for _, p := range files {
		answers = append(answers, runCLI(p, "get", "-w", ws, "--json", p))
	}
	answers = append(answers, serveAnswers(t, ws, dist, files, queries)...)

	sc.tree(t, "dist", dist)
	sc.tree(t, ".dreamwiki", filepath.Join(ws, ".dreamwiki"))
	sc.bleve(t, filepath.Join(ws, ".dreamwiki", "index", "bleve"))
	for _, a := range answers {
		sc.scan(a.name, a.body)
	}
	t.Logf("%d answers: the build report, %d CLI searches, %d CLI gets, %d served pages, API and MCP calls",
		len(answers), len(queries), len(files), len(answers)-1-len(queries)-len(files))
	sc.report(t)
}

// shape is one planted credential shape: its text, with each secret value
// rendered, and the values.
type shape struct {
	id, context string
	pending     bool // the detector does not catch it yet: reported, not failed
	text        string
	values      []string
	// random are the random parts of the values, whose ten-character
	// windows are what the scanner looks for (see leakScanner).
	random []string
}

// readShapes reads and renders testdata/leak/shapes.txtar.
func readShapes(t *testing.T) []*shape {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("testdata", "leak", "shapes.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var out []*shape
	contexts := map[string]bool{}
	for _, f := range a.Files {
		fields := strings.Fields(f.Name)
		if len(fields) < 2 {
			t.Fatalf("shape %q: want \"ID CONTEXT\"", f.Name)
		}
		s := &shape{id: fields[0], context: fields[1], pending: len(fields) > 2 && fields[2] == "pending"}
		s.render(t, strings.TrimSuffix(string(f.Data), "\n"))
		out = append(out, s)
		contexts[s.context] = true
	}
	if len(out) < 40 {
		t.Errorf("only %d shapes; the test plants at least 40", len(out))
	}
	for _, c := range []string{"prose", "list", "code", "table", "frontmatter", "filename", "json", "svg", "symlink"} {
		if !contexts[c] {
			t.Errorf("no shape is written as %s", c)
		}
	}
	return out
}

// classes are the character classes of the {cN} generators.
var classes = map[byte]string{
	'a': "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	'A': "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
	'l': "abcdefghijklmnopqrstuvwxyz0123456789",
	'u': "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
	'd': "0123456789",
	'h': "0123456789abcdef",
	'b': "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
	'x': "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
	'w': "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
	'q': "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
}

// render fills in the shape's generators, with a generator seeded by its
// id, and records its secret values.
func (s *shape) render(t *testing.T, tmpl string) {
	h := fnv.New64a()
	h.Write([]byte(s.id))
	rng := rand.New(rand.NewPCG(h.Sum64(), 13))
	var text, value strings.Builder
	in := false
	for i := 0; i < len(tmpl); {
		switch {
		case strings.HasPrefix(tmpl[i:], "«"):
			in = true
			value.Reset()
			i += len("«")
			continue
		case strings.HasPrefix(tmpl[i:], "»"):
			in = false
			s.values = append(s.values, value.String())
			i += len("»")
			continue
		}
		piece := tmpl[i : i+1]
		if tmpl[i] == '{' && in {
			end := strings.IndexByte(tmpl[i:], '}')
			var n int
			chars, ok := classes[tmpl[i+1]]
			if _, err := fmt.Sscanf(tmpl[i+2:i+end], "%d", &n); end < 0 || !ok || err != nil {
				t.Fatalf("shape %s: bad generator at %q", s.id, tmpl[i:])
			}
			b := make([]byte, n)
			for j := range b {
				b[j] = chars[rng.IntN(len(chars))]
			}
			piece = string(b)
			s.random = append(s.random, piece)
			i += end + 1
		} else {
			i++
		}
		text.WriteString(piece)
		if in {
			value.WriteString(piece)
		}
	}
	if in || len(s.values) == 0 {
		t.Fatalf("shape %s: want «…» around each secret", s.id)
	}
	s.text = text.String()
}

// plantWorkspace writes testdata/leak/workspace.txtar into a folder with
// every shape planted where it names it, and returns the folder, the
// marker words and the workspace paths written (as on disk).
func plantWorkspace(t *testing.T, shapes []*shape) (dir string, markers []string, files []string) {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("testdata", "leak", "workspace.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(a.Comment), "\n") {
		if rest, ok := strings.CutPrefix(l, "markers:"); ok {
			markers = strings.Fields(rest)
		}
	}
	if len(markers) < 3 {
		t.Fatal("workspace.txtar names fewer than three marker words")
	}
	used := map[string]int{}
	plant := func(s string, json bool) string {
		for _, sh := range shapes {
			ph := "{{" + sh.id + "}}"
			if !strings.Contains(s, ph) {
				continue
			}
			used[sh.id] += strings.Count(s, ph)
			text := sh.text
			if json {
				text = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(text)
			}
			s = strings.ReplaceAll(s, ph, text)
		}
		return s
	}
	dir = t.TempDir()
	// A "symlink" shape is the target of a link that leaves the
	// workspace: the walk does not follow it, and says so in the report.
	outside := t.TempDir()
	for _, sh := range shapes {
		if sh.context != "symlink" {
			continue
		}
		target := filepath.Join(outside, sh.text, "notes.md")
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, []byte("# Outside\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(dir, "notes", sh.id+".md")); err != nil {
			t.Skipf("symbolic links: %v", err)
		}
		used[sh.id]++
	}
	for _, f := range a.Files {
		name := plant(f.Name, false)
		data := plant(string(f.Data), strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl"))
		if strings.Contains(name+data, "{{") {
			t.Fatalf("%s: a placeholder names no shape", f.Name)
		}
		full := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	for _, sh := range shapes {
		if used[sh.id] != 1 {
			t.Errorf("shape %s is planted %d times, want once", sh.id, used[sh.id])
		}
	}
	return dir, markers, files
}

// answer is what a command or a request returned.
type answer struct {
	name string
	body []byte
}

// withoutInput is an answer without the caller's own words in it: an
// error that repeats the path asked for ("notes/ghp_….md: no such
// published file") tells the caller nothing it did not send.
func withoutInput(name string, body []byte, input string) answer {
	return answer{name: name, body: bytes.ReplaceAll(body, []byte(input), nil)}
}

// runCLI runs dreamwiki in-process; its output, errors included, is an
// answer to scan, without input (see withoutInput).
func runCLI(input string, args ...string) answer {
	var out bytes.Buffer
	code := run(args, &out, &out)
	return withoutInput(fmt.Sprintf("dreamwiki %s %s (exit %d)", args[0], input, code), out.Bytes(), input)
}

func mustRun(t *testing.T, args ...string) answer {
	t.Helper()
	var out, errs bytes.Buffer
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("dreamwiki %s: exit %d\n%s", strings.Join(args, " "), code, errs.String())
	}
	return answer{name: "dreamwiki " + args[0] + " (report)", body: append(out.Bytes(), errs.Bytes()...)}
}

// leakQueries are searches that would find the planted lines: the words
// around them, the marker words and every secret value itself.
func leakQueries(shapes []*shape, markers []string) []string {
	qs := []string{"token", "key", "password", "stripe", "aws", "physio", "journal", "gifts", "secret"}
	qs = append(qs, markers...)
	for _, s := range shapes {
		qs = append(qs, s.values[0])
	}
	return qs
}

// serveAnswers serves the workspace in-process (read-only) and fetches
// every page the build wrote, the status, and the search and get APIs
// for every query and every file.
func serveAnswers(t *testing.T, ws, dist string, files, queries []string) []answer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s, err := server.New(ctx, server.Options{Workspace: ws, ReadOnly: true, Debounce: 20 * time.Millisecond, FinishAfter: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	client := &http.Client{Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	base := "http://" + ln.Addr().String()
	get := func(p, input string) answer {
		resp, err := client.Get(base + p)
		if err != nil {
			t.Fatalf("GET %s: %v", p, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return withoutInput("serve GET "+p, b, input)
	}
	// The search index is built in the background.
	for deadline := time.Now().Add(60 * time.Second); ; {
		resp, err := client.Get(base + "/api/search?q=token")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	var out []answer
	for i, q := range queries {
		a := get("/api/search?n=50&q="+url.QueryEscape(q), q)
		a.name = fmt.Sprintf("serve GET /api/search (query %d)", i)
		out = append(out, a)
	}
	for _, p := range append(files, "notes/redacted-github-token.md", "memory/health/knee.md#L1-L20") {
		a := get("/api/get?path="+url.QueryEscape(p), p)
		a.name = "serve GET /api/get?path=" + p
		out = append(out, a)
	}
	out = append(out, get("/", ""), get("/_dreamwiki/status", ""))
	out = append(out, mcpAnswers(t, base+"/mcp", files, queries)...)
	site := filepath.Join(dist, "site")
	err = filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(site, p)
		out = append(out, get("/"+(&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath(), ""))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// mcpAnswers asks the MCP tools at endpoint what an agent would: every
// query through memory_search and memory_why, every file through
// memory_get, what changed since long ago, a dream plan, and every
// resource.
func mcpAnswers(t *testing.T, endpoint string, files, queries []string) []answer {
	t.Helper()
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "leak-test", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var out []answer
	call := func(tool string, args map[string]any, input string) {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		b, _ := json.Marshal(res)
		out = append(out, withoutInput("mcp "+tool+" "+input, b, input))
	}
	for _, q := range queries {
		call("memory_search", map[string]any{"query": q, "limit": 50}, q)
		call("memory_why", map[string]any{"claim": q}, q)
	}
	for _, p := range files {
		call("memory_get", map[string]any{"path": p}, p)
	}
	call("memory_changes", map[string]any{"since": "2000-01-01"}, "")
	call("dream_plan", map[string]any{"force": true}, "")
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: r.URI})
		if err != nil {
			t.Fatalf("%s: %v", r.URI, err)
		}
		b, _ := json.Marshal(struct {
			R *sdk.Resource
			C *sdk.ReadResourceResult
		}{r, res})
		out = append(out, answer{name: "mcp resource " + r.URI, body: b})
	}
	return out
}

// window is how many characters of a secret's random part the scanner
// looks for: short enough to catch a clipped title or excerpt that holds
// part of a secret, long enough that random text never matches by chance.
const window = 10

// leakScanner finds planted secrets and marker words in bytes, names and
// decoded forms. A secret is found by any ten-character window of its
// random parts, case-folded (slugs and search terms are lower case),
// which also finds it when HTML, JSON or URL escaping changed the
// characters around it.
type leakScanner struct {
	shapes  []*shape
	markers []string
	grams   map[string]*shape
	// exact are the values whose random parts are too short for a window
	// (a phone number), looked for whole, case-folded.
	exact map[string]*shape
	hits  map[string]map[string]bool // what (shape id or marker) -> where
	files int
	bytes int64
}

func newLeakScanner(shapes []*shape, markers []string) *leakScanner {
	sc := &leakScanner{shapes: shapes, markers: markers, grams: map[string]*shape{}, exact: map[string]*shape{}, hits: map[string]map[string]bool{}}
	for _, s := range shapes {
		n := 0
		for _, r := range s.random {
			r = strings.ToLower(r)
			for i := 0; i+window <= len(r); i++ {
				if g := r[i : i+window]; strings.IndexFunc(g, isLetter) >= 0 && strings.Trim(g, "0123456789abcdefghijklmnopqrstuvwxyz") == "" {
					sc.grams[g] = s
					n++
				}
			}
		}
		if n == 0 {
			for _, v := range s.values {
				sc.exact[strings.ToLower(v)] = s
			}
		}
	}
	return sc
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' }

// selfTest checks the scanner on the workspace itself: every shape and
// every marker must be found there, or the test proves nothing.
func (sc *leakScanner) selfTest(t *testing.T, ws string) {
	t.Helper()
	probe := &leakScanner{shapes: sc.shapes, markers: sc.markers, grams: sc.grams, exact: sc.exact, hits: map[string]map[string]bool{}}
	probe.tree(t, "workspace", ws)
	for _, s := range sc.shapes {
		if len(probe.hits[s.id]) == 0 {
			t.Fatalf("shape %s is not found in the workspace it was planted in", s.id)
		}
	}
	for _, m := range sc.markers {
		if len(probe.hits[m]) == 0 {
			t.Fatalf("marker %q is in no file of the workspace", m)
		}
	}
}

// tree scans every file under root: its name, its bytes and what they
// decode to.
func (sc *leakScanner) tree(t *testing.T, label, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		name := label + "/" + filepath.ToSlash(rel)
		sc.scan(name+" (its name)", []byte(filepath.ToSlash(rel)))
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			sc.scan(name+" (its target)", []byte(target))
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sc.files++
		sc.bytes += int64(len(b))
		sc.scan(name, b)
		for i, v := range decoded(b) {
			sc.scan(fmt.Sprintf("%s (decoded %d)", name, i+1), v)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("reading %s: %v", root, err)
	}
}

// decoded is what a file holds under its encodings: the static search
// index's files (a codec byte, then raw DEFLATE) and their file://
// script twins (base64 of the same), gzip and raw DEFLATE streams.
func decoded(b []byte) [][]byte {
	var out [][]byte
	inflate := func(r io.Reader) []byte {
		v, err := io.ReadAll(io.LimitReader(r, 64<<20))
		if err != nil {
			return nil
		}
		return v
	}
	envelope := func(b []byte) []byte {
		if len(b) > 1 && b[0] == 1 {
			return inflate(flate.NewReader(bytes.NewReader(b[1:])))
		}
		return nil
	}
	if v := envelope(b); v != nil {
		out = append(out, v)
	}
	if len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b {
		if r, err := gzip.NewReader(bytes.NewReader(b)); err == nil {
			out = append(out, inflate(r))
		}
	}
	// __dreamwikiSearch("name","<base64>");
	if rest, ok := bytes.CutPrefix(b, []byte(`__dreamwikiSearch("`)); ok {
		if parts := bytes.Split(rest, []byte(`"`)); len(parts) >= 3 {
			if raw, err := base64.StdEncoding.DecodeString(string(parts[2])); err == nil {
				out = append(out, raw)
				if v := envelope(raw); v != nil {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// bleve adds the terms and stored fields of the bleve index at dir: its
// segment files compress what they store, so their bytes alone prove
// nothing.
func (sc *leakScanner) bleve(t *testing.T, dir string) {
	t.Helper()
	ix, err := bleve.OpenUsing(dir, map[string]interface{}{"read_only": true})
	if err != nil {
		t.Fatalf("opening the search index: %v", err)
	}
	defer ix.Close()
	fields, err := ix.Fields()
	if err != nil {
		t.Fatal(err)
	}
	var terms bytes.Buffer
	for _, f := range fields {
		d, err := ix.FieldDict(f)
		if err != nil {
			t.Fatal(err)
		}
		for e, err := d.Next(); e != nil && err == nil; e, err = d.Next() {
			terms.WriteString(e.Term + "\n")
		}
		d.Close()
	}
	sc.scan(".dreamwiki/index (terms)", terms.Bytes())
	n, err := ix.DocCount()
	if err != nil || n == 0 {
		t.Fatalf("the search index has %d documents (%v)", n, err)
	}
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), int(n), 0, false)
	req.Fields = []string{"*"}
	res, err := ix.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	var stored bytes.Buffer
	for _, h := range res.Hits {
		fmt.Fprintf(&stored, "%s %v\n", h.ID, h.Fields)
	}
	sc.scan(".dreamwiki/index (stored fields)", stored.Bytes())
}

// scan records every shape and marker found in b.
func (sc *leakScanner) scan(where string, b []byte) {
	s := strings.ToLower(string(b))
	for i := 0; i+window <= len(s); i++ {
		if sh := sc.grams[s[i:i+window]]; sh != nil {
			sc.hit(sh.id, where)
		}
	}
	for _, m := range sc.markers {
		if strings.Contains(s, m) {
			sc.hit(m, where)
		}
	}
	for v, sh := range sc.exact {
		if strings.Contains(s, v) {
			sc.hit(sh.id, where)
		}
	}
}

func (sc *leakScanner) hit(what, where string) {
	if sc.hits[what] == nil {
		sc.hits[what] = map[string]bool{}
	}
	sc.hits[what][where] = true
}

// report fails the test for each shape or marker found, naming where.
func (sc *leakScanner) report(t *testing.T) {
	t.Helper()
	pending := 0
	for _, s := range sc.shapes {
		where := slices.Sorted(maps.Keys(sc.hits[s.id]))
		switch {
		case s.pending && len(where) == 0:
			t.Errorf("shape %s (%s) is marked pending but no longer leaks: remove the mark in shapes.txtar", s.id, s.context)
		case s.pending:
			pending++
			t.Logf("pending (the secret detector misses it): shape %s (%s) in %d places, e.g. %s", s.id, s.context, len(where), where[0])
		case len(where) > 0:
			t.Errorf("shape %s (%s) is published in %d places: %s", s.id, s.context, len(where), clipList(where))
		}
	}
	for _, m := range sc.markers {
		if where := slices.Sorted(maps.Keys(sc.hits[m])); len(where) > 0 {
			t.Errorf("private marker %q is published in %d places: %s", m, len(where), clipList(where))
		}
	}
	t.Logf("scanned %d files (%d bytes) and every answer for %d shapes (%d pending) and %d private markers",
		sc.files, sc.bytes, len(sc.shapes), pending, len(sc.markers))
}

func clipList(ss []string) string {
	if len(ss) > 8 {
		return strings.Join(ss[:8], ", ") + fmt.Sprintf(", … (%d more)", len(ss)-8)
	}
	return strings.Join(ss, ", ")
}

// teamPeer is the second workspace of the team leak test. Its private
// note is private only by the team's [[workspace]] entry, not by its own
// dreamwiki.toml; it holds the marker quaggleflint, a value that would
// disagree with Wren's public gateway address, and a link back.
const teamPeer = `
-- MEMORY.md --
# MEMORY.md — Finch

## Hosts
- mac-mini — 10.0.0.12, gateway.
- The gateway host is in [[a:infra]]; Finch's own notes are in [[field-notes]].
-- notes/field-notes.md --
# Field notes

Public notes of the second agent.
-- secret/quaggleflint.md --
# Quaggleflint

- mac-mini — 10.9.9.9, gateway. quaggleflint
- See [[a:infra]] and [[field-notes]].
`

// TestLeak_TeamSiteKeepsEachWorkspacesPrivateNotes extends the leak test
// to a team site (issue 20): the planted workspace and a second one whose
// private glob is the team's own, built into one site with `dreamwiki
// build` on a team dreamwiki.toml and checked with `dreamwiki check`. No
// secret and no marker word may reach any file of dist/ (the team search
// index's shards once inflated, the disagreements report, each
// workspace's vault), nor either report; the public link from one
// workspace to the other must resolve.
func TestLeak_TeamSiteKeepsEachWorkspacesPrivateNotes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a team site of two workspaces")
	}
	shapes := readShapes(t)
	ws, markers, _ := plantWorkspace(t, shapes)
	team := t.TempDir()
	if err := os.Rename(ws, filepath.Join(team, "a")); err != nil {
		t.Fatal(err)
	}
	if err := txtar.Write(txtar.Parse([]byte(teamPeer)), filepath.Join(team, "b")); err != nil {
		t.Fatal(err)
	}
	config := "title = \"Team\"\n[[workspace]]\npath = \"a\"\n[[workspace]]\nname = \"b\"\npath = \"b\"\nprivate = [\"secret/**\"]\n"
	if err := os.WriteFile(filepath.Join(team, "dreamwiki.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	markers = append(markers, "quaggleflint", "10.9.9.9")
	sc := newLeakScanner(shapes, markers)
	sc.selfTest(t, team)

	dist := filepath.Join(t.TempDir(), "dist")
	answers := []answer{mustRun(t, "build", team, "--out", dist, "--json")}
	answers = append(answers, runCLI(team, "check", team, "--json"))
	sc.tree(t, "dist", dist)
	for _, a := range answers {
		sc.scan(a.name, a.body)
	}
	sc.report(t)
	home, err := os.ReadFile(filepath.Join(dist, "site", "b", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(home, []byte(`href="../a/topics/infra.html"`)) {
		t.Errorf("b's home does not link a's infra page")
	}
}

// personalWorkspace holds personal data in a published note, and things
// shaped like it that are not (a date, a version, an order number, a
// hash).
const personalWorkspace = `
-- MEMORY.md --
# MEMORY.md

- Noor's mobile is +32 470 55 01 23; her mail is noor.haddad@fastmail.fm.
- 联系人：王小明 13912345678
- The workshop is at 742 Evergreen Terrace, Springfield.
- Version 1.13.2 shipped on 2026-05-01 08:12:40; order 13812345678; commit 3f2a9c7e1b3d4f6a8c0e2b4d6f8a1c3e.
`

// TestCheck_ReportsPersonalDataAndTheSettingThatRedactsIt is issue #22's
// finding 12: check lists the phone numbers, e-mail and street addresses
// a published note holds (count and file:line, nothing shaped like one
// that is not), a build says so in one line naming the setting, and with
// [publish] redact_personal = true no output holds them.
func TestCheck_ReportsPersonalDataAndTheSettingThatRedactsIt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a workspace")
	}
	ws := t.TempDir()
	if err := txtar.Write(txtar.Parse([]byte(personalWorkspace)), ws); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if code := run([]string{"check", ws}, &out, &out); code != 0 {
		t.Fatalf("check: exit %d\n%s", code, out.String())
	}
	for _, want := range []string{
		"  personal data: 2 phone numbers, 1 e-mail address and 1 street address are published; set [publish] redact_personal = true in dreamwiki.toml to redact them\n",
		"    MEMORY.md:3:20: phone number published\n",
		"    MEMORY.md:3:50: e-mail address published\n",
		"    MEMORY.md:4:11: phone number published\n",
		"    MEMORY.md:5:22: street address published\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("check does not say %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "    MEMORY.md:6:") {
		t.Errorf("check reports a date, a version, an order or a hash as personal data:\n%s", out.String())
	}

	dist := filepath.Join(t.TempDir(), "dist")
	out.Reset()
	if code := run([]string{"build", ws, "--out", dist}, &out, &out); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, out.String())
	}
	if n := strings.Count(out.String(), "personal data:"); n != 1 || strings.Contains(out.String(), "phone number published") {
		t.Errorf("the build should say so in one line, it said:\n%s", out.String())
	}

	values := []string{"+32 470 55 01 23", "noor.haddad@fastmail.fm", "13912345678", "742 Evergreen Terrace"}
	if err := os.WriteFile(filepath.Join(ws, "dreamwiki.toml"), []byte("[publish]\nredact_personal = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"build", ws, "--out", dist, "--json"}, &out, &out); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, out.String())
	}
	var r struct {
		Personal struct {
			Phones, Emails, Addresses int
			Redacted                  bool
		}
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || !r.Personal.Redacted || r.Personal.Phones != 2 {
		t.Errorf("the report's personal data: %+v (%v)\n%s", r.Personal, err, out.String())
	}
	err := filepath.WalkDir(dist, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		for _, v := range values {
			if bytes.Contains(b, []byte(v)) || strings.Contains(p, v) {
				t.Errorf("%s holds %q", p, v)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
