package staticindex_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/search/staticindex"
)

// The [search] knobs of dreamwiki.toml reach the browser: the static index
// carries them, so the site ranks as `dreamwiki search` and the server do.
func TestBuild_SearchKnobsReachTheStaticIndex(t *testing.T) {
	ws := t.TempDir()
	for p, text := range map[string]string{
		"dreamwiki.toml": "[search]\nhalf_life_days = 7\nmmr_lambda = 0.5\n",
		"notes/a.md":     "# A\n\nThe gateway runs on the mac mini.\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(ws, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "dist")
	if _, err := build.Build(context.Background(), build.Options{Workspace: ws, Out: out}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(out, "site", "search")
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
