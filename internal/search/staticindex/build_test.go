package staticindex_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/buildtest"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/search/staticindex"
)

// The [search] knobs of dreamwiki.toml reach the browser: the static index
// carries them, so the site ranks as `dreamwiki search` and the server do.
func TestBuild_SearchKnobsReachTheStaticIndex(t *testing.T) {
	out := buildtest.Build(t, `
-- dreamwiki.toml --
[search]
half_life_days = 7
mmr_lambda = 0.5
-- notes/a.md --
# A

The gateway runs on the mac mini.
`)
	dir := out.Path("site/search")
	ix, err := staticindex.Open(func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))) })
	if err != nil {
		t.Fatal(err)
	}
	p := ix.Params()
	if p.HalfLifeDays != 7 || p.MMRLambda != 0.5 {
		t.Errorf("static index ranks with half-life %v, lambda %v; want 7 and 0.5 from dreamwiki.toml", p.HalfLifeDays, p.MMRLambda)
	}
	if d := search.DefaultParams(); p.FuzzyWeight != d.FuzzyWeight {
		t.Errorf("fuzzy weight %v, want the default %v", p.FuzzyWeight, d.FuzzyWeight)
	}
}
