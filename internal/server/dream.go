package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/dream"
)

// dreamState is the dream the server last planned, and whether one runs.
type dreamState struct {
	running bool
	started time.Time
	planID  string
	plan    *dream.Plan
}

// Dreamed is what a finished dream did, for the panel.
type Dreamed struct {
	Applied bool     `json:"applied"`
	Summary string   `json:"summary"`
	Written []string `json:"written,omitempty"`
	Backup  string   `json:"backup,omitempty"`
	// Actions are what the applied plan did (with chosen proposals, the
	// plan made again with them, not the one shown before).
	Actions []dream.Action `json:"actions,omitempty"`
	// Notes are the pages of the dream's new notes (its entry in the
	// journal), root-relative.
	Notes []DreamNote `json:"notes,omitempty"`
	// Journal is the dream journal's page.
	Journal string `json:"journal"`
}

// DreamNote is a page a dream made.
type DreamNote struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// planResponse is the answer to a dry run: the plan (gates, inputs,
// actions, files with their diffs), the whole diff, and the id to apply it
// by.
type planResponse struct {
	ID   string      `json:"id"`
	Plan *dream.Plan `json:"plan"`
	Diff string      `json:"diff"`
}

// serveDream runs dreams on demand:
//
//	POST /api/dream?dry_run=1[&force=1]  plan, write nothing: the plan and its diff
//	POST /api/dream?plan=ID              apply that plan (refused when files changed since)
//	POST /api/dream[?force=1]            plan and apply at once
//
// Progress goes to every page over the websocket; when the dream is
// written the site is rebuilt before the answer, which says what changed
// and links the dream's new notes. A second dream while one runs is
// refused (409).
func (s *Server) serveDream(w http.ResponseWriter, r *http.Request) {
	if !s.mutating(w, r) {
		return
	}
	if s.opts.ReadOnly {
		jsonError(w, http.StatusForbidden, "this server runs with --read-only: dreams are off")
		return
	}
	q := r.URL.Query()
	if !s.dreaming.TryLock() {
		s.dreamMu.Lock()
		started := time.Time{}
		if s.dream != nil {
			started = s.dream.started
		}
		s.dreamMu.Unlock()
		msg := "a dream is already running"
		if !started.IsZero() {
			msg += " (started " + started.Format("15:04:05") + ")"
		}
		jsonError(w, http.StatusConflict, msg+"; wait for it to finish")
		return
	}
	defer s.dreaming.Unlock()
	s.setDreaming(true)
	defer s.setDreaming(false)

	opts := dream.Options{Now: s.opts.Now, Force: q.Get("force") == "1" || q.Get("force") == "true", Command: "dreamwiki serve"}
	// choose=id,id names the proposals (plan.proposals) a person chose:
	// the dream is planned again with them.
	if c := strings.TrimSpace(q.Get("choose")); c != "" {
		opts.Choose = strings.Split(c, ",")
	}
	ctx := r.Context()
	if q.Get("dry_run") == "1" || q.Get("dry_run") == "true" {
		s.hub.broadcast(Message{Type: "dream", Stage: "plan", Text: "planning a dream"})
		pl, err := dream.NewPlan(ctx, s.root, opts)
		if err != nil {
			s.dreamFailed(w, err)
			return
		}
		id := newID()
		s.dreamMu.Lock()
		s.dream.planID, s.dream.plan = id, pl
		s.dreamMu.Unlock()
		s.hub.broadcast(Message{Type: "dream", Stage: "planned", Text: pl.Summary})
		writeJSON(w, http.StatusOK, planResponse{ID: id, Plan: pl, Diff: pl.Diff()})
		return
	}

	var pl *dream.Plan
	if id := q.Get("plan"); id != "" && len(opts.Choose) == 0 {
		s.dreamMu.Lock()
		if s.dream.planID == id {
			pl = s.dream.plan
		}
		s.dreamMu.Unlock()
		if pl == nil {
			jsonError(w, http.StatusConflict, "that plan is no longer the latest; plan again")
			return
		}
	} else {
		var err error
		s.hub.broadcast(Message{Type: "dream", Stage: "plan", Text: "planning a dream"})
		if pl, err = dream.NewPlan(ctx, s.root, opts); err != nil {
			s.dreamFailed(w, err)
			return
		}
	}
	before := s.snapshot().dreamNotes
	// The dream is written even if the page that asked goes away.
	ctx = context.WithoutCancel(ctx)
	res, err := dream.Apply(ctx, pl, func(e dream.Event) {
		s.hub.broadcast(Message{Type: "dream", Stage: e.Stage, Text: e.Message})
	})
	if err != nil {
		s.dreamFailed(w, err)
		return
	}
	out := &Dreamed{Applied: res.Applied, Summary: pl.Summary, Written: res.Written, Backup: res.Backup, Actions: pl.Actions, Journal: "dreams/journal.html"}
	if !res.Applied {
		out.Summary = "The dream was held back by its gates (" + failedGates(pl) + "); plan again with force to dream anyway."
	}
	if len(res.Written) > 0 {
		s.hub.broadcast(Message{Type: "dream", Stage: "rebuild", Text: "rebuilding the wiki"})
		if err := s.Rebuild(ctx, res.Written); err != nil {
			s.dreamFailed(w, err)
			return
		}
		after := s.snapshot().dreamNotes
		var paths []string
		for p := range after {
			if _, ok := before[p]; !ok {
				paths = append(paths, p)
			}
		}
		sort.Strings(paths)
		for _, p := range paths {
			page := strings.TrimSuffix(p, path.Ext(p)) + ".html"
			if _, ok := s.store.get(page); ok {
				out.Notes = append(out.Notes, DreamNote{Title: after[p], URL: page})
			}
		}
	}
	s.dreamMu.Lock()
	s.dream.planID, s.dream.plan = "", nil
	s.dreamMu.Unlock()
	s.hub.broadcast(Message{Type: "dreamed", Dream: out})
	writeJSON(w, http.StatusOK, out)
}

// setDreaming marks a dream as running or done.
func (s *Server) setDreaming(on bool) {
	s.dreamMu.Lock()
	defer s.dreamMu.Unlock()
	if s.dream == nil {
		s.dream = &dreamState{}
	}
	s.dream.running = on
	if on {
		s.dream.started = time.Now()
	}
}

// dreamFailed answers a failed dream: 409 when the workspace is locked
// by another dream or changed since the plan, 500 otherwise.
func (s *Server) dreamFailed(w http.ResponseWriter, err error) {
	s.hub.broadcast(Message{Type: "dream", Stage: "error", Text: err.Error()})
	status := http.StatusInternalServerError
	var locked *dream.LockedError
	var refused *dream.ChoiceError
	switch {
	case errors.As(err, &refused):
		status = http.StatusBadRequest
	case errors.As(err, &locked) || errors.Is(err, dream.ErrRecoveryNeeded) || strings.Contains(err.Error(), "changed since"):
		status = http.StatusConflict
	}
	jsonError(w, status, err.Error())
}

// failedGates lists the gates that held a plan back.
func failedGates(pl *dream.Plan) string {
	var out []string
	for _, g := range pl.Gates {
		if !g.Passed && !g.Forced {
			out = append(out, g.Name)
		}
	}
	return strings.Join(out, ", ")
}

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
