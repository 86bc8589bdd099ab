package build

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/provenance"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
	"github.com/dreamwiki/dreamwiki/vault"
)

// genWorkspace writes a synthetic workspace of about notes Markdown files
// holding claims claims (a fifth in MEMORY.md, the rest in 40 topic
// files): daily logs of list items made from a shared vocabulary, claims
// that reword a log line (half with a written pointer, some with a date
// pointer, the rest found only by matching), memory-meta.json, a recall
// store and other notes. The same arguments give the same files.
func genWorkspace(tb testing.TB, dir string, notes, claims int) {
	tb.Helper()
	r := rand.New(rand.NewPCG(42, uint64(notes)))
	people := []string{"Sam", "Aiko", "Priya", "Wei", "Tomás", "Lena", "Marta", "Rui", "Inês", "Kofi", "Lina", "Jonas", "Mia", "Kenji", "Petra", "Anke"}
	var hosts, words []string
	for i := 0; i < 80; i++ {
		hosts = append(hosts, fmt.Sprintf("host-%02d", i))
	}
	syll := []string{"ka", "lo", "mi", "ren", "sa", "tu", "vel", "dor", "pin", "qua", "zor", "bel", "cri", "fen", "gal", "hul"}
	for len(words) < 2000 {
		w := syll[r.IntN(len(syll))] + syll[r.IntN(len(syll))] + syll[r.IntN(len(syll))]
		words = append(words, w)
	}
	verbs := []string{"moved", "restarted", "configured", "reviewed", "deployed", "fixed", "backed up", "renamed", "upgraded", "tested"}
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	sentence := func() string {
		return fmt.Sprintf("%s %s the %s %s on %s at %02d:%02d, ticket %s-%d",
			pick(people), pick(verbs), pick(words), pick(words), pick(hosts), r.IntN(24), r.IntN(60), strings.ToUpper(pick(words)[:3]), r.IntN(9000)+1000)
	}
	write := func(name, content string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	const topics = 40
	daily := notes * 4 / 5
	start := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	type logLine struct {
		path string
		date time.Time
		line int
		text string
	}
	var lines []logLine
	for i := 0; i < daily; i++ {
		d := start.AddDate(0, 0, i)
		p := "memory/" + d.Format("2006-01-02") + ".md"
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", d.Format("2006-01-02"))
		n := 6 + r.IntN(5)
		for k := 0; k < n; k++ {
			s := sentence()
			lines = append(lines, logLine{p, d, 3 + k, s})
			b.WriteString("- " + s + ".\n")
		}
		write(p, b.String())
	}
	claim := func() (string, logLine) {
		l := lines[r.IntN(len(lines))]
		ws := strings.Fields(l.text)
		// Reword: drop a few words, keep the rest in order.
		var keep []string
		for _, w := range ws {
			if r.IntN(6) > 0 {
				keep = append(keep, w)
			}
		}
		text := strings.Join(keep, " ")
		switch r.IntN(10) {
		case 0, 1, 2, 3, 4:
			text += fmt.Sprintf(". Source: %s#L%d-L%d", l.path, l.line, l.line)
		case 5, 6:
			text += fmt.Sprintf(". (source: %s)", l.date.Format("2006-01-02"))
		}
		return text, l
	}
	type meta struct {
		ID          string `json:"id"`
		Text        string `json:"text"`
		Created     string `json:"created"`
		RecallCount int    `json:"recallCount"`
	}
	var metas []meta
	inIndex := claims / 5
	var mem strings.Builder
	mem.WriteString("# MEMORY.md\n\n> limit: 200 lines / 25KB\n\n")
	for i := 0; i < inIndex; i++ {
		if i%25 == 0 {
			fmt.Fprintf(&mem, "\n## Section %d\n", i/25)
		}
		text, l := claim()
		fmt.Fprintf(&mem, "- %s\n", text)
		metas = append(metas, meta{fmt.Sprintf("mem_%06d", i), strings.SplitN(text, ". Source", 2)[0], l.date.Format("2006-01-02"), r.IntN(25)})
	}
	write("MEMORY.md", mem.String())
	perTopic := (claims - inIndex + topics - 1) / topics
	for t := 0; t < topics; t++ {
		var b strings.Builder
		fmt.Fprintf(&b, "# Topic %d\n\nWhat I know about %s.\n\n## Facts\n", t, pick(words))
		for k := 0; k < perTopic && inIndex+t*perTopic+k < claims; k++ {
			text, _ := claim()
			fmt.Fprintf(&b, "- %s\n", text)
		}
		write(fmt.Sprintf("memory/topic-%02d.md", t), b.String())
	}
	data, _ := json.Marshal(map[string]any{"entries": metas})
	write("memory/memory-meta.json", string(data))
	recall := map[string]any{}
	for i := 0; i < 500; i++ {
		l := lines[r.IntN(len(lines))]
		recall[fmt.Sprintf("memory:%s:%d:%d", l.path, l.line, l.line)] = map[string]any{
			"path": l.path, "startLine": l.line, "endLine": l.line, "snippet": l.text, "recallCount": 1 + r.IntN(5),
			"lastRecalledAt": l.date.AddDate(0, 0, 3).Format(time.RFC3339),
		}
	}
	data, _ = json.Marshal(map[string]any{"version": 1, "entries": recall})
	write("memory/.dreams/short-term-recall.json", string(data))
	for i := 0; daily+topics+1+i < notes; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "# Note %d\n\n", i)
		for k := 0; k < 5; k++ {
			b.WriteString(sentence() + ". ")
		}
		b.WriteString("\n")
		write(fmt.Sprintf("notes/%02d/note-%d.md", i%50, i), b.String())
	}
}

// cpuSeconds is the CPU time this process has used: wall-clock figures
// on a shared machine mostly measure the neighbours.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// reportCPU reports CPU seconds per iteration beside ns/op.
func reportCPU(b *testing.B, start float64) {
	b.ReportMetric((cpuSeconds()-start)/float64(b.N), "cpu-s/op")
}

var benchWorkspaces = map[string]string{}

// benchWorkspace generates a workspace once per size for all benchmarks.
func benchWorkspace(b *testing.B, notes, claims int) string {
	key := fmt.Sprint(notes, claims)
	if dir, ok := benchWorkspaces[key]; ok {
		return dir
	}
	dir, err := os.MkdirTemp("", "dreamwiki-bench-")
	if err != nil {
		b.Fatal(err)
	}
	genWorkspace(b, dir, notes, claims)
	benchWorkspaces[key] = dir
	return dir
}

// BenchmarkVault_10000Notes2000Claims is vault generation, the issue's
// figure: read the workspace, link 2,000 claims to their evidence, build
// and write the vault (to memory, so the disk is not measured).
func BenchmarkVault_10000Notes2000Claims(b *testing.B) {
	dir := benchWorkspace(b, 10000, 2000)
	b.ResetTimer()
	cpu := cpuSeconds()
	defer reportCPU(b, cpu)
	for b.Loop() {
		ws, err := workspace.Load(dir, published())
		if err != nil {
			b.Fatal(err)
		}
		res := provenance.Analyze(ws, provenance.Options{Locate: vault.Locator(ws)})
		inputs, assets := vault.Assemble(ws, res)
		v := vault.Build(markdown.New(), inputs, assets, vault.Withheld(ws))
		v.Provenance = res
		if err := v.Write(context.Background(), output.NewMemory()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProvenance_Analyze measures the provenance stage alone at
// three sizes with the same share of claims: evidence matching walks an
// inverted index, so the time grows with the workspace, not with notes x
// claims.
func BenchmarkProvenance_Analyze(b *testing.B) {
	for _, n := range []int{2500, 5000, 10000} {
		b.Run(fmt.Sprintf("notes=%d/claims=%d", n, n/5), func(b *testing.B) {
			ws, err := workspace.Load(benchWorkspace(b, n, n/5), workspace.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			cpu := cpuSeconds()
			for b.Loop() {
				provenance.Analyze(ws, provenance.Options{})
			}
			reportCPU(b, cpu)
		})
	}
}

// TestBench_GeneratedWorkspaceHasItsClaimsAndEvidence keeps the benchmark
// honest: the generated workspace has the notes and claims it claims, and
// nearly every claim finds evidence.
func TestBench_GeneratedWorkspaceHasItsClaimsAndEvidence(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 1,000 files")
	}
	dir := t.TempDir()
	genWorkspace(t, dir, 1000, 200)
	ws, err := workspace.Load(dir, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ws.Files); n < 990 {
		t.Errorf("%d files, want about 1000", n)
	}
	res := provenance.Analyze(ws, provenance.Options{})
	with := 0
	for _, c := range res.Claims {
		if len(c.Evidence) > 0 {
			with++
		}
	}
	if len(res.Claims) != 200 || with < 190 {
		t.Errorf("%d claims, %d with evidence; want 200, nearly all", len(res.Claims), with)
	}
}
