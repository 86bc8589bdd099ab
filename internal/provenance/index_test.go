package provenance

import (
	"reflect"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// TestCorpus_ExtendIndexesAsNewCorpus extends a corpus by two daily logs
// (one with words the corpus has never seen, one empty) and checks that
// the result is what indexing all the logs at once gives — the same term
// ids, posting lists, weights and units — and that the corpus extended
// is left as it was.
func TestCorpus_ExtendIndexesAsNewCorpus(t *testing.T) {
	logs := []string{
		"# 2026-03-01\n\n- Moved the gateway to the NUC.\n- Sam prefers short answers.\n",
		"# 2026-03-02\n\n- The NUC runs the gateway; backups go to the NAS.\n",
		"# 2026-03-03\n\n- Quokka firmware flashed; the gateway rebooted twice.\n\n- Sam said: short answers.\n",
		"",
	}
	sources := func(from, to int) []*source {
		var out []*source
		for i := from; i < to; i++ {
			text := logs[i]
			lines := mdline.Split(text)
			s := &source{path: "memory/log" + itoa(i) + ".md", kind: SourceDaily, date: time.Date(2026, 3, i+1, 0, 0, 0, 0, time.UTC), lines: lines}
			s.blocks = fileBlocks(lines, nil)
			s.pieces = piecesOf(s.blocks)
			var tm termer
			s.termAll(&tm)
			out = append(out, s)
		}
		return out
	}
	first := newCorpus(sources(0, 2), 0)
	before := len(first.ids)
	got := first.extend(sources(2, len(logs)))
	want := newCorpus(sources(0, len(logs)), 0)
	if !reflect.DeepEqual(got.ids, want.ids) || !reflect.DeepEqual(got.postings, want.postings) ||
		!reflect.DeepEqual(got.idf, want.idf) || got.unknownIDF != want.unknownIDF || got.commonDF != want.commonDF {
		t.Fatalf("extended corpus differs:\n got ids %v postings %v idf %v\nwant ids %v postings %v idf %v",
			got.ids, got.postings, got.idf, want.ids, want.postings, want.idf)
	}
	if len(got.units) != len(want.units) {
		t.Fatalf("%d units, want %d", len(got.units), len(want.units))
	}
	for i, u := range got.units {
		w := want.units[i]
		if u.src.path != w.src.path || u.piece != w.piece || !reflect.DeepEqual(u.terms, w.terms) || u.weight != w.weight {
			t.Errorf("unit %d: %s#%d %v %v, want %s#%d %v %v", i, u.src.path, u.piece, u.terms, u.weight, w.src.path, w.piece, w.terms, w.weight)
		}
		if u.src.units[u.piece] != int32(i) {
			t.Errorf("unit %d: its source numbers it %d", i, u.src.units[u.piece])
		}
	}
	if len(first.ids) != before || len(first.idf) != len(first.postings) {
		t.Errorf("the corpus extended changed: %d ids (was %d), %d idf, %d posting lists", len(first.ids), before, len(first.idf), len(first.postings))
	}
}
