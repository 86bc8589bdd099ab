package memory

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
)

// Line is a range of lines of a workspace file that a recall may match: an
// entry of MEMORY.md or an L2 file, or an item of a daily log.
type Line struct {
	Path      string `json:"path"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	Text      string `json:"text"`
}

// Match is a Line a recall matched, with how well.
type Match struct {
	Line
	// Score is in [0, 1]: 1 for the same text, 0.6 to 1 for one text inside
	// the other (by how much of the longer one it covers), else the word
	// overlap (Jaccard) of the two.
	Score float64 `json:"score"`
	// How is "exact", "substring" or "overlap".
	How string `json:"how"`
}

// MinOverlap is the word overlap (Jaccard) a line needs to match a recall
// when no line holds the text itself.
const MinOverlap = 0.5

// MatchRecall finds the lines a recalled text refers to, as the seed's
// recall logger does: the same text first (compared as analysis.Normalize
// gives them), else lines containing it or contained in it, else lines
// sharing at least half their words with it. Only the first stage that
// finds anything counts, so an exact hit is never diluted by loose ones.
// At most limit matches are returned (limit <= 0: all), best first, then
// by path and line.
func MatchRecall(text string, lines []Line, limit int) []Match {
	q := analysis.Normalize(text)
	if q == "" {
		return nil
	}
	var exact, sub, over []Match
	qw := contentWords(text)
	for _, l := range lines {
		t := analysis.Normalize(l.Text)
		if t == "" {
			continue
		}
		switch {
		case t == q:
			exact = append(exact, Match{Line: l, Score: 1, How: "exact"})
		case strings.Contains(t, q) || strings.Contains(q, t) && len(t) >= 12:
			short, long := len(q), len(t)
			if short > long {
				short, long = long, short
			}
			sub = append(sub, Match{Line: l, Score: round3(0.6 + 0.4*float64(short)/float64(long)), How: "substring"})
		case len(exact) == 0 && len(sub) == 0:
			if j := analysis.Jaccard(qw, contentWords(l.Text)); j >= MinOverlap {
				over = append(over, Match{Line: l, Score: round3(j), How: "overlap"})
			}
		}
	}
	out := exact
	switch {
	case len(out) > 0:
	case len(sub) > 0:
		out = sub
	default:
		out = over
	}
	slices.SortStableFunc(out, func(a, b Match) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return cmp.Compare(a.StartLine, b.StartLine)
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

// contentWords is the set of words of s that say what it is about.
func contentWords(s string) map[string]bool {
	set := analysis.WordSet(s)
	for w := range set {
		if StopWord(w) {
			delete(set, w)
		}
	}
	return set
}
