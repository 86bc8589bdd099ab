package server

import (
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
// of its folders changes. It has none of Server's API: search runs in
// the browser on the site's own index, and nothing is ever written.
type Static struct {
	build func(ctx context.Context) (*output.Memory, error)
	roots []string
	log   *slog.Logger
	// Rebuilt, when set, is told of every build after the first.
	Rebuilt func(took time.Duration, err error)

	mu       sync.RWMutex
	files    *output.Memory
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
	return &Static{build: build, roots: roots, log: log, files: files}, nil
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
		if err == nil {
			s.mu.Lock()
			s.files = files
			s.mu.Unlock()
		}
		if s.Rebuilt != nil {
			s.Rebuilt(time.Since(start), err)
		}
	}
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
		}, nil)
	}))
}
