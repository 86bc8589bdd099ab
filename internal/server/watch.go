package server

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
)

// change is a batch of workspace paths that changed on disk. reset means
// events were lost (the kernel's queue overflowed): everything must be
// read again.
type change struct {
	paths []string
	reset bool
	// first is when the first event of the batch arrived, for latency
	// figures.
	first time.Time
}

// watcher watches a workspace recursively and sends batches of the paths
// that changed. Events are debounced: a batch is sent once no event came
// for quiet, or maxWait after its first event, whichever is sooner, so
// an editor's save (write to a temporary file then rename, truncate then
// write, delete then create) arrives as one batch. While the receiver is
// busy, events keep gathering into the next batch.
type watcher struct {
	root    string // absolute, as watched
	fsw     *fsnotify.Watcher
	quiet   time.Duration
	maxWait time.Duration
	log     *slog.Logger
	out     chan change
	// gathering is set while events wait to be sent as a batch.
	gathering atomic.Bool
	// marks is a folder outside the workspace, watched by the same
	// watcher, where sync drops numbered files: the kernel queues one
	// watcher's events in order, so once mark n is seen every event of a
	// write made before it has been gathered. Empty when it could not be
	// made (sync then cannot tell, and says so).
	marks          string
	marked, seenTo atomic.Int64
}

// newWatcher starts watching root and every folder below it that the
// workspace reads.
func newWatcher(root string, quiet time.Duration, log *slog.Logger) (*watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &watcher{root: root, fsw: fsw, quiet: quiet, maxWait: 10 * quiet, log: log, out: make(chan change)}
	if _, err := w.addTree(""); err != nil {
		fsw.Close()
		return nil, err
	}
	if dir, err := os.MkdirTemp("", "dreamwiki-watch-"); err == nil {
		if fsw.Add(dir) == nil {
			w.marks = dir
		} else {
			os.Remove(dir)
		}
	}
	return w, nil
}

// close stops watching and removes the marks folder.
func (w *watcher) close() {
	w.fsw.Close()
	if w.marks != "" {
		os.RemoveAll(w.marks)
	}
}

// sync drops a mark and reports a function that says whether the watcher
// has caught up with it, that is with every file written before sync was
// called. Without a marks folder it reports false: the caller falls back
// on waiting for quiet.
func (w *watcher) sync() (caughtUp func() bool, ok bool) {
	if w.marks == "" {
		return nil, false
	}
	n := w.marked.Add(1)
	if err := os.WriteFile(filepath.Join(w.marks, strconv.FormatInt(n, 10)), nil, 0o600); err != nil {
		return nil, false
	}
	return func() bool { return w.seenTo.Load() >= n }, true
}

// mark handles an event in the marks folder; it reports whether ev was one.
func (w *watcher) mark(ev fsnotify.Event) bool {
	if w.marks == "" || filepath.Dir(ev.Name) != w.marks {
		return false
	}
	if ev.Op.Has(fsnotify.Create) {
		if n, err := strconv.ParseInt(filepath.Base(ev.Name), 10, 64); err == nil {
			os.Remove(ev.Name)
			if n > w.seenTo.Load() {
				w.seenTo.Store(n)
			}
		}
	}
	return true
}

// addTree watches the folder rel (workspace path, "" for the root) and the
// folders below it, and returns the files found there: a folder created
// with files in it (a copy, a git checkout) gets no events for them.
func (w *watcher) addTree(rel string) ([]string, error) {
	var files []string
	start := filepath.Join(w.root, filepath.FromSlash(rel))
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		r, ok := w.rel(p)
		if !ok {
			return nil
		}
		if err != nil {
			if p == start && rel == "" {
				return err
			}
			return nil // a folder that vanished or cannot be read: the build reports it
		}
		if ignored(r) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			files = append(files, r)
			return nil
		}
		if err := w.fsw.Add(p); err != nil {
			w.log.Warn("cannot watch a folder", "folder", r, "err", err)
		}
		return nil
	})
	return files, err
}

// rel is the workspace path of an absolute path under the root.
func (w *watcher) rel(p string) (string, bool) {
	r, err := filepath.Rel(w.root, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	if r == "." {
		return "", true
	}
	return filepath.ToSlash(r), true
}

// run turns events into batches until ctx is done, then stops watching.
func (w *watcher) run(ctx context.Context) {
	defer w.close()
	pending := map[string]bool{}
	reset := false
	var first time.Time
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	ready := false
	for {
		var out chan<- change
		if ready {
			out = w.out
		}
		batch := change{reset: reset, first: first}
		if ready {
			for p := range pending {
				batch.paths = append(batch.paths, p)
			}
			sort.Strings(batch.paths)
		}
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if w.mark(ev) || !w.event(ev, pending) {
				continue
			}
			w.gathering.Store(true)
			now := time.Now()
			if first.IsZero() {
				first = now
			}
			// Wait for quiet, but never longer than maxWait in all.
			wait := min(w.quiet, w.maxWait-now.Sub(first))
			timer.Reset(max(wait, 0))
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.log.Warn("file events were lost; reading the whole workspace again")
				reset = true
				w.gathering.Store(true)
				if first.IsZero() {
					first = time.Now()
				}
				timer.Reset(0)
				continue
			}
			w.log.Warn("watching the workspace", "err", err)
		case <-timer.C:
			ready = true
		case out <- batch:
			pending = map[string]bool{}
			reset, ready, first = false, false, time.Time{}
			w.gathering.Store(false)
		}
	}
}

// event records one file event; it reports whether the event matters.
func (w *watcher) event(ev fsnotify.Event, pending map[string]bool) bool {
	if ev.Op == fsnotify.Chmod {
		return false
	}
	r, ok := w.rel(ev.Name)
	if !ok || r == "" || ignored(r) {
		return false
	}
	pending[r] = true
	if ev.Op.Has(fsnotify.Create) {
		// A new folder: watch it, and report what is already inside.
		files, err := w.addTree(r)
		if err == nil {
			for _, f := range files {
				pending[f] = true
			}
		}
	}
	return true
}

// ignored reports workspace paths whose changes never matter: folders and
// files the workspace never reads (.git, .backup, .dreamwiki, .obsidian and
// every other dot-folder but memory/.dreams; node_modules) and the
// temporary files editors save through.
func ignored(rel string) bool {
	for i, seg := range strings.Split(rel, "/") {
		if seg == "node_modules" {
			return true
		}
		if strings.HasPrefix(seg, ".") && !(i == 1 && seg == ".dreams" && strings.HasPrefix(rel, "memory/")) {
			return true
		}
	}
	base := path.Base(rel)
	switch {
	case strings.HasSuffix(base, "~"), strings.HasPrefix(base, "#") && strings.HasSuffix(base, "#"),
		base == "4913", // vim's probe of whether it may write the folder
		strings.HasSuffix(base, ".swp"), strings.HasSuffix(base, ".swx"), strings.HasSuffix(base, ".tmp"),
		strings.HasSuffix(base, ".part"), strings.HasSuffix(base, ".crdownload"),
		strings.HasSuffix(base, "___jb_tmp___"), strings.HasSuffix(base, "___jb_old___"):
		return true
	}
	return false
}
