package analysis

import (
	"slices"
	"strings"
	"testing"
)

func TestWordsAndCompounds_IdentifiersWholeThenByWord(t *testing.T) {
	for _, tc := range []struct{ in, words, compounds string }{
		{"Gateway host is the Mac mini.", "gateway host is the mac mini", "gateway host is the mac mini"},
		{"10.0.0.12:18789", "10 0 0 12 18789", "10.0.0.12:18789 10 0 0 12 18789"},
		{"E_AUTH_4031 from deployctl", "e auth 4031 from deployctl", "e_auth_4031 e auth 4031 from deployctl"},
		{"memory/2026-10-21.md#L4", "memory 2026 10 21 md l4", "memory/2026-10-21.md memory 2026 10 21 md l4"},
		{"Tomás in Sakyō-ku", "tomas in sakyo ku", "tomas in sakyo-ku sakyo ku"},
		{"京都旅行 Kyoto", "京都 都旅 旅行 kyoto", "京都 都旅 旅行 kyoto"},
		{"Ｆｕｌｌ width", "full width", "full width"},
		// camelCase stays one word: an identifier is written as one.
		{"OpenClaw getUserName HTTPServer", "openclaw getusername httpserver", "openclaw getusername httpserver"},
		{"mac-miniServer", "mac miniserver", "mac-miniserver mac miniserver"},
		{"a-", "a", "a"},
	} {
		if got := strings.Join(Words(tc.in), " "); got != tc.words {
			t.Errorf("Words(%q) = %q, want %q", tc.in, got, tc.words)
		}
		if got := strings.Join(WordsAndCompounds(tc.in), " "); got != tc.compounds {
			t.Errorf("WordsAndCompounds(%q) = %q, want %q", tc.in, got, tc.compounds)
		}
	}
}

func TestNormalize_CaseDiacriticsPunctuationAndJoinersDoNotCount(t *testing.T) {
	for _, in := range []string{"Mac-mini.", "mac mini", "MAC_MINI!", "  Mac   mini  "} {
		if got := Normalize(in); got != "mac mini" {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, "mac mini")
		}
	}
}

// FuzzWords_AreTermsOfAnalyze keeps Words a view of the one analysis, not
// a second one: every word and compound it gives is a term Analyze gives
// for the same text.
func FuzzWords_AreTermsOfAnalyze(f *testing.F) {
	for _, v := range readVectors(f) {
		f.Add(v.text(f))
	}
	f.Fuzz(func(t *testing.T, text string) {
		terms := Analyze(text)
		for _, w := range WordsAndCompounds(text) {
			if !slices.Contains(terms, w) {
				t.Fatalf("%q: %q is no term of Analyze %q", text, w, terms)
			}
		}
		words := Words(text)
		if fast, general := words, wordsGeneral(text); !slices.Equal(fast, general) {
			t.Fatalf("%q: the fast path gives words %q, the general path %q", text, fast, general)
		}
	})
}

func wordsGeneral(text string) []string {
	s := new(segmenter)
	s.noFastPath, s.words = true, true
	s.run(text)
	return s.terms()
}

func TestWordSets_ContentLeavesStopWordsOut(t *testing.T) {
	all, content := WordSet("The gateway is on the Mac mini"), ContentWordSet("The gateway is on the Mac mini")
	if len(all) != 6 || !all["the"] || !all["gateway"] {
		t.Errorf("WordSet = %v", all)
	}
	if len(content) != 3 || content["the"] || content["is"] || !content["mini"] {
		t.Errorf("ContentWordSet = %v", content)
	}
}

func TestStem_OnlyPlainEnglishWords(t *testing.T) {
	for in, want := range map[string]string{
		"points": "point", "retrained": "retrain", "run": "run", "e_auth_4031": "e_auth_4031",
		"caf\u00e9s": "caf\u00e9s", "2026": "2026",
	} {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}
