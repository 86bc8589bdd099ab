package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/dream"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// maxResults caps n of a search.
const maxResults = 50

// serveSearch answers GET /api/search?q=&n=&type=&tier= from the bleve
// index, in memory_search's shape: {"results":[{path,startLine,endLine,
// score,snippet,source,citation}]}. The index holds the published
// workspace only (no private notes, secrets redacted). Anyone local may
// read; a query with results is logged as a recall event, which feeds
// decay and promotion at the next dream, only when the request is trusted
// (this server's token, from its own pages or a program that has it, never
// another site's page) and the server is not read-only. A secret typed
// into the query is redacted before it is logged.
func (s *Server) serveSearch(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	text := strings.TrimSpace(q.Get("q"))
	if text == "" {
		jsonError(w, http.StatusBadRequest, "q is empty: /api/search?q=gateway")
		return
	}
	if len(text) > 1000 {
		jsonError(w, http.StatusBadRequest, "q is longer than 1000 bytes")
		return
	}
	n := 10
	if v := q.Get("n"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			jsonError(w, http.StatusBadRequest, "n must be a positive number")
			return
		}
		n = min(n, maxResults)
	}
	if !s.indexer.ready.Load() {
		w.Header().Set("Retry-After", "2")
		jsonError(w, http.StatusServiceUnavailable, errIndexing.Error())
		return
	}
	params := search.ParamsFromConfig(s.snapshot().ws.Config.Search)
	query := memsearch.Query{Text: text, Limit: n, Types: splitList(q["type"]), Tiers: splitList(q["tier"]), Params: &params}
	res, err := s.index.Search(r.Context(), query)
	if err != nil {
		jsonError(w, http.StatusInternalServerError, err.Error())
		return
	}
	if res == nil {
		res = []memsearch.Result{}
	}
	if _, ok := s.trusted(r); ok && len(res) > 0 && !s.opts.ReadOnly {
		logged, _ := secrets.Redact(text)
		s.recalls.add(logged, res[0].Snippet)
	}
	writeJSON(w, http.StatusOK, struct {
		Results []memsearch.Result `json:"results"`
	}{res})
}

// splitList reads repeated and comma-separated parameters.
func splitList(vs []string) []string {
	var out []string
	for _, v := range vs {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// serveGet answers GET /api/get?path=&from=&lines= (memory_get, as
// `dreamwiki get`: memsearch.Get): the lines of a published workspace file.
// path may carry a citation (memory/x.md#L4-L7).
func (s *Server) serveGet(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p, start, end, err := memsearch.ParseCitation(q.Get("path"))
	if err != nil || p == "" {
		jsonError(w, http.StatusBadRequest, "path must name a workspace file, such as MEMORY.md or memory/2026-10-08.md#L4-L7")
		return
	}
	if v := q.Get("from"); v != "" {
		if start, err = strconv.Atoi(v); err != nil || start < 1 {
			jsonError(w, http.StatusBadRequest, "from must be a line number from 1")
			return
		}
		end = 0
	}
	count := 0
	if v := q.Get("lines"); v != "" {
		if count, err = strconv.Atoi(v); err != nil || count < 1 {
			jsonError(w, http.StatusBadRequest, "lines must be a positive number")
			return
		}
	}
	if count > 0 {
		if start == 0 {
			start = 1
		}
		end = start + count - 1
	}
	res, err := memsearch.Get(s.snapshot().ws, p, start, end)
	switch {
	case errors.Is(err, memsearch.ErrNotPublished):
		jsonError(w, http.StatusNotFound, err.Error())
	case err != nil:
		jsonError(w, http.StatusBadRequest, err.Error())
	default:
		writeJSON(w, http.StatusOK, res)
	}
}

// recaller logs searches as recall events, through the dream engine
// (which takes the workspace lock). Searches come as a reader types, so
// only settled queries are logged: one that is a prefix of the next
// query within settle is dropped.
type recaller struct {
	s      *Server
	settle time.Duration
	mu     sync.Mutex
	queue  []recall
	wake   chan struct{}
}

type recall struct {
	query, matched string
	at             time.Time
}

func newRecaller(s *Server) *recaller {
	settle := s.opts.recallSettle
	if settle <= 0 {
		settle = 1500 * time.Millisecond
	}
	return &recaller{s: s, settle: settle, wake: make(chan struct{}, 1)}
}

func (rc *recaller) add(query, matched string) {
	rc.mu.Lock()
	rc.queue = append(rc.queue, recall{query: query, matched: matched, at: time.Now()})
	if len(rc.queue) > 100 {
		rc.queue = rc.queue[len(rc.queue)-100:]
	}
	rc.mu.Unlock()
	select {
	case rc.wake <- struct{}{}:
	default:
	}
}

// run logs settled queries until ctx is done.
func (rc *recaller) run(ctx context.Context) {
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-rc.wake:
			t.Reset(rc.settle)
		case <-t.C:
			for _, r := range rc.take() {
				rc.log(ctx, r)
			}
		}
	}
}

// take returns the settled queries, keeping the ones still settling.
func (rc *recaller) take() []recall {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out, keep []recall
	for i, r := range rc.queue {
		superseded := false
		for _, later := range rc.queue[i+1:] {
			if strings.HasPrefix(strings.ToLower(later.query), strings.ToLower(r.query)) {
				superseded = true
				break
			}
		}
		switch {
		case superseded:
		case time.Since(r.at) < rc.settle:
			keep = append(keep, r)
		default:
			out = append(out, r)
		}
	}
	rc.queue = keep
	if len(keep) > 0 {
		select {
		case rc.wake <- struct{}{}:
		default:
		}
	}
	return out
}

func (rc *recaller) log(ctx context.Context, r recall) {
	s := rc.s
	s.dreamMu.Lock()
	busy := s.dream != nil && s.dream.running
	s.dreamMu.Unlock()
	if busy {
		return // a dream holds the lock; this browse is not worth waiting for
	}
	_, err := dream.Recall(ctx, s.root, r.query, r.matched, dream.Options{Now: s.opts.Now, Command: "dreamwiki serve"}, 2*time.Second)
	var nm *dream.NoMatchError
	if err != nil && !errors.As(err, &nm) && !errors.Is(err, context.Canceled) {
		s.log.Warn("logging a recall", "query", r.query, "err", err)
	}
}
