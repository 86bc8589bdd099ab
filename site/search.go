package site

import (
	"context"
	"fmt"

	"github.com/dreamwiki/dreamwiki/internal/search"
	"github.com/dreamwiki/dreamwiki/internal/search/staticindex"
)

// writeSearch writes the static search index into search/ and the search
// page, search.html, which the header's form opens (it also works as a
// deep link: search.html?q=gateway). The index is search's business; the
// site only says which notes are published and where their pages are.
func (s *site) writeSearch(ctx context.Context) error {
	docs := s.searchDocs()
	if s.inSection() {
		s.sectionDocs = docs // the team site's index holds them (BuildTeam)
		return nil
	}
	return s.writeSearchOf(ctx, docs)
}

// writeSearchOf writes the index of docs and the search page.
func (s *site) writeSearchOf(ctx context.Context, docs []search.Doc) error {
	if _, err := staticindex.Write(ctx, docs, staticindex.Options{AsOf: s.opts.AsOf, Params: s.opts.Search}, searchWriter{s}); err != nil {
		return err
	}
	d := pageData{Page: pageInfo{Kind: "search", Title: "Search", Description: "Search " + s.opts.Title}}
	if err := s.render("search.html", "search.html", d, nil); err != nil {
		return fmt.Errorf("rendering the search page: %w", err)
	}
	return nil
}

// searchWriter writes the index's files under search/, counted like every
// other file of the build.
type searchWriter struct{ s *site }

func (w searchWriter) WriteFile(name string, data []byte) error {
	return w.s.write("search/"+name, data)
}
