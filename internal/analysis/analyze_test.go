package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// vectorsFile is the table of analysis vectors shared with the TypeScript
// twin (see analyze_ts_test.go).
const vectorsFile = "../../testdata/analysis.json"

// analysisVector is one entry of testdata/analysis.json. Input stays raw so
// that rewriting the file keeps its escapes (a lone surrogate, invisible
// code points) as they were written.
type analysisVector struct {
	Name   string          `json:"name"`
	Input  json.RawMessage `json:"input"`
	Tokens []string        `json:"tokens"`
}

func (v analysisVector) text(t testing.TB) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(v.Input, &s); err != nil {
		t.Fatalf("%s: vector %q: input: %v", vectorsFile, v.Name, err)
	}
	return s
}

func readVectors(t testing.TB) []analysisVector {
	t.Helper()
	data, err := os.ReadFile(vectorsFile)
	if err != nil {
		t.Fatal(err)
	}
	var vs []analysisVector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatalf("%s: %v", vectorsFile, err)
	}
	return vs
}

// writeVectors writes the vectors one per line, so that a change of
// analysis shows up in review as a readable diff.
func writeVectors(t testing.TB, vs []analysisVector) {
	t.Helper()
	marshal := func(x any) string {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(x); err != nil {
			t.Fatal(err)
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	var b strings.Builder
	b.WriteString("[\n")
	for i, v := range vs {
		if v.Tokens == nil {
			v.Tokens = []string{}
		}
		fmt.Fprintf(&b, "  {\"name\": %s, \"input\": %s, \"tokens\": %s}", marshal(v.Name), v.Input, marshal(v.Tokens))
		if i < len(vs)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	if err := os.WriteFile(vectorsFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAnalyze_Vectors runs the shared vectors through Go. With
// -update-analysis it rewrites their tokens instead: review the diff.
func TestAnalyze_Vectors(t *testing.T) {
	vs := readVectors(t)
	if len(vs) < 120 {
		t.Errorf("%s has %d vectors; keep at least 120", vectorsFile, len(vs))
	}
	names := map[string]bool{}
	for i, v := range vs {
		if names[v.Name] {
			t.Errorf("vector name %q is not unique", v.Name)
		}
		names[v.Name] = true
		text := v.text(t)
		got := Analyze(text)
		checkTokens(t, text, AnalyzeTokens(text))
		if *updateAnalysis {
			vs[i].Tokens = got
			continue
		}
		if len(got) == 0 && len(v.Tokens) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, v.Tokens) {
			t.Errorf("%s: Analyze(%q)\n got %q\nwant %q", v.Name, text, got, v.Tokens)
		}
	}
	if *updateAnalysis {
		writeVectors(t, vs)
	}
}

// checkTokens checks what every analysis must satisfy, whatever the input.
func checkTokens(t testing.TB, text string, toks []Token) {
	t.Helper()
	valid := utf8.ValidString(text)
	boundary := func(i int) bool { return i == len(text) || utf8.RuneStart(text[i]) }
	maxPos := -1
	for i, tk := range toks {
		where := fmt.Sprintf("AnalyzeTokens(%q)[%d] = %+v", text, i, tk)
		switch {
		case tk.Start < 0 || tk.Start >= tk.End || tk.End > len(text):
			t.Fatalf("%s: span out of range", where)
		case valid && (!boundary(tk.Start) || !boundary(tk.End)):
			t.Fatalf("%s: span is not on rune boundaries", where)
		case tk.Term == "" || len(tk.Term) > MaxTermBytes || !utf8.ValidString(tk.Term):
			t.Fatalf("%s: term is empty, too long or not UTF-8", where)
		case strings.ToLower(tk.Term) != tk.Term:
			t.Fatalf("%s: term is not lower case", where)
		case tk.Pos < 0 || tk.Pos > maxPos+1:
			t.Fatalf("%s: position skips ahead of %d", where, maxPos)
		}
		if i > 0 {
			p := toks[i-1]
			if tk.Start < p.Start || tk.Start == p.Start && tk.End >= p.End || tk.Pos < p.Pos {
				t.Fatalf("%s: out of order after %+v", where, p)
			}
		}
		maxPos = max(maxPos, tk.Pos)
		// A term analyses to itself, so that a query for a term found in a
		// document finds it. A term cut to MaxTermBytes may end in a joiner,
		// which the second analysis drops.
		if len(tk.Term) <= MaxTermBytes-utf8.UTFMax {
			if again := Analyze(tk.Term); len(again) == 0 || again[0] != tk.Term {
				t.Fatalf("%s: the term analyses to %q", where, again)
			}
		}
	}
}

// TestAnalyze_DocExamples pins the examples of the Analyze documentation.
func TestAnalyze_DocExamples(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // terms joined by spaces
	}{
		{"E_AUTH_4031", "e_auth_4031 e auth 4031"},
		{"10.0.0.1:8080", "10.0.0.1:8080 10.0.0.1 10 0 0 1 8080"},
		{"memory/2026-10-21.md", "memory/2026-10-21.md memory 2026-10-21.md 2026-10-21 2026 10 21 md"},
		{"getUserName", "getusername get user name"},
		{"camelCase macOS", "camelcase camel case macos mac os"},
		{"HTTPServer HTTP2Response 3DModel", "httpserver http server http2response http2 response 3dmodel 3d model"},
		{"URLs IPv6 2FA sha256 v1", "urls ipv6 2fa sha256 v1"},
		{"end.", "end"},
		{"Σ ς σ", "σ σ σ"},
		{"Ａ ﬁ ² ① Ⅻ", "a fi 2 1 xii"},
		{"café Łódź Straße Ærø þorn ı", "cafe lodz strasse aero thorn i"},
		{"٣", "3"},
		{"ｶﾀｶﾅ", "カタ タカ カナ"},
		{"東京タワー", "東京 京タ タワ ワー"},
		{"Go言語", "go 言語"},
		{"か\u3099", "が"},
		{"猫", "猫"},
		{"ex\u00adample foo\u200bbar", "example foo bar"},
		{strings.Repeat("x", 70), strings.Repeat("x", MaxTermBytes)},
	} {
		if got := strings.Join(Analyze(tc.in), " "); got != tc.want {
			t.Errorf("Analyze(%q)\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func TestAnalyzeTokens_CompoundFormsShareTheFirstLeafPosition(t *testing.T) {
	text := "see E_AUTH_4031 now"
	want := []Token{
		{"see", 0, 3, 0},
		{"e_auth_4031", 4, 15, 1},
		{"e", 4, 5, 1},
		{"auth", 6, 10, 2},
		{"4031", 11, 15, 3},
		{"now", 16, 19, 4},
	}
	if got := AnalyzeTokens(text); !reflect.DeepEqual(got, want) {
		t.Errorf("AnalyzeTokens(%q)\n got %+v\nwant %+v", text, got, want)
	}
}

func TestAnalyzeTokens_SpansCoverWhatTheReaderSees(t *testing.T) {
	// Decomposed accents, soft hyphens and voicing marks belong to the
	// term they were folded into, so highlighting covers them.
	text := "cafe\u0301 ex\u00adample か\u3099く"
	var got []string
	for _, tk := range AnalyzeTokens(text) {
		got = append(got, text[tk.Start:tk.End])
	}
	want := []string{"cafe\u0301", "ex\u00adample", "か\u3099く"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("spans of %q: got %q, want %q", text, got, want)
	}
}

func TestAnalyze_LongTermsAreCutAtRuneBoundaries(t *testing.T) {
	// क is three bytes: 21 of them fit in 64 bytes, 22 do not.
	got := Analyze(strings.Repeat("क", 30))
	if want := strings.Repeat("क", 21); len(got) != 1 || got[0] != want {
		t.Errorf("got %q, want [%q]", got, want)
	}
}

func TestAnalyze_InvalidUTF8IsASeparator(t *testing.T) {
	if got, want := Analyze("ab\xffcd\xe2\x82"), []string{"ab", "cd"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// analyzeGeneral is AnalyzeTokens without the ASCII fast path.
func analyzeGeneral(text string) []tokSpan {
	s := segmenter{noFastPath: true}
	s.run(text)
	return s.toks
}

func analyzeFast(text string) []tokSpan {
	var s segmenter
	s.run(text)
	return s.toks
}

func TestAnalyze_FastPathAgreesWithGeneralPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "aAbBtTzZ0123456789 .-_/:@\\,!é"
	for range 20000 {
		b := make([]byte, 1+rng.IntN(12))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		text := string(b)
		if fast, general := analyzeFast(text), analyzeGeneral(text); !reflect.DeepEqual(fast, general) {
			t.Fatalf("%q: the fast path gives %v, the general path %v", text, fast, general)
		}
	}
}

// Builds analyse notes in parallel; pooled scratch must never be shared.
func TestAnalyze_ConcurrentCallsAgree(t *testing.T) {
	texts := []string{"E_AUTH_4031 at 10.0.0.1:8080", "東京タワーに行きました", "Łódź camelCaseName", strings.Repeat("word ", 500)}
	want := make([][]Token, len(texts))
	for i, text := range texts {
		want[i] = AnalyzeTokens(text)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for k := range 200 {
				i := (g + k) % len(texts)
				if got := AnalyzeTokens(texts[i]); !reflect.DeepEqual(got, want[i]) {
					t.Errorf("concurrent AnalyzeTokens(%q) differs", texts[i])
					return
				}
			}
		})
	}
	wg.Wait()
}

func FuzzAnalyze(f *testing.F) {
	for _, v := range readVectors(f) {
		f.Add(v.text(f))
	}
	f.Add("a\xff.b\xc0_C\u0301D")
	f.Add("\u3099\u00ad\u0301")
	f.Fuzz(func(t *testing.T, text string) {
		toks := AnalyzeTokens(text)
		checkTokens(t, text, toks)
		if fast, general := analyzeFast(text), analyzeGeneral(text); !reflect.DeepEqual(fast, general) {
			t.Fatalf("%q: the fast path gives %v, the general path %v", text, fast, general)
		}
		terms := Analyze(text)
		if len(terms) != len(toks) {
			t.Fatalf("Analyze and AnalyzeTokens disagree on %q", text)
		}
		for i := range terms {
			if terms[i] != toks[i].Term {
				t.Fatalf("Analyze and AnalyzeTokens disagree on %q", text)
			}
		}
	})
}

// benchText builds about 100 KB of text from samples, deterministically.
func benchText(samples ...string) string {
	var b strings.Builder
	for i := 0; b.Len() < 100_000; i++ {
		b.WriteString(samples[i%len(samples)])
		b.WriteByte('\n')
	}
	return b.String()
}

func BenchmarkAnalyze(b *testing.B) {
	for _, bc := range []struct {
		name string
		text string
	}{
		{"ascii", benchText(
			"The gateway host is the Mac mini in the office; it was moved there on 2026-03-31 after the NUC failed.",
			"User prefers TypeScript examples and short answers. Deploys happen on weekdays only, never on Fridays.",
			"- [feedback] Always run the tests before pushing. Why: CI is slow and a red build blocks the whole team.",
		)},
		{"code", benchText(
			"Error E_AUTH_4031 from 10.0.0.1:8080 in memory/2026-10-21.md; see getUserName() and HTTPServer.",
			"source=memory/2026-04-17.md:7-7 score=0.835 https://example.com/a/b?q=1 jane.doe@example.com v1.2.3",
		)},
		{"mixed", benchText(
			"Le café de l'hôtel est fermé à Noël. Die Straße über der Brücke. Łódź, Gdańsk i Wrocław.",
			"用 Go 写 gateway 服务，详见 daily notes 2026-03-31。東京タワーに行きました。안녕하세요 세계",
			"The gateway host is the Mac mini 🚀 — Привет, мир! Σίσυφος. مرحبا بالعالم",
		)},
		{"cjk", benchText(
			"我喜欢用中文写笔记，这是一个测试。東京タワーに行きました。ありがとうございます。",
			"안녕하세요 세계 서울에서 개발 한국어 텍스트 분석",
		)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			b.ReportAllocs()
			for b.Loop() {
				AnalyzeTokens(bc.text)
			}
		})
	}
}
