package staticindex_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/buildtest"
	"github.com/dreamwiki/dreamwiki/internal/search/staticindex"
	"github.com/dreamwiki/dreamwiki/internal/team"
)

// A team site has one index of every workspace's published notes, each
// result naming its workspace (what the browser's workspace: facet keeps
// or drops, assets/search/query.ts) and linking into its section; a note
// one workspace keeps private is in no result.
func TestTeam_OneIndexFindsNotesOfEveryWorkspaceButNoPrivateOne(t *testing.T) {
	dir := buildtest.Workspace(t, `
-- alpha/memory/gateway.md --
# Gateway

The alpha gateway runs on the Mac mini.
-- beta/memory/gateway.md --
# Gateway

The beta gateway is a Raspberry Pi.
-- beta/private/plans.md --
# Plans

The gateway moves to the zorbquistle rack.
`)
	out := filepath.Join(t.TempDir(), "dist")
	_, err := team.Build(t.Context(), team.Options{Out: out, AsOf: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), Workspaces: []team.Workspace{
		{Name: "alpha", Path: filepath.Join(dir, "alpha")},
		{Name: "beta", Path: filepath.Join(dir, "beta"), Private: []string{"private/**"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(out, "site", "search")
	ix, err := staticindex.Open(func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(index, filepath.FromSlash(name))) })
	if err != nil {
		t.Fatal(err)
	}
	search := func(q string) (workspaces, urls []string) {
		hits, err := ix.Search(staticindex.Query{Text: q, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			f, err := ix.Fragment(h.Doc)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(workspaces, f.Workspace) {
				workspaces = append(workspaces, f.Workspace)
			}
			urls = append(urls, f.URL)
		}
		slices.Sort(workspaces)
		return workspaces, urls
	}
	wss, urls := search("gateway")
	if !slices.Equal(wss, []string{"alpha", "beta"}) {
		t.Errorf("gateway is found in %v; want both workspaces", wss)
	}
	for _, u := range []string{"alpha/topics/gateway.html", "beta/topics/gateway.html"} {
		if !slices.Contains(urls, u) {
			t.Errorf("gateway: no result %s among %v", u, urls)
		}
	}
	if wss, urls := search("zorbquistle"); len(wss) > 0 {
		t.Errorf("the private note's word finds %v", urls)
	}
}
