// Package synth generates synthetic agent workspaces of any size for
// benchmarks and property tests: daily logs, L2 topic files, a MEMORY.md
// with pointers, and ordinary notes that link to each other, carry tags,
// headings, lists, callouts and code. The same seed gives the same files.
package synth

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Options shape a generated workspace.
type Options struct {
	// Notes is the total number of Markdown files to write.
	Notes int
	// Seed makes the content reproducible.
	Seed int64
	// Start is the date of the first daily log (default 2026-01-01).
	Start time.Time
	// Shape is how curated entries and decisions are written (default
	// ShapeUniform).
	Shape Shape
	// RecallBytes, when above 0, also writes a recall store of at least
	// that size (RecallStore) to memory/.dreams/short-term-recall.json,
	// its entries pointing at the daily logs.
	RecallBytes int
}

// Shape is how the entries of topic files and the decisions of daily logs
// are written.
type Shape string

const (
	// ShapeUniform writes each as a plain sentence.
	ShapeUniform Shape = "uniform"
	// ShapeKeys opens each with a list key, "Decision:" or "Next:", as
	// real workspaces log decisions and next steps ("Decision: … ",
	// "Next: …"): a 1,000-note workspace has 600 topic-file lines under
	// each key. Otherwise the workspace is the uniform one of the same seed,
	// word for word, so the two shapes time the same work but for the
	// keys.
	ShapeKeys Shape = "keys"
)

// Shapes are the shapes Write knows.
var Shapes = []Shape{ShapeUniform, ShapeKeys}

// keyed is s with its first word replaced by the i-th list key in the keys
// shape, s itself in the uniform one.
func (sh Shape) keyed(s string, i int) string {
	if sh != ShapeKeys {
		return s
	}
	_, rest, _ := strings.Cut(s, " ")
	return []string{"Decision: ", "Next: "}[i%2] + rest
}

var words = strings.Fields(`gateway host cluster deploy migration service latency budget review
incident runbook alert metric token rotation backup restore schedule meeting decision
preference feedback project reference person team release branch commit pipeline cache
database index query search memory dream claim evidence topic archive summary digest
kubernetes helm chart ingress certificate dns proxy router firewall vpn storage volume
travel flight hotel kyoto lisbon birthday dinner book reading writing draft blog post`)

var tags = []string{"infra", "infra/k8s", "people", "travel", "writing", "ops/oncall", "home", "project/migration"}

// Write generates a workspace in dir (which must exist or be creatable).
// Half the notes are daily logs, a tenth are L2 topic files, the rest are
// ordinary notes in a few folders.
func Write(dir string, o Options) error {
	if o.Start.IsZero() {
		o.Start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if o.Shape == "" {
		o.Shape = ShapeUniform
	}
	if !slices.Contains(Shapes, o.Shape) {
		return fmt.Errorf("unknown shape %q (want one of %v)", o.Shape, Shapes)
	}
	r := rand.New(rand.NewSource(o.Seed))
	daily := o.Notes / 2
	topics := max(o.Notes/10, 1)
	notes := max(o.Notes-daily-topics-1, 0)

	var names []string // link targets: topics and notes
	for i := 0; i < topics; i++ {
		names = append(names, fmt.Sprintf("topic-%d", i))
	}
	for i := 0; i < notes; i++ {
		names = append(names, fmt.Sprintf("note-%d", i))
	}
	write := func(rel, content string) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(content), 0o644)
	}

	var mem strings.Builder
	mem.WriteString("# Memory\n\n> limit: 200 lines / 25KB\n\n## Topics\n")
	for i := 0; i < min(topics, 60); i++ {
		fmt.Fprintf(&mem, "- %s. See [[topic-%d]].\n", sentence(r, 8), i)
	}
	if err := write("MEMORY.md", mem.String()); err != nil {
		return err
	}
	for i := 0; i < daily; i++ {
		if err := write("memory/"+dailyLogName(o.Start, i)+".md", dailyLog(r, names, o.Shape)); err != nil {
			return err
		}
	}
	if o.RecallBytes > 0 {
		if err := write("memory/.dreams/short-term-recall.json", string(RecallStore(o.RecallBytes, o.Seed, o.Start, daily))); err != nil {
			return err
		}
	}
	for i := 0; i < topics; i++ {
		if err := write(fmt.Sprintf("memory/topic-%d.md", i), topic(r, i, names, o.Start, o.Shape)); err != nil {
			return err
		}
	}
	for i := 0; i < notes; i++ {
		folder := []string{"notes", "notes/research", "notes/people", "projects"}[i%4]
		if err := write(fmt.Sprintf("%s/note-%d.md", folder, i), note(r, i, names)); err != nil {
			return err
		}
	}
	return nil
}

func sentence(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = words[r.Intn(len(words))]
	}
	s := strings.Join(w, " ")
	return strings.ToUpper(s[:1]) + s[1:]
}

func link(r *rand.Rand, names []string) string {
	if len(names) == 0 {
		return "nothing"
	}
	return "[[" + names[r.Intn(len(names))] + "]]"
}

func dailyLog(r *rand.Rand, names []string, sh Shape) string {
	var b strings.Builder
	b.WriteString("## Notes\n")
	for i := 0; i < 6+r.Intn(6); i++ {
		fmt.Fprintf(&b, "- %s %s.\n", sentence(r, 6+r.Intn(10)), link(r, names))
	}
	b.WriteString("\n## Decisions\n")
	for i := 0; i < 2+r.Intn(3); i++ {
		fmt.Fprintf(&b, "- %s #%s\n", sh.keyed(sentence(r, 10), i), tags[r.Intn(len(tags))])
	}
	return b.String()
}

func topic(r *rand.Rand, i int, names []string, start time.Time, sh Shape) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Topic %d\n\n", i)
	for s := 0; s < 3; s++ {
		fmt.Fprintf(&b, "## %s\n", sentence(r, 3))
		for j := 0; j < 4; j++ {
			d := start.AddDate(0, 0, r.Intn(365)).Format("2006-01-02")
			fmt.Fprintf(&b, "- %s. Source: memory/%s.md#L2-L2\n", sh.keyed(sentence(r, 9), j), d)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Related: %s, %s\n", link(r, names), link(r, names))
	return b.String()
}

func note(r *rand.Rand, i int, names []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntitle: Note %d\ntags: [%s]\n---\n\n# Note %d\n\n", i, tags[r.Intn(len(tags))], i)
	for p := 0; p < 3; p++ {
		fmt.Fprintf(&b, "%s %s, and %s. %s ==%s==.\n\n", sentence(r, 12), link(r, names), sentence(r, 6), sentence(r, 8), words[r.Intn(len(words))])
		fmt.Fprintf(&b, "## %s\n\n", sentence(r, 3))
		for j := 0; j < 4; j++ {
			fmt.Fprintf(&b, "- %s\n", sentence(r, 7))
		}
		b.WriteString("\n")
	}
	if i%5 == 0 {
		fmt.Fprintf(&b, "> [!tip] %s\n> %s\n\n", sentence(r, 3), sentence(r, 12))
	}
	if i%7 == 0 {
		b.WriteString("```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\n")
	}
	fmt.Fprintf(&b, "| key | value |\n|---|---|\n| %s | %s |\n", words[r.Intn(len(words))], words[r.Intn(len(words))])
	return b.String()
}
