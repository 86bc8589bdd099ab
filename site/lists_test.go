package site

import (
	"context"
	"errors"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/markdown"
	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/vault"
)

// The folder and tag pages are rendered on several goroutines; a
// cancelled build (serve mode drops a render an edit made stale) starts
// none of them.
func TestListPages_StopWhenTheBuildIsCancelled(t *testing.T) {
	eng := markdown.New()
	v := vault.Build(eng, []vault.Input{
		{Path: "notes/a/one.md", Kind: vault.KindNote, Text: "# One\n\n#infra/home\n"},
		{Path: "notes/b/two.md", Kind: vault.KindNote, Text: "# Two\n\n#infra\n"},
	}, nil, nil)
	render := func(ctx context.Context) ([]string, error) {
		mem := output.NewMemory()
		s, err := newSite(eng, v, Options{}, mem)
		if err != nil {
			t.Fatal(err)
		}
		s.collect(nil, nil)
		err = errors.Join(s.renderFolders(ctx), s.renderTags(ctx))
		return mem.Names(), err
	}
	if pages, err := render(context.Background()); err != nil || len(pages) < 5 {
		t.Fatalf("a live build wrote %v (%v); want the folder and tag pages", pages, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pages, err := render(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if len(pages) > 0 {
		t.Errorf("a cancelled build wrote %v", pages)
	}
}
