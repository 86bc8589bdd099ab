package build

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/demo"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/site"
)

// served is a site kept in memory the way serve mode keeps it: the files
// of each update laid over the earlier ones.
type served map[string][]byte

// apply lays the files of an update over the site: a full render replaces
// every file that Finish does not write; otherwise the files the update
// says are gone go.
func (sv served) apply(w *output.Memory, st site.UpdateStats) {
	if st.Full {
		for name := range sv {
			if !site.Deferred(name) {
				delete(sv, name)
			}
		}
	}
	for _, name := range st.Removed {
		delete(sv, name)
	}
	sv.put(w)
}

// finish lays the files of a Finish over the site: the search index is
// replaced as a whole.
func (sv served) finish(w *output.Memory) {
	names := w.Names()
	wrote := false
	for _, n := range names {
		wrote = wrote || strings.HasPrefix(n, "search/")
	}
	if wrote {
		for name := range sv {
			if strings.HasPrefix(name, "search/") {
				delete(sv, name)
			}
		}
	}
	sv.put(w)
}

// openServed opens a session on the workspace in dir and keeps its first
// render, as serve mode does.
func openServed(t *testing.T, dir string) (*Session, served, *Change) {
	t.Helper()
	w := output.NewMemory()
	s, ch, err := Open(context.Background(), Options{Workspace: dir}, w)
	if err != nil {
		t.Fatal(err)
	}
	sv := served{}
	sv.apply(w, ch.Site)
	return s, sv, ch
}

// update brings s up to date after paths changed and lays what it
// rendered over the site.
func (sv served) update(t *testing.T, s *Session, paths []string) *Change {
	t.Helper()
	w := output.NewMemory()
	ch, err := s.Update(context.Background(), paths, w)
	if err != nil {
		t.Fatal(err)
	}
	sv.apply(w, ch.Site)
	return ch
}

// provenance runs the provenance the session waits for, if any, and lays
// what it rendered over the site.
func (sv served) provenance(t *testing.T, s *Session) {
	t.Helper()
	if !s.Pending() {
		return
	}
	w := output.NewMemory()
	ch, applied, err := s.ApplyProvenance(context.Background(), s.ProvenanceJob()(), w)
	if err != nil || !applied {
		t.Fatalf("applying provenance: %v (applied %v)", err, applied)
	}
	sv.apply(w, ch.Site)
}

// settle does what serve mode does once changes pause: provenance, then
// the deferred files.
func (sv served) settle(t *testing.T, s *Session) {
	t.Helper()
	sv.provenance(t, s)
	w := output.NewMemory()
	if err := s.Finish(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	sv.finish(w)
}

func (sv served) put(w *output.Memory) {
	for _, n := range w.Names() {
		b, _ := w.Get(n)
		sv[n] = b
	}
}

// siteDiff lists how got differs from want.
func siteDiff(got, want served) string {
	var out []string
	for n, b := range want {
		g, ok := got[n]
		switch {
		case !ok:
			out = append(out, "missing "+n)
		case !bytes.Equal(g, b):
			out = append(out, "differs "+n+firstDifference(g, b))
		}
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			out = append(out, "extra "+n)
		}
	}
	sort.Strings(out)
	if len(out) > 12 {
		out = append(out[:12], fmt.Sprintf("… and %d more", len(out)-12))
	}
	return strings.Join(out, "\n")
}

func firstDifference(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-60, 0)
	return fmt.Sprintf(" at byte %d:\n   got …%q\n  want …%q", i, a[lo:min(i+60, len(a))], b[lo:min(i+60, len(b))])
}

// demoDir writes the demo workspace, plus a scratch note nothing cites,
// into a temporary folder.
func demoDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, demo.FS()); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "notes/scratch.md", "# Scratch\n\nA note that links to the [[reading-list]] and embeds a quote:\n\n![[reading-list#^key-quote]]\n\n## Section\n\nText.\n")
	write(t, dir, "notes/quoting.md", "# Quoting\n\n![[scratch]]\n")
	write(t, dir, "notes/deep.md", "# Deep\n\n![[quoting]]\n")
	write(t, dir, "notes/anchor.md", "# Anchor\n\nSee [[scratch#Section]].\n")
	write(t, dir, "notes/alpha.md", "# Alpha\n")
	write(t, dir, "notes/beta.md", "# Beta\n")
	return dir
}

func write(t *testing.T, dir, p, text string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func edit(t *testing.T, dir, p, old, new string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s does not contain %q", p, old)
	}
	write(t, dir, p, strings.Replace(string(b), old, new, 1))
}

// TestSession_UpdatesEqualFullBuilds edits the demo workspace in every way
// that matters to the site, one change after another, and checks after
// each that the site the session keeps is byte for byte a fresh build of
// the new workspace.
func TestSession_UpdatesEqualFullBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo site many times")
	}
	dir := demoDir(t)
	ctx := context.Background()
	s, sv, ch := openServed(t, dir)
	w := output.NewMemory()
	if err := s.Finish(ctx, w); err != nil {
		t.Fatal(err)
	}
	sv.finish(w)
	fullPages := ch.Site.Pages
	if d := siteDiff(sv, freshBuild(t, Options{Workspace: dir}, nil, s.history)); d != "" {
		t.Fatalf("the first render differs from a build:\n%s", d)
	}

	type step struct {
		name  string
		edit  func(t *testing.T)
		paths []string
		// fast: provenance is not run and few pages are rendered.
		fast bool
	}
	steps := []step{
		{"retitle a note: the explorer of its folder changes", func(t *testing.T) {
			edit(t, dir, "notes/alpha.md", "# Alpha", "# Aardvark")
		}, []string{"notes/alpha.md"}, true},
		{"rename the heading a link points to", func(t *testing.T) {
			edit(t, dir, "notes/scratch.md", "## Section", "## Part")
		}, []string{"notes/scratch.md"}, true},
		{"edit the body of an other note", func(t *testing.T) {
			edit(t, dir, "notes/scratch.md", "A note that links", "A short note that links")
		}, []string{"notes/scratch.md"}, true},
		{"retitle an embedded note", func(t *testing.T) {
			edit(t, dir, "notes/scratch.md", "# Scratch", "# Scratchpad")
		}, []string{"notes/scratch.md"}, true},
		{"add a link to an other note", func(t *testing.T) {
			edit(t, dir, "notes/quoting.md", "![[scratch]]", "![[scratch]]\n\nSee also [[gift-ideas]] and [[blog]].")
		}, []string{"notes/quoting.md"}, true},
		{"break the front matter", func(t *testing.T) {
			write(t, dir, "notes/quoting.md", "---\ntitle: [unclosed\n---\n# Quoting\n\n![[scratch]]\n")
		}, []string{"notes/quoting.md"}, true},
		{"fix the front matter", func(t *testing.T) {
			write(t, dir, "notes/quoting.md", "---\ntitle: Quoting\n---\n# Quoting\n\n![[scratch]]\n")
		}, []string{"notes/quoting.md"}, true},
		{"reword a claim a supersession chain shows", func(t *testing.T) {
			edit(t, dir, "MEMORY.md", "- Gateway host is the Mac mini. Source:", "- Gateway host is the Mac mini M2. Source:")
		}, []string{"MEMORY.md"}, false},
		{"edit a daily log", func(t *testing.T) {
			edit(t, dir, "memory/2026-10-21.md", "\n- ", "\n- Sam confirmed the move on a call. \n- ")
		}, []string{"memory/2026-10-21.md"}, false},
		{"edit an entry of MEMORY.md", func(t *testing.T) {
			edit(t, dir, "MEMORY.md", "\n- ", "\n- Sam drinks his coffee black.\n- ")
		}, []string{"MEMORY.md"}, false},
		{"edit a topic file", func(t *testing.T) {
			edit(t, dir, "memory/gateway.md", "\n## ", "\n## Notes from the move\n\nThe rack is in the hall closet.\n\n## ")
		}, []string{"memory/gateway.md"}, false},
		{"tag an other note with an existing tag", func(t *testing.T) {
			edit(t, dir, "notes/scratch.md", "A short note", "A #reading short note")
		}, []string{"notes/scratch.md"}, false},
		{"tag an other note with a new tag", func(t *testing.T) {
			edit(t, dir, "notes/scratch.md", "A #reading short note", "A #reading #brand-new short note")
		}, []string{"notes/scratch.md"}, false},
		{"add a note", func(t *testing.T) {
			write(t, dir, "notes/new.md", "# New\n\nLinks to [[scratch]].\n")
		}, []string{"notes/new.md"}, false},
		{"make a note private", func(t *testing.T) {
			write(t, dir, "notes/new.md", "---\nprivate: true\n---\n# New\n\nLinks to [[scratch]].\n")
		}, []string{"notes/new.md"}, false},
		{"remove a note", func(t *testing.T) {
			if err := os.Remove(filepath.Join(dir, "notes/quoting.md")); err != nil {
				t.Fatal(err)
			}
		}, []string{"notes/quoting.md"}, false},
		{"change an image", func(t *testing.T) {
			write(t, dir, "notes/assets/diagram.svg", `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>`)
		}, []string{"notes/assets/diagram.svg"}, false},
		{"save a file unchanged", func(t *testing.T) {}, []string{"notes/scratch.md"}, true},
	}
	for i, st := range steps {
		// Under the race detector a build takes ~10 s: every step still
		// runs, every fourth (and the last) is compared with a build.
		check := !raceDetector || i%4 == 0 || i == len(steps)-1
		t.Run(st.name, func(t *testing.T) {
			prior := s.prov.Prior()
			st.edit(t)
			ch := sv.update(t, s, st.paths)
			if st.fast {
				if ch.Provenance || ch.Pending {
					t.Error("provenance ran again")
				}
				if ch.Site.Full || ch.Site.Pages*10 > fullPages {
					t.Errorf("rendered %d of %d pages (full %v)", ch.Site.Pages, fullPages, ch.Site.Full)
				}
			}
			if !check {
				sv.provenance(t, s)
				return
			}
			sv.settle(t, s)
			if d := siteDiff(sv, freshBuild(t, Options{Workspace: dir}, prior, s.history)); d != "" {
				t.Fatalf("after the update the site differs from a build (%s; pages %v):\n%s", ch.Site, ch.Site.Notes, d)
			}
		})
	}
}

// TestSession_StaleProvenanceIsNotApplied edits an evidence file twice
// while provenance runs over the first edit: the first run's result is
// stale, and the second run's gives the site of the final workspace.
func TestSession_StaleProvenanceIsNotApplied(t *testing.T) {
	dir := demoDir(t)
	ctx := context.Background()
	s, sv, _ := openServed(t, dir)
	prior := s.prov.Prior()
	edit(t, dir, "memory/2026-10-21.md", "\n- ", "\n- First edit. \n- ")
	ch := sv.update(t, s, []string{"memory/2026-10-21.md"})
	if !ch.Pending || ch.Provenance {
		t.Fatalf("an edit of a daily log: pending %v, provenance %v; want it rendered first, provenance after", ch.Pending, ch.Provenance)
	}
	if ch.Site.Pages == 0 || ch.Site.Pages > 5 {
		t.Errorf("the first render of a daily log edit rendered %d pages (%v)", ch.Site.Pages, ch.Site.Notes)
	}
	first := s.ProvenanceJob()
	edit(t, dir, "memory/2026-10-21.md", "\n- ", "\n- Second edit. \n- ")
	sv.update(t, s, []string{"memory/2026-10-21.md"})
	if _, applied, err := s.ApplyProvenance(ctx, first(), output.NewMemory()); err != nil || applied {
		t.Fatalf("a stale provenance run was applied (%v)", err)
	}
	if !s.Pending() {
		t.Fatal("the session no longer waits for provenance")
	}
	sv.settle(t, s)
	if d := siteDiff(sv, freshBuild(t, Options{Workspace: dir}, prior, s.history)); d != "" {
		t.Fatalf("the site differs from a build:\n%s", d)
	}
}

// TestSession_TopicEditRendersAtOnce edits a topic file, inserting an
// entry between others, while the provenance run over a daily log's edit
// goes on in another goroutine, as serve mode runs it. The topic file's
// page is rendered at once: the lines it still has keep their claim links,
// moved to where they are now, and the new entry has none yet (never a
// link meant for another line). The run over the daily log is then
// stale, and once provenance runs again the new entry has its claim and
// the site is a build's of the final workspace.
func TestSession_TopicEditRendersAtOnce(t *testing.T) {
	dir := demoDir(t)
	ctx := context.Background()
	s, sv, _ := openServed(t, dir)
	prior := s.prov.Prior()
	const topic, note = "memory/gateway.md", "topics/gateway.md"
	linked := claimLinks(t, s, note)
	edit(t, dir, "memory/2026-10-21.md", "\n- ", "\n- Sam confirmed the move on a call. \n- ")
	sv.update(t, s, []string{"memory/2026-10-21.md"})
	job := s.ProvenanceJob()
	running := make(chan *ProvenanceResult, 1)
	go func() { running <- job() }()
	const added = "The rack is in the hall closet."
	edit(t, dir, topic, "\n## ", "\n## Notes from the move\n\n- "+added+"\n\n## ")
	if ch := sv.update(t, s, []string{topic}); ch.Provenance || !ch.Pending {
		t.Fatalf("a topic file's edit: provenance %v, pending %v; want it rendered first, provenance after", ch.Provenance, ch.Pending)
	}
	now := claimLinks(t, s, note)
	if len(now) != len(linked) {
		t.Errorf("before provenance the edited file has %d claim links, want the %d it had", len(now), len(linked))
	}
	for line, link := range now {
		if linked[line] != link {
			t.Errorf("before provenance %q links %s; it linked %q", line, link, linked[line])
		}
	}
	if _, applied, err := s.ApplyProvenance(ctx, <-running, output.NewMemory()); err != nil || applied {
		t.Fatalf("the run over the earlier workspace was applied (%v)", err)
	}
	sv.settle(t, s)
	if _, ok := claimLinks(t, s, note)["- "+added]; !ok {
		t.Errorf("after provenance the new entry has no claim link")
	}
	if d := siteDiff(sv, freshBuild(t, Options{Workspace: dir}, prior, s.history)); d != "" {
		t.Fatalf("the site differs from a build:\n%s", d)
	}
}

// claimLinks maps each line of the vault note at p that links a claim
// note, without its links, to the links.
func claimLinks(t *testing.T, s *Session, p string) map[string]string {
	t.Helper()
	n := s.Vault().Note(p)
	if n == nil {
		t.Fatalf("no vault note %s", p)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(s.Vault().Markdown(n)), "\n") {
		if i := strings.Index(line, " [[claims/"); i >= 0 {
			out[line[:i]] = line[i:]
		}
	}
	return out
}
