package dream

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/rogpeppe/go-internal/txtar"
)

// The quality evaluation (issue #15): hand-written workspaces in the
// shapes real OpenClaw workspaces have, hand labels of what a user would
// accept, and the figures a dream and the claim analysis reach on them.
// testdata/quality/README.md describes the workspaces, the labelling rules
// and how each figure is computed.

// qualityDetails prints, for each workspace, every line behind a figure
// (each wrong promotion, junk topic, unlabelled claim...).
var qualityDetails = flag.Bool("quality.details", false, "TestQuality: print the cases behind every figure")

// qualityTargets are the acceptance figures of issue #15 over the whole
// labelled set. enforce makes the dream's targets (promoted lines and
// edits) assertions, enforceClaims those of the claim analysis
// (provenance); while a flag is false its figures are printed and only the
// labels are checked.
//
// The issue sets no recall for claims and contradictions; the two recall
// floors here are what the claim analysis reached when its targets were
// first met, less a margin, so that making fewer claims or reporting no
// contradiction cannot pass for precision.
var qualityTargets = struct {
	enforce, enforceClaims bool
	promotedPrecision      float64
	promotedRecall         float64
	claimPrecision         float64
	claimRecall            float64
	contradictionPrecision float64
	contradictionRecall    float64
	// Counts that must be zero.
	junkTopics, changedCode, inserted, stubIndexes, brokenCounts int
}{
	enforce:                true,
	enforceClaims:          true,
	promotedPrecision:      0.90,
	promotedRecall:         0.60,
	claimPrecision:         0.95,
	claimRecall:            0.95,
	contradictionPrecision: 0.8,
	contradictionRecall:    0.6,
}

func TestQuality(t *testing.T) {
	names, err := filepath.Glob("testdata/quality/*.labels")
	if err != nil || len(names) == 0 {
		t.Fatalf("no labelled workspaces in testdata/quality (%v)", err)
	}
	total := measureSet(t, "", "total", names, func(t *testing.T, name string) *LLM { return nil })
	if total == nil {
		return
	}
	checkTargets(t, total)
	// The held-out workspaces were written before the engine was tuned on
	// the set above: their figures show whether its rules generalise, and
	// are reported apart so they never tune anything.
	if held, _ := filepath.Glob("testdata/quality/heldout/*.labels"); len(held) > 0 {
		measureSet(t, "heldout/", "held-out total", held, func(t *testing.T, name string) *LLM { return nil })
	}
}

// TestQuality_LLM runs the same evaluation through the LLM distiller: a
// fake OpenAI-compatible server answers from testdata/quality/llm/NAME.json,
// the facts a careful model gives for the workspace's lines (written by
// hand, in the schema the dream asks for; no model runs in tests). Every
// answer must pass the dream's checks, so the figures are those of the
// model path, with the same targets.
func TestQuality_LLM(t *testing.T) {
	names, err := filepath.Glob("testdata/quality/*.labels")
	if err != nil || len(names) == 0 {
		t.Fatalf("no labelled workspaces in testdata/quality (%v)", err)
	}
	total := measureSet(t, "", "total (LLM)", names, func(t *testing.T, name string) *LLM {
		b, err := os.ReadFile("testdata/quality/llm/" + name + ".json")
		if err != nil {
			t.Fatalf("no recorded answers for %s: %v", name, err)
		}
		var rec struct {
			Facts []llmFact `json:"facts"`
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatalf("testdata/quality/llm/%s.json: %v", name, err)
		}
		url, _ := fakeModel(t, func(lines []llmLine) (int, string) { return http.StatusOK, refAnswer(lines, rec.Facts) })
		return &LLM{URL: url, Model: "tiny", Key: "test-key"}
	})
	if total != nil {
		checkTargets(t, total)
	}
}

// measureSet measures labelled workspaces, one subtest each (named with
// prefix), through the distiller llm gives for each (nil: the rule-based
// path), and logs their tables with a total; nil when a subtest failed.
func measureSet(t *testing.T, prefix, totalName string, labelFiles []string, llm func(t *testing.T, name string) *LLM) *qFigures {
	var rows []*qFigures
	total := &qFigures{name: totalName}
	for _, labelsPath := range labelFiles {
		name := strings.TrimSuffix(filepath.Base(labelsPath), ".labels")
		t.Run(prefix+name, func(t *testing.T) {
			f := measureWorkspace(t, name, labelsPath, llm(t, name))
			rows = append(rows, f)
			total.add(f)
			if *qualityDetails {
				t.Logf("%s: %d cases\n  %s", name, len(f.details), strings.Join(f.details, "\n  "))
			}
		})
	}
	if t.Failed() {
		return nil
	}
	t.Log(prefix + "\n" + qualityTable(append(rows, total)))
	return total
}

// measureWorkspace loads one labelled workspace, checks its labels, and
// measures the claims before the dream and the dream itself (through the
// LLM distiller when llm is set).
func measureWorkspace(t *testing.T, name, labelsPath string, llm *LLM) *qFigures {
	src, err := os.ReadFile(strings.TrimSuffix(labelsPath, ".labels") + ".txtar")
	if err != nil {
		t.Fatal(err)
	}
	lsrc, err := os.ReadFile(labelsPath)
	if err != nil {
		t.Fatal(err)
	}
	labels, err := parseQLabels(name, string(lsrc), txtar.Parse(src))
	if err != nil {
		t.Fatal(err)
	}
	dir := workspaceFrom(t, string(src))
	q := &qWorkspace{labels: labels, dir: dir, before: snapshot(t, dir), ws: load(t, dir), llm: llm}
	if errs := q.checkLabels(); len(errs) > 0 {
		t.Fatal(strings.Join(errs, "\n"))
	}
	f := &qFigures{name: name}
	q.measureClaims(f)
	q.measureDream(t, f)
	return f
}

// qRatio formats num/den as a ratio with its counts; "-" when there is
// nothing to divide.
func qRatio(num, den int) string {
	if den == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f (%d/%d)", float64(num)/float64(den), num, den)
}

// qualityTable prints the figures, one row per workspace and the total.
func qualityTable(rows []*qFigures) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "PROMOTION (every proposal chosen)\tpromoted\tprecision\trecall (facts)\tno line range\tungrounded\tmisfiled\tdup\tindex lines\tnew topics\tjunk topics\treplacements handled")
	for _, f := range rows {
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", f.name, f.promoted, qRatio(f.right, f.promoted),
			qRatio(f.factsFound, f.facts), f.unattributed, f.ungrounded, f.misfiled, f.duplicates, f.indexLines, f.newTopics, f.junk,
			qRatio(f.done, f.supersedes))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "EDITS\tcode changed\tinserted in lists/tables/code\tstub indexes\tcounts broken\tforeign events\tinvented dates\tentries lost\tdaily logs changed\tother files changed")
	for _, f := range rows {
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", f.name, f.changedCode, f.inserted, f.stubIndexes, f.brokenCounts,
			f.foreignEvents, f.invented, f.lost, f.dailyChanged, f.otherFiles)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "CLAIMS\tclaims\tprecision\trecall\tunlabelled\tcontradictions\tprecision\trecall\tevidence (any)\tevidence (right log)\tevidence precision")
	for _, f := range rows {
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", f.name, f.claims, qRatio(f.claimsReal, f.claims),
			qRatio(f.realFound, f.realLabels), f.unlabelled, f.contests, qRatio(f.contestsTrue, f.contests),
			qRatio(f.contraFound, f.contraLabels), qRatio(f.anyEvidence, f.claimsReal), qRatio(f.rightEvidence, f.withSources),
			qRatio(f.evidenceInFrom, f.evidenceItems))
	}
	w.Flush()
	return b.String()
}

// checkTargets asserts the acceptance figures the flags of qualityTargets
// turn on, on the totals. A ratio with nothing to divide (no promoted
// line, no reported contradiction) meets its target only through the
// recall figure that goes with it.
func checkTargets(t *testing.T, f *qFigures) {
	at := qualityTargets
	atLeast := func(what string, num, den int, want float64) {
		if den > 0 && float64(num) < want*float64(den) {
			t.Errorf("%s %s, want >= %.2f", what, qRatio(num, den), want)
		}
	}
	if at.enforceClaims {
		atLeast("claim precision", f.claimsReal, f.claims, at.claimPrecision)
		atLeast("claim recall", f.realFound, f.realLabels, at.claimRecall)
		atLeast("contradiction precision", f.contestsTrue, f.contests, at.contradictionPrecision)
		atLeast("contradiction recall", f.contraFound, f.contraLabels, at.contradictionRecall)
	}
	if !at.enforce {
		return
	}
	atLeast("promoted-line precision", f.right, f.promoted, at.promotedPrecision)
	atLeast("promoted-line recall", f.factsFound, f.facts, at.promotedRecall)
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"junk topic files", f.junk, at.junkTopics},
		{"changed code spans", f.changedCode, at.changedCode},
		{"lines inserted in lists, tables or code", f.inserted, at.inserted},
		{"stub index files", f.stubIndexes, at.stubIndexes},
		{"broken list counts", f.brokenCounts, at.brokenCounts},
	} {
		if c.got > c.want {
			t.Errorf("%s: %d, want <= %d", c.what, c.got, c.want)
		}
	}
}
