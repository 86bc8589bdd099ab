// Command serve measures `dreamwiki serve` on a large workspace, in
// process: how long an edit takes to reach open pages, whether memory
// stays flat over hundreds of edits, and how the server holds up under
// load.
//
//	go run ./bench/serve -n 10000            # generates the workspace
//	go run ./bench/serve -ws /tmp/ws10k      # a workspace bench/gen wrote
//	go run ./bench/serve -demo               # a copy of the demo workspace
//
// Phases (each can be skipped with its flag set to 0):
//
//  1. latency: -edits edits of other notes, one at a time, a random
//     -gap-min..-gap-max apart (so the site-wide files, written after a
//     pause, are sometimes interrupted, as when a person saves now and
//     then); for each, the time from the write to the reload message for
//     the note's page on a websocket. Then -daily edits of daily logs,
//     which provenance reads (claims' evidence), and -topic edits of L2
//     topic files, each adding an entry (a new claim), alternated with
//     the daily-log edits so both are measured side by side. A topic
//     edit's page is reloaded before provenance runs, as a daily log's
//     is; the time until the page shows the new entry's claim is
//     reported too.
//  2. memory: the heap (after GC) and RSS once the first edit settled,
//     then again after -mem-edits more edits, settled.
//  3. load: -clients websockets open while -rate page GETs per second
//     run for -load, with an edit every 2 s so the websockets carry
//     messages; latency percentiles and errors.
//
// Measured on 2026-12-02 (2 cores, load under 1; -edits 0 -daily 20
// -topic 20 -mem-edits 0 -load 0, on a copy of a 10,000-note bench/gen
// workspace), median / p95: a topic-file edit reaches its page in
// 78 / 90 ms and its new entry's claim shows at 288 / 408 ms; a
// daily-log edit reaches its page in 90 / 122 ms. The server before
// topic edits were rendered ahead of provenance, run right after: topic
// edit (page and claim together) 262 / 404 ms, daily-log edit
// 97 / 111 ms. The demo: topic 57 / 75 ms, its claim 70 / 83 ms, daily
// log 55 / 59 ms.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dreamwiki/dreamwiki/internal/demo"
	"github.com/dreamwiki/dreamwiki/internal/server"
	"github.com/dreamwiki/dreamwiki/internal/synth"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

func main() {
	var (
		n        = flag.Int("n", 10000, "notes to generate when -ws is not given")
		wsDir    = flag.String("ws", "", "workspace folder (a copy is not made: edits are appended to its notes)")
		edits    = flag.Int("edits", 50, "edits timed in the latency phase")
		gapMin   = flag.Duration("gap-min", 300*time.Millisecond, "shortest pause between timed edits")
		gapMax   = flag.Duration("gap-max", 2*time.Second, "longest pause between timed edits")
		daily    = flag.Int("daily", 5, "daily-log edits timed after the others")
		topic    = flag.Int("topic", 5, "topic-file edits timed after the others, alternating with the daily-log edits")
		demoWS   = flag.Bool("demo", false, "serve a copy of the demo workspace (ignores -n and -ws)")
		memEdits = flag.Int("mem-edits", 500, "edits between the two memory readings")
		load     = flag.Duration("load", 30*time.Second, "length of the load phase")
		clients  = flag.Int("clients", 50, "websockets open during the load phase")
		rate     = flag.Int("rate", 200, "page GETs per second during the load phase")
		seed     = flag.Int64("seed", 1, "random seed")
		verbose  = flag.Bool("v", false, "print every edit and rebuild")
		cpuprof  = flag.String("cpuprofile", "", "write a CPU profile of the latency phases to this file")
	)
	flag.Parse()
	if err := run(benchOptions{*n, *wsDir, *demoWS, *edits, *gapMin, *gapMax, *daily, *topic, *memEdits, *load, *clients, *rate, *seed, *verbose, *cpuprof}); err != nil {
		fmt.Fprintln(os.Stderr, "bench/serve:", err)
		os.Exit(1)
	}
}

type benchOptions struct {
	n              int
	ws             string
	demo           bool
	edits          int
	gapMin, gapMax time.Duration
	daily, topic   int
	memEdits       int
	load           time.Duration
	clients, rate  int
	seed           int64
	verbose        bool
	cpuprofile     string
}

func run(o benchOptions) error {
	rng := rand.New(rand.NewSource(o.seed))
	dir := o.ws
	if o.demo {
		tmp, err := os.MkdirTemp("", "dreamwiki-bench-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		if err := os.CopyFS(tmp, demo.FS()); err != nil {
			return err
		}
		dir = tmp
	}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "dreamwiki-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		fmt.Printf("generating %d notes in %s\n", o.n, tmp)
		if err := synth.Write(tmp, synth.Options{Notes: o.n, Seed: o.seed}); err != nil {
			return err
		}
		dir = tmp
	}
	others, dailies, topics, err := editable(dir)
	if err != nil {
		return err
	}
	fmt.Printf("workspace %s: %d other notes, %d daily logs, %d topic files; GOMAXPROCS %d\n", dir, len(others), len(dailies), len(topics), runtime.GOMAXPROCS(0))

	ctx := context.Background()
	start := time.Now()
	sopts := server.Options{Workspace: dir}
	if o.verbose {
		sopts.Out = os.Stdout
	}
	s, err := server.New(ctx, sopts)
	if err != nil {
		return err
	}
	notes, published := s.Notes()
	fmt.Printf("first build: %d notes (%d published), %d files in %s\n", notes, published, s.Files(), time.Since(start).Round(time.Millisecond))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- s.Serve(sctx, ln) }()
	base := "http://" + ln.Addr().String()
	defer func() {
		stop()
		if err := <-served; err != nil {
			fmt.Fprintln(os.Stderr, "serve:", err)
		}
	}()
	waitIdle(s, 10*time.Minute)
	fmt.Printf("settled (site-wide files and search index) after %s\n", time.Since(start).Round(time.Millisecond))

	w, err := dial(base)
	if err != nil {
		return err
	}
	defer w.Close()
	b := &bench{s: s, base: base, dir: dir, ws: w, rng: rng, run: time.Now().Unix(), verbose: o.verbose}
	// Only files with a page of their own can be timed (private ones have
	// none).
	pages, err := b.pages()
	if err != nil {
		return err
	}
	others, dailies, topics = withPages(others, pages), withPages(dailies, pages), withPages(topics, pages)
	if len(others) == 0 && o.edits > 0 {
		return fmt.Errorf("%s has no published notes under notes/ or projects/", dir)
	}

	if o.edits > 0 || o.daily > 0 || o.topic > 0 {
		if o.cpuprofile != "" {
			f, err := os.Create(o.cpuprofile)
			if err != nil {
				return err
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				return err
			}
			defer pprof.StopCPUProfile()
		}
		var lat []time.Duration
		for i := 0; i < o.edits; i++ {
			time.Sleep(o.gapMin + time.Duration(rng.Int63n(int64(o.gapMax-o.gapMin)+1)))
			d, err := b.edit(others[rng.Intn(len(others))])
			if err != nil {
				return err
			}
			lat = append(lat, d)
		}
		if len(lat) > 0 {
			report("edit → reload message, other notes", lat)
		}
		// Daily-log and topic-file edits take turns, so that both are
		// timed under the same conditions of a noisy machine.
		var daily, topic, claimed []time.Duration
		for i := 0; i < max(o.daily, o.topic); i++ {
			if i < o.daily && len(dailies) > 0 {
				time.Sleep(o.gapMax)
				d, err := b.edit(dailies[rng.Intn(len(dailies))])
				if err != nil {
					return err
				}
				daily = append(daily, d)
			}
			if i < o.topic && len(topics) > 0 {
				time.Sleep(o.gapMax)
				d, c, err := b.editClaimed(topics[rng.Intn(len(topics))])
				if err != nil {
					return err
				}
				topic, claimed = append(topic, d), append(claimed, c)
			}
		}
		if len(daily) > 0 {
			report("edit → reload message, daily logs (provenance runs again)", daily)
		}
		if len(topic) > 0 {
			report("edit → reload message, topic files (a new entry each)", topic)
			report("edit → the new entry's claim shown (provenance ran)", claimed)
		}
		if o.cpuprofile != "" {
			pprof.StopCPUProfile()
		}
	}

	if o.memEdits > 0 {
		if _, err := b.edit(others[rng.Intn(len(others))]); err != nil {
			return err
		}
		waitIdle(s, 10*time.Minute)
		heap1, rss1 := memory()
		fmt.Printf("memory after the first edit: heap %s, RSS %s\n", mib(heap1), mib(rss1))
		t0 := time.Now()
		for i := 0; i < o.memEdits; i++ {
			if _, err := b.edit(others[rng.Intn(len(others))]); err != nil {
				return err
			}
		}
		fmt.Printf("%d edits in %s\n", o.memEdits, time.Since(t0).Round(time.Millisecond))
		waitIdle(s, 10*time.Minute)
		heap2, rss2 := memory()
		fmt.Printf("memory after %d more edits: heap %s (%+.1f%%), RSS %s (%+.1f%%)\n", o.memEdits,
			mib(heap2), pct(heap1, heap2), mib(rss2), pct(rss1, rss2))
	}

	if o.load > 0 {
		if err := b.loadTest(o); err != nil {
			return err
		}
	}
	return nil
}

// editable lists the other notes (edits provenance does not read), the
// daily logs and the L2 topic files of a workspace bench/gen wrote (or
// the demo's).
func editable(dir string) (others, dailies, topics []string, err error) {
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != dir {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case strings.HasPrefix(rel, "notes/"), strings.HasPrefix(rel, "projects/"):
			others = append(others, rel)
		case isDailyLog(rel):
			dailies = append(dailies, rel)
		case strings.HasPrefix(rel, "memory/") && strings.Count(rel, "/") == 1 && rel != "memory/dream-log.md":
			topics = append(topics, rel)
		}
		return nil
	})
	if len(others) == 0 {
		err = errors.Join(err, fmt.Errorf("%s has no notes under notes/ or projects/ (write it with bench/gen)", dir))
	}
	return others, dailies, topics, err
}

type bench struct {
	s       *server.Server
	base    string
	dir     string
	ws      *websocket.Conn
	rng     *rand.Rand
	n       int
	run     int64 // when the run started, in seconds
	verbose bool
}

// edit appends a line to a workspace file and times it until a reload
// message for its page arrives and the page it names shows the line (a
// message that is about an earlier change does not stop the clock).
func (b *bench) edit(rel string) (time.Duration, error) {
	d, _, err := b.editUntil(rel, false)
	return d, err
}

// editClaimed is edit for a file whose entries become claims: it also
// times, from the same write, the reload after which the page shows the
// new entry with its claim (provenance runs after the first reload).
func (b *bench) editClaimed(rel string) (shown, claimed time.Duration, err error) {
	return b.editUntil(rel, true)
}

func (b *bench) editUntil(rel string, claim bool) (shown, claimed time.Duration, err error) {
	b.n++
	page := pageOf(rel)
	f, err := os.OpenFile(filepath.Join(b.dir, filepath.FromSlash(rel)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return 0, 0, err
	}
	t0 := time.Now()
	// The run's start makes the marker unique across runs on one
	// workspace: an earlier run's line must not stop the clock.
	marker := fmt.Sprintf("Bench edit %d.%d at", b.run, b.n)
	_, err = fmt.Fprintf(f, "\n- %s %s.\n", marker, t0.Format(time.RFC3339Nano))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, 0, err
	}
	_ = b.ws.SetReadDeadline(time.Now().Add(5 * time.Minute))
	for {
		var m server.Message
		if err := b.ws.ReadJSON(&m); err != nil {
			return 0, 0, fmt.Errorf("waiting for the reload of %s: %w", page, err)
		}
		if m.Type == "error" {
			return 0, 0, fmt.Errorf("the build broke: %+v", m.Problems)
		}
		if m.Type != "reload" || !slices.Contains(m.Paths, page) {
			continue
		}
		body := b.get(page)
		if shown == 0 && strings.Contains(body, marker) {
			shown = time.Since(t0)
			if b.verbose {
				fmt.Printf("  %-40s %s\n", rel, shown.Round(100*time.Microsecond))
			}
		}
		if shown > 0 && (!claim || linksClaim(body, marker)) {
			if claim {
				claimed = time.Since(t0)
			}
			return shown, claimed, nil
		}
	}
}

// linksClaim reports whether the list item of the page that holds text
// links to a claim page.
func linksClaim(body, text string) bool {
	for rest := body; ; {
		i := strings.Index(rest, text)
		if i < 0 {
			return false
		}
		open := strings.LastIndex(rest[:i], "<li")
		if open >= 0 && !strings.Contains(rest[open:i], "</li>") {
			item := rest[open:]
			if j := strings.Index(item, "</li>"); j >= 0 {
				item = item[:j]
			}
			return strings.Contains(item, "/claims/")
		}
		rest = rest[i+len(text):]
	}
}

// get returns the served page ("" when it cannot be read).
func (b *bench) get(page string) string {
	res, err := http.Get(b.base + "/" + page)
	if err != nil {
		return ""
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return ""
	}
	return string(body)
}

// withPages keeps the files whose page the site has.
func withPages(files, pages []string) []string {
	var out []string
	for _, f := range files {
		if slices.Contains(pages, pageOf(f)) {
			out = append(out, f)
		}
	}
	return out
}

// isDailyLog is the workspace reader's rule for a daily log.
func isDailyLog(rel string) bool {
	_, _, ok := workspace.DailyLogPath(rel)
	return ok
}

// pageOf is the page of a workspace file of a generated workspace.
func pageOf(rel string) string {
	base := strings.TrimSuffix(rel, ".md")
	if name, ok := strings.CutPrefix(base, "memory/"); ok {
		if name[0] >= '0' && name[0] <= '9' {
			return "sources/daily/" + name + ".html"
		}
		return "topics/" + strings.ToLower(name) + ".html"
	}
	return strings.ToLower(base) + ".html"
}

func dial(base string) (*websocket.Conn, error) {
	c, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(base, "http")+"/_dreamwiki/ws", http.Header{"Origin": {base}})
	if err != nil {
		return nil, err
	}
	res.Body.Close()
	var hello server.Message
	if err := c.ReadJSON(&hello); err != nil {
		return nil, err
	}
	return c, nil
}

// waitIdle waits until the server caught up with every change.
func waitIdle(s *server.Server, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if s.Idle() {
			time.Sleep(200 * time.Millisecond)
			if s.Idle() {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	fmt.Println("  (the server did not settle in time)")
}

// memory is the live heap after a collection, and the process's RSS.
func memory() (heap, rss uint64) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap = ms.HeapAlloc
	if b, err := os.ReadFile("/proc/self/statm"); err == nil {
		f := strings.Fields(string(b))
		if len(f) > 1 {
			pages, _ := strconv.ParseUint(f[1], 10, 64)
			rss = pages * uint64(os.Getpagesize())
		}
	}
	return heap, rss
}

func mib(b uint64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

func pct(a, b uint64) float64 {
	if a == 0 {
		return 0
	}
	return (float64(b) - float64(a)) / float64(a) * 100
}

// report prints percentiles of a set of durations.
func report(what string, ds []time.Duration) {
	s := slices.Clone(ds)
	slices.Sort(s)
	q := func(p float64) time.Duration { return s[min(len(s)-1, int(p*float64(len(s))))] }
	fmt.Printf("%s (%d): median %s, p95 %s, p99 %s, max %s\n", what, len(s),
		q(0.50).Round(100*time.Microsecond), q(0.95).Round(100*time.Microsecond),
		q(0.99).Round(100*time.Microsecond), s[len(s)-1].Round(100*time.Microsecond))
}

// loadTest holds websockets open and requests pages at a steady rate.
func (b *bench) loadTest(o benchOptions) error {
	pages, err := b.pages()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.load)
	defer cancel()
	var wsErrors, wsMessages atomic.Int64
	var wg sync.WaitGroup
	conns := make([]*websocket.Conn, 0, o.clients)
	for i := 0; i < o.clients; i++ {
		c, err := dial(b.base)
		if err != nil {
			return fmt.Errorf("websocket %d: %w", i, err)
		}
		conns = append(conns, c)
		wg.Add(1)
		go func(c *websocket.Conn) {
			defer wg.Done()
			for {
				if _, _, err := c.ReadMessage(); err != nil {
					if ctx.Err() == nil {
						wsErrors.Add(1)
					}
					return
				}
				wsMessages.Add(1)
			}
		}(c)
	}
	// The benchmark's own websocket must be read too, or it falls behind.
	go func() {
		for {
			if _, _, err := b.ws.ReadMessage(); err != nil {
				return
			}
		}
	}()
	// Edits during the load, so the websockets carry messages.
	var editErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		others, _, _, _ := editable(b.dir)
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				rel := others[(i*7919)%len(others)]
				f, err := os.OpenFile(filepath.Join(b.dir, filepath.FromSlash(rel)), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					editErr = err
					return
				}
				fmt.Fprintf(f, "\n- Load edit %d.\n", i)
				f.Close()
			}
		}
	}()

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128, MaxConnsPerHost: 128}, Timeout: 30 * time.Second}
	var mu sync.Mutex
	var lat []time.Duration
	var reqErrors []string
	// Requests go out on a fixed schedule (open loop): a slow answer does
	// not slow the rate down, as it would with a pool of waiting clients.
	interval := time.Second / time.Duration(o.rate)
	began := time.Now()
	sent := 0
	var reqs sync.WaitGroup
loop:
	for i := 0; ; i++ {
		due := began.Add(time.Duration(i) * interval)
		if d := time.Until(due); d > 0 {
			select {
			case <-ctx.Done():
				break loop
			case <-time.After(d):
			}
		} else if ctx.Err() != nil {
			break loop
		}
		sent++
		u := b.base + "/" + pages[(i*104729)%len(pages)]
		reqs.Add(1)
		go func() {
			defer reqs.Done()
			t0 := time.Now()
			res, err := client.Get(u)
			if err == nil {
				_, err = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if err == nil && res.StatusCode != 200 {
					err = fmt.Errorf("%s: %s", u, res.Status)
				}
			}
			d := time.Since(t0)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				reqErrors = append(reqErrors, err.Error())
				return
			}
			lat = append(lat, d)
		}()
	}
	reqs.Wait()
	for _, c := range conns {
		c.Close()
	}
	wg.Wait()
	client.CloseIdleConnections()
	fmt.Printf("load: %d websockets, %d GETs over %s (%.0f/s): %d errors, %d websocket errors, %d websocket messages delivered\n",
		o.clients, sent, o.load, float64(sent)/o.load.Seconds(), len(reqErrors), wsErrors.Load(), wsMessages.Load())
	if editErr != nil {
		fmt.Println("  edit during load:", editErr)
	}
	for i, e := range reqErrors {
		if i == 5 {
			break
		}
		fmt.Println("  error:", e)
	}
	if len(lat) > 0 {
		report("page GET latency under load", lat)
	}
	return nil
}

// pages lists the site's HTML pages, from api/pages.json.
func (b *bench) pages() ([]string, error) {
	res, err := http.Get(b.base + "/api/pages.json")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var doc struct {
		Pages []struct {
			URL string `json:"url"`
		} `json:"pages"`
	}
	if err := json.NewDecoder(res.Body).Decode(&doc); err != nil {
		return nil, fmt.Errorf("api/pages.json: %w", err)
	}
	var out []string
	for _, p := range doc.Pages {
		out = append(out, p.URL)
	}
	if len(out) == 0 {
		return nil, errors.New("no pages in api/pages.json")
	}
	return out, nil
}
