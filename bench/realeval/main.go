// Command realeval measures dreams and claims on public agent workspaces
// that nobody on the project wrote (issue #23). For each workspace of a
// manifest it copies the workspace to a temporary folder, runs one dream
// with the clock set to the day after its last daily log, compares the
// files before and after, and reads the result as `dreamwiki check` does.
// It prints, per workspace and per set (dev, heldout), the lines promoted
// and their precision against labels.tsv, what became of the curated
// lines, writes into dated files, to-dos touched, and the precision of
// claims, contradictions and evidence links on a seeded sample.
//
// Items without a label go to a to-label file outside the repository,
// with their text, for a person to judge; -import brings the verdicts
// into labels.tsv without the text. No text of these workspaces is ever
// written into the repository.
//
//	go run ./bench/realeval -manifest bench/realeval/manifest.tsv -data /work/realdata -labels bench/realeval/labels.tsv
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/dream"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

type options struct {
	manifest, data, labels string
	only, set              string
	sample                 int
	seed                   string
	toLabelDir             string
	toLabelHeldout         bool
	jsonOut                string
	keep                   bool
}

func main() {
	var o options
	var importFiles, mirror string
	var extractOnly bool
	flag.StringVar(&o.manifest, "manifest", "bench/realeval/manifest.tsv", "the manifest of workspaces")
	flag.StringVar(&o.data, "data", "/work/realdata", "the folder holding each workspace as owner+name/")
	flag.StringVar(&o.labels, "labels", "bench/realeval/labels.tsv", "the labels file")
	flag.StringVar(&o.only, "only", "", "run only these workspaces (owner+name or owner/name, comma-separated)")
	flag.StringVar(&o.set, "set", "all", "run only this set: dev, heldout or all")
	flag.IntVar(&o.sample, "sample", 30, "claims, contradictions and evidence links sampled per workspace, of each kind")
	flag.StringVar(&o.seed, "seed", "realeval-1", "the sampling seed; change it only to draw a new sample")
	flag.StringVar(&o.toLabelDir, "tolabel", "", "where to write tolabel-<workspace>.tsv (default: -data); never inside the repository")
	flag.BoolVar(&o.toLabelHeldout, "tolabel-heldout", false, "also write the held-out workspaces' unlabelled items (only to label a baseline; see README)")
	flag.StringVar(&o.jsonOut, "json", "", "also write the figures as JSON to this file")
	flag.BoolVar(&o.keep, "keep", false, "keep the dreamed copies (their folders are printed)")
	flag.StringVar(&importFiles, "import", "", "add the verdicts of these filled-in to-label files (comma-separated) to -labels, and exit")
	flag.BoolVar(&extractOnly, "extract", false, "write each workspace's commit from -mirror into -data (folders already there are left alone), and exit")
	flag.StringVar(&mirror, "mirror", "/work/.mirror", "with -extract: the folder holding owner+name/repo bare git directories")
	flag.Parse()
	ctx := context.Background()
	var err error
	switch {
	case importFiles != "":
		var n int
		n, err = importLabels(o.labels, strings.Split(importFiles, ","))
		if err == nil {
			fmt.Printf("%d labels imported into %s\n", n, o.labels)
		}
	case extractOnly:
		err = extractAll(o, mirror, os.Stdout)
	default:
		err = run(ctx, o, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "realeval:", err)
		os.Exit(1)
	}
}

func selected(o options, w Workspace) bool {
	if o.set != "all" && o.set != w.Set {
		return false
	}
	if o.only == "" {
		return true
	}
	for _, s := range strings.Split(o.only, ",") {
		if s == w.Name() || s == w.Repo {
			return true
		}
	}
	return false
}

func extractAll(o options, mirror string, out io.Writer) error {
	wss, err := readManifest(o.manifest)
	if err != nil {
		return err
	}
	for _, w := range wss {
		if !selected(o, w) {
			continue
		}
		dest := filepath.Join(o.data, w.Name())
		if _, err := os.Stat(dest); err == nil {
			fmt.Fprintf(out, "%s: already there\n", dest)
			continue
		}
		files, missing, err := extract(filepath.Join(mirror, w.Name(), "repo"), w.Commit, dest)
		if err != nil {
			return fmt.Errorf("%s: %w", w.Repo, err)
		}
		fmt.Fprintf(out, "%s: %d files, %d absent from the snapshot\n", dest, files, missing)
	}
	return nil
}

// result is one workspace's figures.
type result struct {
	Workspace string `json:"workspace"`
	Set       string `json:"set"`
	Lang      string `json:"lang"`
	Notes     int    `json:"notes"`
	Now       string `json:"now"`
	Err       string `json:"error,omitempty"`

	DreamSeconds float64 `json:"dreamSeconds"`
	CheckSeconds float64 `json:"checkSeconds"`
	DreamCount   int     `json:"dreamPromoted"` // the dream's own count
	Applied      bool    `json:"applied"`

	Promoted  tally `json:"promoted"`
	Moved     int   `json:"curatedMoved"`
	Annotated int   `json:"curatedAnnotated"`
	Rewritten int   `json:"curatedRewritten"`
	Deleted   int   `json:"curatedDeleted"`
	Reordered int   `json:"curatedReordered"`
	Other     int   `json:"otherLinesAltered"`
	DatedF    int   `json:"datedFilesWritten"`
	DatedL    int   `json:"datedLinesAdded"`
	Unsourced int   `json:"unsourcedLinesAdded"`
	Todos     int   `json:"todosTouched"`
	EventsOff int   `json:"eventsOffShape"`

	Claims         tally          `json:"claims"`
	Contradictions tally          `json:"contradictions"`
	Evidence       tally          `json:"evidence"`
	CuratedClaims  int            `json:"curatedClaims"`
	WithEvidence   int            `json:"curatedClaimsWithEvidence"`
	Warnings       int            `json:"warnings"`
	Errors         int            `json:"errors"`
	ByCode         map[string]int `json:"byCode,omitempty"`
	JunkBy         map[string]int `json:"junkByCategory,omitempty"`
	ToLabel        int            `json:"toLabel"`
}

// tally counts items of one kind: all found, those sampled (every one for
// promoted lines), those of the sample labelled, and those labelled right.
type tally struct {
	Found    int `json:"found"`
	Sampled  int `json:"sampled"`
	Labelled int `json:"labelled"`
	Good     int `json:"good"`
}

func (t *tally) add(u tally) {
	t.Found += u.Found
	t.Sampled += u.Sampled
	t.Labelled += u.Labelled
	t.Good += u.Good
}

// precision is "0.25 (14/57)", with "+N?" when N sampled items are not
// labelled yet.
func (t tally) precision() string {
	if t.Sampled == 0 {
		return "–"
	}
	if t.Labelled == 0 {
		return fmt.Sprintf("? (0/%d)", t.Sampled)
	}
	s := fmt.Sprintf("%.2f (%d/%d)", float64(t.Good)/float64(t.Labelled), t.Good, t.Labelled)
	if t.Labelled < t.Sampled {
		s += fmt.Sprintf(" +%d?", t.Sampled-t.Labelled)
	}
	return s
}

func run(ctx context.Context, o options, out io.Writer) error {
	wss, err := readManifest(o.manifest)
	if err != nil {
		return err
	}
	labels, err := readLabels(o.labels)
	if err != nil {
		return err
	}
	if o.toLabelDir == "" {
		o.toLabelDir = o.data
	}
	var results []*result
	for _, w := range wss {
		if !selected(o, w) {
			continue
		}
		fmt.Fprintf(os.Stderr, "realeval: %s ...\n", w.Name())
		r := evalOne(ctx, o, w, labels)
		results = append(results, r)
	}
	printReport(out, results)
	if o.jsonOut != "" {
		b, _ := json.MarshalIndent(results, "", "  ")
		return os.WriteFile(o.jsonOut, append(b, '\n'), 0o644)
	}
	return nil
}

// lastDailyLog is the date of the newest daily log, by the workspace
// reader's rule (workspace.DailyLogPath).
func lastDailyLog(s *snapshot) (time.Time, bool) {
	var last time.Time
	for p := range s.hash {
		if d, _, ok := workspace.DailyLogPath(p); ok && d.After(last) {
			last = d
		}
	}
	return last, !last.IsZero()
}

func evalOne(ctx context.Context, o options, w Workspace, labels labelSet) *result {
	r := &result{Workspace: w.Name(), Set: w.Set, Lang: w.Lang}
	fail := func(err error) *result { r.Err = err.Error(); return r }
	src := w.Dir(o.data)
	if _, err := os.Stat(src); err != nil {
		return fail(fmt.Errorf("%s is not there; fetch the repository and run with -extract", src))
	}
	tmp, err := os.MkdirTemp("", "realeval-")
	if err != nil {
		return fail(err)
	}
	if o.keep {
		fmt.Fprintf(os.Stderr, "realeval: %s dreamed in %s\n", w.Name(), tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	dir := filepath.Join(tmp, w.Name())
	if err := copyTree(src, dir); err != nil {
		return fail(err)
	}
	before, err := takeSnapshot(dir)
	if err != nil {
		return fail(err)
	}
	for p := range before.hash {
		if isMarkdown(p) {
			r.Notes++
		}
	}
	last, ok := lastDailyLog(before)
	if !ok {
		return fail(fmt.Errorf("no daily log"))
	}
	now := last.AddDate(0, 0, 1)
	r.Now = now.Format(time.DateOnly)

	start := time.Now()
	res, err := dream.Run(ctx, dir, dream.Options{Now: func() time.Time { return now }, Force: true, Command: "realeval"}, false, nil)
	r.DreamSeconds = time.Since(start).Seconds()
	if err != nil {
		return fail(fmt.Errorf("dream: %w", err))
	}
	r.Applied = res.Applied
	if res.Plan != nil {
		r.DreamCount = res.Plan.Counts.Promoted
	}
	after, err := takeSnapshot(dir)
	if err != nil {
		return fail(err)
	}
	f := measureFate(before, after)
	r.Moved, r.Annotated, r.Rewritten, r.Deleted, r.Reordered = f.Moved, f.Annotated, f.Rewritten, f.Deleted, f.Reordered
	r.Other, r.DatedF, r.DatedL, r.Todos, r.EventsOff = f.OtherAltered, len(f.DatedFiles), f.DatedLines, f.TodosTouched, f.EventsOffShape

	var actions []dream.Action
	if res.Plan != nil {
		actions = res.Plan.Actions
	}
	var promoted []Item
	for _, it := range promotedItems(w.Name(), f.Added, before, actions) {
		if it.sourced {
			promoted = append(promoted, it)
		} else {
			r.Unsourced++
		}
	}

	chk, err := runCheck(ctx, dir, w.Name(), now, after, o.seed, o.sample)
	if err != nil {
		return fail(fmt.Errorf("check: %w", err))
	}
	r.CheckSeconds = chk.Duration.Seconds()
	r.CuratedClaims, r.WithEvidence = chk.CuratedClaims, chk.WithEvidence
	r.Warnings, r.Errors, r.ByCode = chk.Warnings, chk.Errors, chk.ByCode
	r.Claims.Found, r.Contradictions.Found, r.Evidence.Found = chk.Claims, chk.Contradictions, chk.EvidenceLinks
	r.Promoted.Found = len(promoted)

	var todo []Item
	r.JunkBy = map[string]int{}
	judge := func(t *tally, it Item) {
		t.Sampled++
		l, ok := labels.of(it)
		if !ok {
			todo = append(todo, it)
			return
		}
		t.Labelled++
		if l.Verdict == goodVerdict[it.Kind] {
			t.Good++
		} else if it.Kind == KindPromoted {
			r.JunkBy[l.Category]++
		}
	}
	for _, it := range promoted {
		judge(&r.Promoted, it)
	}
	for _, it := range chk.Sample {
		switch it.Kind {
		case KindClaim:
			judge(&r.Claims, it)
		case KindContradiction:
			judge(&r.Contradictions, it)
		case KindEvidence:
			judge(&r.Evidence, it)
		}
	}
	r.ToLabel = len(todo)
	if w.Set == "dev" || o.toLabelHeldout {
		p := filepath.Join(o.toLabelDir, "tolabel-"+w.Name()+".tsv")
		if err := writeToLabel(p, dedupe(todo)); err != nil {
			return fail(err)
		}
	}
	return r
}

func dedupe(items []Item) []Item {
	seen := map[string]bool{}
	var out []Item
	for _, it := range items {
		id := it.Kind + "\x00" + it.Key
		if !seen[id] {
			seen[id] = true
			out = append(out, it)
		}
	}
	return out
}

var pointerRe = regexp.MustCompile(`Source:\s*\[?([^\s#\])]+\.md)#L(\d+)(?:-L?(\d+))?`)

// promotedItems names each line added to curated memory by what it came
// from: the daily-log lines its source pointer (or the dream's action for
// it) cites, so that a label outlives a change in how the dream words or
// places the line. A line with no source (a "see memory/x.md" pointer
// left where lines were moved out) is named by its own text and is not
// a promotion: it is counted apart.
func promotedItems(ws string, added []lineRef, before *snapshot, actions []dream.Action) []Item {
	source := func(cite string) (string, string, bool) {
		m := pointerRe.FindStringSubmatch("Source: " + cite)
		if m == nil {
			return "", "", false
		}
		ls := before.lines[m[1]]
		from, _ := strconv.Atoi(m[2])
		to := from
		if m[3] != "" {
			to, _ = strconv.Atoi(m[3])
		}
		if from < 1 || to < from || to > len(ls) {
			return "", "", false
		}
		var parts []string
		for _, l := range ls[from-1 : to] {
			if t := norm(l); t != "" {
				parts = append(parts, t)
			}
		}
		return m[1], strings.Join(parts, "\n"), len(parts) > 0
	}
	var items []Item
	for _, a := range added {
		own := norm(stripAnnotations(a.Text))
		var cites []string
		if m := pointerRe.FindStringSubmatch(a.Text); m != nil {
			cites = append(cites, strings.TrimPrefix(m[0], "Source:"))
		} else {
			for _, act := range actions {
				t := norm(stripAnnotations(act.Text))
				if len(act.Evidence) > 0 && t != "" && (strings.Contains(own, t) || strings.Contains(t, own)) {
					cites = act.Evidence
					break
				}
			}
		}
		it := Item{Workspace: ws, Path: a.File, KeyPath: pathKey(a.File), Key: sha(own), Kind: KindPromoted,
			Text: fmt.Sprintf("→ %s:%d: %s", a.File, a.Line, a.Text)}
		for _, c := range cites {
			if p, text, ok := source(strings.TrimSpace(c)); ok {
				it.KeyPath, it.Key, it.sourced = pathKey(p), sha(text), true
				it.Text += "\n  FROM " + strings.TrimSpace(c) + ": " + text
				break
			}
		}
		items = append(items, it)
	}
	return items
}
