package build

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
	"github.com/dreamwiki/dreamwiki/site"
)

var (
	randomSeeds = flag.Int("random.seeds", 3, "seeds of TestSession_RandomEditsEqualFreshBuilds")
	randomSteps = flag.Int("random.steps", 200, "edits per seed of TestSession_RandomEditsEqualFreshBuilds")
	randomFirst = flag.Uint64("random.seed", 1, "first seed of TestSession_RandomEditsEqualFreshBuilds")
)

// randomAsOf is the date every build of the random test is judged at, so
// that decay, tiers and lapses never drift with the clock.
var randomAsOf = time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC)

// TestSession_RandomEditsEqualFreshBuilds edits a small workspace at
// random (notes, topic files, MEMORY.md and daily logs created, edited,
// renamed and deleted; files made private and public again; secrets
// written into text and file names) and checks after every step, once
// serve mode settled, that every file it serves is byte for byte what a
// fresh build of the same files writes, and that it serves nothing more.
//
// -random.seeds, -random.steps and -random.seed run it longer; -short
// and the race detector run fewer steps.
func TestSession_RandomEditsEqualFreshBuilds(t *testing.T) {
	seeds, steps := *randomSeeds, *randomSteps
	switch {
	case testing.Short():
		seeds, steps = 1, min(steps, 40)
	case raceDetector:
		seeds, steps = 1, min(steps, 60)
	}
	for i := range seeds {
		seed := *randomFirst + uint64(i)
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			t.Parallel()
			runRandomEdits(t, seed, steps)
		})
	}
}

func runRandomEdits(t *testing.T, seed uint64, steps int) {
	dir := t.TempDir()
	ed := &editor{t: t, dir: dir, r: rand.New(rand.NewPCG(seed, 14))}
	ed.seed()
	ctx := context.Background()
	opts := Options{Workspace: dir, AsOf: randomAsOf}
	w := output.NewMemory()
	s, ch, err := Open(ctx, opts, w)
	if err != nil {
		t.Fatal(err)
	}
	sv := served{}
	sv.apply(w, ch.Site)
	sv.settle(t, s)
	if d := siteDiff(sv, freshBuild(t, opts, nil, s.history)); d != "" {
		t.Fatalf("the first render differs from a build:\n%s", d)
	}
	var log []string
	for step := 1; step <= steps; step++ {
		prior := s.prov.Prior()
		what, paths := ed.step()
		log = append(log, fmt.Sprintf("%d: %s", step, what))
		ch := sv.update(t, s, paths)
		sv.settle(t, s)
		if d := siteDiff(sv, freshBuild(t, opts, prior, s.history)); d != "" {
			t.Fatalf("seed %d, step %d (%s; %s, %d later, removed %v): the served site differs from a fresh build:\n%s\n\nsteps:\n%s",
				seed, step, what, ch.Site, ch.Site.Later, ch.Site.Removed, d, strings.Join(log[max(0, len(log)-12):], "\n"))
		}
	}
}

// freshBuild builds the site of the workspace of opts afresh, as
// `dreamwiki build` does when its previous vault held the claims prior,
// with the memory's history hist: a session reads the past when it opens
// (and after a dream), and is compared with a build of that same past.
func freshBuild(t *testing.T, opts Options, prior []provenance.PriorClaim, hist *site.History) served {
	t.Helper()
	ws, err := workspace.Load(opts.Workspace, published())
	if err != nil {
		t.Fatal(err)
	}
	m, err := assemble(context.Background(), opts, ws, prior)
	if err != nil {
		t.Fatal(err)
	}
	m.History = hist
	w := output.NewMemory()
	if _, err := site.Build(context.Background(), m.Engine, m.Vault, m.SiteOptions(opts), w); err != nil {
		t.Fatal(err)
	}
	sv := served{}
	sv.put(w)
	return sv
}

// editor makes random edits to a workspace on disk.
type editor struct {
	t   *testing.T
	dir string
	r   *rand.Rand
	n   int // names made so far
}

// Words the workspace is written in: few, so that claims find their
// evidence in the logs by the words they share.
var (
	randPeople = []string{"Sam", "Aiko", "Priya", "Tomás", "Wei"}
	randVerbs  = []string{"moved", "fixed", "reviewed", "deployed", "renamed", "booked", "prefers", "runs"}
	randThings = []string{"the gateway", "the Mac mini", "the NUC", "the blog post", "the Kyoto trip", "the backup job",
		"the k3s cluster", "green tea", "the release branch", "the grafana board"}
	randTags    = []string{"#infra", "#travel", "#people/family", "#writing", "#infra/k8s"}
	randSecrets = []string{
		"ghp_" + "RandomEditFakeToken0123456789abcdefABCD",
		"AKIA" + "RANDOMEDIT0000042",
		"sk_live_" + "51RandomEditFakeKey000000000000",
	}
)

func (ed *editor) pick(list []string) string { return list[ed.r.IntN(len(list))] }

func (ed *editor) sentence() string {
	return ed.pick(randPeople) + " " + ed.pick(randVerbs) + " " + ed.pick(randThings)
}

// files lists the workspace's Markdown files of one kind, sorted.
func (ed *editor) files(kind string) []string {
	var out []string
	_ = filepath.WalkDir(ed.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		rel, _ := filepath.Rel(ed.dir, p)
		rel = filepath.ToSlash(rel)
		if fileKind(rel) == kind {
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// fileKind says what the random test takes a file for: "memory", "dream"
// (the dream journal), "daily" (memory/YYYY-MM-DD*.md), "topic" (other
// files of memory/, private ones included) or "note".
func fileKind(rel string) string {
	switch {
	case rel == "MEMORY.md":
		return "memory"
	case rel == dreamLogPath:
		return "dream"
	case strings.HasPrefix(rel, "memory/") && len(rel) > 17 && rel[7] >= '0' && rel[7] <= '9':
		return "daily"
	case strings.HasPrefix(rel, "memory/"):
		return "topic"
	}
	return "note"
}

func (ed *editor) read(rel string) string {
	b, err := os.ReadFile(filepath.Join(ed.dir, filepath.FromSlash(rel)))
	if err != nil {
		ed.t.Fatal(err)
	}
	return string(b)
}

func (ed *editor) write(rel, text string) { write(ed.t, ed.dir, rel, text) }

func (ed *editor) remove(rel string) {
	if err := os.Remove(filepath.Join(ed.dir, filepath.FromSlash(rel))); err != nil {
		ed.t.Fatal(err)
	}
}

// dreamLogPath is the dream journal: a dream appends its run there.
const dreamLogPath = "memory/dream-log.md"

// dreamRun is a run of the journal, as a dream writes it: a dated
// heading, its figures and what it did, citing a daily log.
func (ed *editor) dreamRun() string {
	day := 1 + ed.r.IntN(19)
	var b strings.Builder
	fmt.Fprintf(&b, "\n## 2026-03-%02d 07:%02d — dream\n\nConsolidated through: 2026-03-%02d\n", day, ed.r.IntN(60), day)
	fmt.Fprintf(&b, "Logs: %d\nPromoted: %d\nSuperseded: 0\n\n", 1+ed.r.IntN(5), ed.r.IntN(4))
	b.WriteString("- Promoted: " + ed.sentence() + ".")
	if logs := ed.files("daily"); len(logs) > 0 {
		b.WriteString(" ([[" + strings.TrimSuffix(strings.TrimPrefix(ed.pick(logs), "memory/"), ".md") + "]])")
	}
	b.WriteString("\n")
	return b.String()
}

// dailyPath is the log of a day of March 2026, with a suffix sometimes.
func (ed *editor) dailyPath() string {
	p := fmt.Sprintf("memory/2026-03-%02d", 1+ed.r.IntN(19))
	if ed.r.IntN(4) == 0 {
		p += fmt.Sprintf("-%02d%02d", ed.r.IntN(24), ed.r.IntN(60))
	}
	return p + ".md"
}

// pointer is an evidence pointer to an existing daily log, in one of the
// shapes MEMORY.md and topic files use.
func (ed *editor) pointer() string {
	logs := ed.files("daily")
	if len(logs) == 0 {
		return ""
	}
	l := ed.pick(logs)
	switch ed.r.IntN(4) {
	case 0:
		return fmt.Sprintf(" Source: %s#L%d-L%d", l, 3, 3+ed.r.IntN(2))
	case 1:
		return " (source: " + strings.TrimSuffix(strings.TrimPrefix(l, "memory/"), ".md")[:10] + ")"
	case 2:
		return " [[" + strings.TrimSuffix(strings.TrimPrefix(l, "memory/"), ".md") + "]]"
	}
	return ""
}

// line is a random line for a file of a kind.
func (ed *editor) line(kind string) string {
	s := ed.sentence()
	switch ed.r.IntN(10) {
	case 0:
		s += " " + ed.pick(randTags)
	case 1:
		s += " with token " + ed.pick(randSecrets)
	case 2:
		if notes := ed.files("note"); len(notes) > 0 {
			n := strings.TrimSuffix(ed.pick(notes), ".md")
			if ed.r.IntN(2) == 0 {
				n = n[strings.LastIndexByte(n, '/')+1:]
			}
			s += " (see [[" + n + "]])"
		}
	case 4:
		// A name that may not exist yet, or no longer: a note or alias
		// made later must take the link over.
		k := 1 + ed.r.IntN(ed.n+3)
		if ed.r.IntN(2) == 0 {
			s += fmt.Sprintf(" (see [[note-%d]])", k)
		} else {
			s += fmt.Sprintf(" (see [[Alias %d]])", k)
		}
	case 3:
		if kind != "daily" {
			s += " (permission: you may deploy until 2026-03-1" + fmt.Sprint(ed.r.IntN(10)) + ")"
		}
	}
	if kind == "memory" || kind == "topic" {
		s += "." + ed.pointer()
	}
	return "- " + s
}

// seed writes the first workspace.
func (ed *editor) seed() {
	ed.write("dreamwiki.toml", "title = \"Random edits\"\nprivate = [\"memory/private/**\"]\n")
	for range 5 {
		p := ed.dailyPath()
		ed.write(p, ed.daily(p))
	}
	for _, name := range []string{"gateway", "travel"} {
		ed.write("memory/"+name+".md", ed.topic(name))
	}
	ed.write("memory/private/health.md", "# Health\n\n- Sam sees the physio on Tuesdays.\n")
	var b strings.Builder
	b.WriteString("# MEMORY.md\n\n> limit: 40 lines / 4KB\n\n## People\n")
	for range 3 {
		b.WriteString(ed.line("memory") + "\n")
	}
	b.WriteString("\n## Infrastructure\n- The gateway runs on the Mac mini. See [[gateway]].\n")
	ed.write("MEMORY.md", b.String())
	for range 4 {
		ed.newNote()
	}
	ed.write("notes/assets/pixel.svg", `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>`)
}

func (ed *editor) daily(p string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", strings.TrimSuffix(strings.TrimPrefix(p, "memory/"), ".md"))
	for range 2 + ed.r.IntN(4) {
		b.WriteString(ed.line("daily") + "\n")
	}
	return b.String()
}

func (ed *editor) topic(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\nWhat I know about %s.\n\n## Facts\n", strings.ToUpper(name[:1])+name[1:], name)
	for range 2 + ed.r.IntN(3) {
		b.WriteString(ed.line("topic") + "\n")
	}
	return b.String()
}

// newNote writes an other note and returns its path: a new name, or now
// and then one used before.
func (ed *editor) newNote() string {
	ed.n++
	k := ed.n
	if ed.r.IntN(4) == 0 {
		k = 1 + ed.r.IntN(ed.n)
	}
	folder := ed.pick([]string{"notes", "notes/research", "projects"})
	p := fmt.Sprintf("%s/note-%d.md", folder, k)
	var b strings.Builder
	if ed.r.IntN(5) == 0 {
		b.WriteString("---\naliases: [Alias " + fmt.Sprint(k) + "]\n---\n")
	}
	fmt.Fprintf(&b, "# Note %d\n\n%s. ^n%d\n\n## Section\n\n%s\n", k, ed.sentence(), k, ed.line("note"))
	if others := ed.files("note"); len(others) > 0 && ed.r.IntN(2) == 0 {
		o := strings.TrimSuffix(ed.pick(others), ".md")
		switch ed.r.IntN(3) {
		case 0:
			fmt.Fprintf(&b, "\n![[%s]]\n", o)
		case 1:
			fmt.Fprintf(&b, "\nSee [[%s#Section]].\n", o)
		default:
			fmt.Fprintf(&b, "\n![[%s#^n%s]]\n", o, strings.TrimPrefix(o[strings.LastIndexByte(o, '/')+1:], "note-"))
		}
	}
	if ed.r.IntN(4) == 0 {
		b.WriteString("\n![pixel](assets/pixel.svg)\n")
	}
	ed.write(p, b.String())
	return p
}

// step makes one random edit and returns what it did and the workspace
// paths it touched.
func (ed *editor) step() (string, []string) {
	for {
		if what, paths, ok := ed.try(); ok {
			return what, paths
		}
	}
}

// try makes one random edit; ok is false when the edit it chose had
// nothing to work on.
func (ed *editor) try() (what string, paths []string, ok bool) {
	kinds := []string{"note", "note", "daily", "daily", "topic", "topic", "memory", "dream"}
	kind := ed.pick(kinds)
	files := ed.files(kind)
	if kind == "dream" && ed.r.IntN(3) > 0 {
		// A dream ran: its run is appended to the journal (which it
		// starts when there is none), as the dream writes it.
		text := "# Dream log\n"
		if len(files) > 0 {
			text = ed.read(dreamLogPath)
		}
		ed.write(dreamLogPath, text+ed.dreamRun())
		return "dream run in " + dreamLogPath, []string{dreamLogPath}, true
	}
	switch op := ed.r.IntN(20); {
	case op < 3: // create
		switch kind {
		case "note", "memory":
			p := ed.newNote()
			return "create " + p, []string{p}, true
		case "daily":
			p := ed.dailyPath()
			ed.write(p, ed.daily(p))
			return "create " + p, []string{p}, true
		default:
			ed.n++
			p := fmt.Sprintf("memory/topic-%d.md", ed.n)
			ed.write(p, ed.topic(fmt.Sprintf("topic %d", ed.n)))
			return "create " + p, []string{p}, true
		}
	case op < 5: // delete
		if len(files) == 0 {
			return "", nil, false
		}
		p := ed.pick(files)
		ed.remove(p)
		return "delete " + p, []string{p}, true
	case op < 7: // rename
		if len(files) == 0 || kind == "memory" {
			return "", nil, false
		}
		p := ed.pick(files)
		text := ed.read(p)
		var to string
		switch kind {
		case "daily":
			to = ed.dailyPath()
		case "topic":
			ed.n++
			to = fmt.Sprintf("memory/renamed-%d.md", ed.n)
			if ed.r.IntN(3) == 0 {
				to = fmt.Sprintf("memory/private/renamed-%d.md", ed.n) // private by the glob
			}
		default:
			ed.n++
			to = fmt.Sprintf("notes/renamed-%d.md", ed.n)
			if ed.r.IntN(4) == 0 {
				to = "notes/" + ed.pick(randSecrets) + "-keys.md" // a secret in a file name
			}
		}
		if to == p {
			return "", nil, false
		}
		ed.remove(p)
		ed.write(to, text)
		return "rename " + p + " to " + to, []string{p, to}, true
	case op < 9: // make private or public again
		if len(files) == 0 {
			return "", nil, false
		}
		p := ed.pick(files)
		text := ed.read(p)
		for _, fm := range []string{"---\nprivate: true\n---\n", "---\npublish: false\n---\n"} {
			if strings.HasPrefix(text, fm) {
				ed.write(p, strings.TrimPrefix(text, fm))
				return "make public " + p, []string{p}, true
			}
		}
		if strings.HasPrefix(text, "---\n") {
			return "", nil, false // its own front matter: leave it
		}
		fm := ed.pick([]string{"---\nprivate: true\n---\n", "---\npublish: false\n---\n"})
		ed.write(p, fm+text)
		return "make private " + p, []string{p}, true
	default: // edit
		if len(files) == 0 {
			return "", nil, false
		}
		p := ed.pick(files)
		text := ed.read(p)
		lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
		var how string
		switch e := ed.r.IntN(6); {
		case e == 0 && len(lines) > 3: // remove a line
			i := 2 + ed.r.IntN(len(lines)-2)
			how = "remove line " + fmt.Sprint(i+1)
			lines = append(lines[:i], lines[i+1:]...)
		case e == 1: // insert near the top: every line below moves
			how = "insert at line 3"
			lines = append(lines[:min(2, len(lines))], append([]string{ed.line(kind)}, lines[min(2, len(lines)):]...)...)
		case e == 2 && len(lines) > 2: // reword a line
			i := 2 + ed.r.IntN(len(lines)-2)
			how = "reword line " + fmt.Sprint(i+1)
			lines[i] = strings.Replace(lines[i], ed.pick(randThings), ed.pick(randThings), 1) + " " + ed.pick(randVerbs)
		case e == 3 && lines[0] != "" && strings.HasPrefix(lines[0], "# "): // retitle
			how = "retitle"
			lines[0] = "# " + ed.sentence()
		default: // append
			how = "append"
			lines = append(lines, ed.line(kind))
		}
		ed.write(p, strings.Join(lines, "\n")+"\n")
		return "edit " + p + ": " + how, []string{p}, true
	}
}
