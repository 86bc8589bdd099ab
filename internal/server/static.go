package server

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/output"
)

// Static serves a site its caller builds (a team site of several
// workspaces, internal/team) from memory, with Server's Host check,
// headers and paths, and builds it again, whole, whenever a file of one
// of its folders changes. Open pages reload when a build changes them,
// and show a failed build's error until the next good one, as Server's
// do. It has none of Server's API: search runs in the browser on the
// site's own index, there is no Dream button, and nothing is ever
// written.
type Static struct {
	build func(ctx context.Context) (*output.Memory, error)
	roots []string
	log   *slog.Logger
	// Rebuilt, when set, is told of every build after the first.
	Rebuilt func(took time.Duration, err error)
	hub     *hub
	// instance names this process to pages, as Server's does.
	instance string

	mu       sync.RWMutex
	files    *output.Memory
	problems []Problem // the last build's error; nil when it was good
	builds   int
	bound    string
	loopback bool
}

// NewStatic builds the site once with build, which makes it from the
// folders roots; an error of that first build is returned.
func NewStatic(ctx context.Context, roots []string, build func(ctx context.Context) (*output.Memory, error), log *slog.Logger) (*Static, error) {
	files, err := build(ctx)
	if err != nil {
		return nil, err
	}
	s := &Static{build: build, roots: roots, log: log, files: files, instance: newID()}
	s.hub = newHub(log, s.hello)
	return s, nil
}

// hello is what a page hears first: the build's state.
func (s *Static) hello() Message {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return Message{Type: "hello", Problems: s.problems, Build: s.builds, Instance: s.instance}
}

// Files counts the files of the site as last built.
func (s *Static) Files() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.files.Names())
}

// Serve serves the site on ln until ctx is done, building it again after
// each batch of changes to its folders; a build that fails leaves the
// last one served, and is reported to Rebuilt.
func (s *Static) Serve(ctx context.Context, ln net.Listener) error {
	s.mu.Lock()
	s.bound = ln.Addr().String()
	host, _, _ := net.SplitHostPort(s.bound)
	ip := net.ParseIP(host)
	s.loopback = ip != nil && ip.IsLoopback()
	s.mu.Unlock()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	changed := make(chan struct{}, 1)
	var wg sync.WaitGroup
	for _, root := range s.roots {
		w, err := newWatcher(root, 50*time.Millisecond, s.log)
		if err != nil {
			return err
		}
		wg.Add(2)
		go func() { defer wg.Done(); w.run(ctx) }()
		go func() {
			defer wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case <-w.out:
					select {
					case changed <- struct{}{}:
					default: // a build is due already
					}
				}
			}
		}()
	}
	wg.Add(1)
	go func() { defer wg.Done(); s.rebuildLoop(ctx, changed) }()
	defer wg.Wait()
	defer s.hub.close()

	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelDebug)}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	err := srv.Shutdown(shutdown)
	if e := <-errc; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}

// rebuildLoop builds the site again for each change, one build at a time.
func (s *Static) rebuildLoop(ctx context.Context, changed <-chan struct{}) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
		start := time.Now()
		files, err := s.build(ctx)
		if ctx.Err() != nil {
			return
		}
		s.built(files, err)
		if s.Rebuilt != nil {
			s.Rebuilt(time.Since(start), err)
		}
	}
}

// built makes a build's files live and tells the pages: those showing a
// file that changed reload; a failed build leaves the last one served and
// shows its error on every page until a build succeeds.
func (s *Static) built(files *output.Memory, err error) {
	s.mu.Lock()
	s.builds++
	n, broken := s.builds, s.problems != nil
	if err != nil {
		s.problems = []Problem{{Severity: "error", Message: err.Error()}}
		ps := s.problems
		s.mu.Unlock()
		s.hub.broadcast(Message{Type: "error", Problems: ps, Build: n})
		return
	}
	old := s.files
	s.files, s.problems = files, nil
	s.mu.Unlock()
	if broken {
		s.hub.broadcast(Message{Type: "clear", Build: n})
	}
	if pages := reloadable(changedFiles(old, files)); len(pages) > 0 {
		s.hub.broadcast(Message{Type: "reload", Paths: pages, Build: n})
	}
}

// changedFiles are the names of the files that differ between two builds,
// or are in one only.
func changedFiles(old, cur *output.Memory) []string {
	var out []string
	for _, name := range cur.Names() {
		b, _ := cur.Get(name)
		if a, ok := old.Get(name); !ok || !bytes.Equal(a, b) {
			out = append(out, name)
		}
	}
	for _, name := range old.Names() {
		if _, ok := cur.Get(name); !ok {
			out = append(out, name)
		}
	}
	return out
}

// Handler serves the files of the site.
func (s *Static) Handler() http.Handler {
	allowed := func(host string) bool {
		s.mu.RLock()
		bound, loopback := s.bound, s.loopback
		s.mu.RUnlock()
		return hostAllowed(bound, loopback, host)
	}
	return guarded(allowed, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/_dreamwiki/ws":
			if conn, err := upgrader().Upgrade(w, r, nil); err == nil {
				s.hub.serve(conn)
			}
			return
		case "/_dreamwiki/client.js", "/_dreamwiki/client.css":
			serveClient(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "the site is read only", http.StatusMethodNotAllowed)
			return
		}
		s.mu.RLock()
		files := s.files
		s.mu.RUnlock()
		serveFile(w, r, files.Get, func(p string) string {
			// A workspace's own 404 page under its folder, else the site's.
			if first, _, found := strings.Cut(p, "/"); found {
				if _, has := files.Get(first + "/404.html"); has {
					return first + "/404.html"
				}
			}
			return "404.html"
		}, func(name string, data []byte) []byte {
			if strings.HasSuffix(name, ".html") && !strings.HasSuffix(name, ".preview.html") {
				// Live reload and the error overlay; no Dream button, and
				// search on the site's own index (no data-api).
				return injectClient(data, ` data-serve="1" data-dream="0"`)
			}
			return data
		})
	}))
}
