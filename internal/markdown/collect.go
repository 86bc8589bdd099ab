package markdown

import (
	"strings"

	wikilink "github.com/abhinav/goldmark-wikilink"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// index walks the parsed AST root once and fills in what the rest of
// dreamwiki reads from a Doc: headings (with their ids), links, tags and
// block ids. It returns the syntax that renders the Doc. Everything it
// builds is read-only afterwards.
func (d *Doc) index(root ast.Node, pc parser.Context) *syntax {
	src := d.Source
	syn := &syntax{root: root}
	ends, _ := pc.Get(linkEndsKey).(map[ast.Node]int)
	var ids headingIDs
	for _, t := range d.Meta.Tags {
		d.Tags = appendUniqueFold(d.Tags, t)
	}
	if found, ok := pc.Get(blockIDsKey).([]foundBlockID); ok {
		syn.blockAt = make(map[string]ast.Node, len(found))
		d.blockIDs = make(map[string]string, len(found))
		for _, b := range found {
			key := strings.ToLower(b.id)
			if _, dup := d.blockIDs[key]; dup {
				continue
			}
			syn.blockAt[key] = b.block
			d.blockIDs[key] = b.id
			d.BlockIDs = append(d.BlockIDs, BlockID{ID: b.id, Line: d.line(b.off)})
		}
	}
	addLink := func(l *Link, n ast.Node) {
		l.Line = d.line(l.Start)
		if syn.linkAt == nil {
			syn.linkAt = make(map[ast.Node]int)
		}
		syn.linkAt[n] = len(d.Links)
		d.Links = append(d.Links, l)
	}

	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			text := inlineText(n, src)
			id := ids.unique(slugify(text))
			n.SetAttributeString("id", []byte(id))
			d.Headings = append(d.Headings, Heading{Level: n.Level, Text: text, ID: id, Line: d.line(max(n.Pos(), 0))})
			syn.headingAt = append(syn.headingAt, n)
		case *wikilink.Node:
			start := n.Pos()
			end := wikilinkEnd(src, start)
			l := &Link{
				Target:   strings.TrimSpace(string(n.Target)),
				Fragment: strings.TrimSpace(string(n.Fragment)),
				Wiki:     true, Start: start, End: end,
			}
			if wikilinkHasLabel(src, start, end) {
				l.Display = inlineText(n, src)
			} else {
				l.Display = obsidianDisplay(l.Target, l.Fragment)
			}
			addLink(l, n)
			return ast.WalkSkipChildren, nil
		case *Embed:
			l := &Link{
				Target: n.Target, Fragment: n.Fragment, Display: n.Display,
				Embed: true, Wiki: true, Width: n.Width, Height: n.Height,
				Start: n.Segment.Start, End: n.Segment.Stop,
			}
			if l.Display == "" {
				l.Display = obsidianDisplay(n.Target, n.Fragment)
			}
			addLink(l, n)
		case *ast.Link:
			if l := localLink(string(linkDestination(n.Destination)), n, ends); l != nil {
				l.Display = inlineText(n, src)
				addLink(l, n)
			}
		case *ast.Image:
			if l := localLink(string(linkDestination(n.Destination)), n, ends); l != nil {
				l.Embed = true
				l.Display = inlineText(n, src)
				addLink(l, n)
			}
		case *Tag:
			d.Tags = appendUniqueFold(d.Tags, n.Name)
		}
		return ast.WalkContinue, nil
	})
	return syn
}

// reindex maps a tree parsed again from d.Source (see body) onto what index
// found in the first parse: parsing is deterministic, so headings and links
// come in the same order, and their ids and indexes are taken from d
// instead of being extracted again. It returns nil if the tree does not
// match d after all.
func (d *Doc) reindex(root ast.Node, pc parser.Context) *syntax {
	syn := &syntax{root: root}
	if found, ok := pc.Get(blockIDsKey).([]foundBlockID); ok {
		syn.blockAt = make(map[string]ast.Node, len(found))
		for _, b := range found {
			if key := strings.ToLower(b.id); syn.blockAt[key] == nil {
				syn.blockAt[key] = b.block
			}
		}
	}
	if len(d.Links) > 0 {
		syn.linkAt = make(map[ast.Node]int, len(d.Links))
	}
	syn.headingAt = make([]ast.Node, 0, len(d.Headings))
	ok := true
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		link := false
		switch n := n.(type) {
		case *ast.Heading:
			if len(syn.headingAt) == len(d.Headings) {
				ok = false
				return ast.WalkStop, nil
			}
			n.SetAttributeString("id", []byte(d.Headings[len(syn.headingAt)].ID))
			syn.headingAt = append(syn.headingAt, n)
		case *wikilink.Node, *Embed:
			link = true
		case *ast.Link:
			link = isLocalDest(string(linkDestination(n.Destination)))
		case *ast.Image:
			link = isLocalDest(string(linkDestination(n.Destination)))
		}
		if link {
			if len(syn.linkAt) == len(d.Links) {
				ok = false
				return ast.WalkStop, nil
			}
			syn.linkAt[n] = len(syn.linkAt)
			if _, wiki := n.(*wikilink.Node); wiki {
				return ast.WalkSkipChildren, nil
			}
		}
		return ast.WalkContinue, nil
	})
	if !ok || len(syn.headingAt) != len(d.Headings) || len(syn.linkAt) != len(d.Links) {
		return nil
	}
	return syn
}

// isLocalDest reports a link destination that names a path in the vault:
// not a URL with a scheme, and not a bare "#anchor" within the page.
func isLocalDest(dest string) bool { return dest != "" && dest[0] != '#' && !hasScheme(dest) }

// localLink makes a Link for a Markdown link or image whose destination
// is a path in the vault: not a URL with a scheme, and not a bare
// "#anchor" within the page (those need no resolving).
func localLink(dest string, n ast.Node, ends map[ast.Node]int) *Link {
	if !isLocalDest(dest) {
		return nil
	}
	target, fragment := splitLocalDest(dest)
	start := max(n.Pos(), 0)
	end, ok := ends[n]
	if !ok || end < start {
		end = start
	}
	return &Link{Target: target, Fragment: fragment, Start: start, End: end}
}

// obsidianDisplay is how Obsidian shows a link without display text:
// [[note#H1#H2]] reads "note > H1 > H2", [[#H]] reads "H".
func obsidianDisplay(target, fragment string) string {
	if fragment == "" {
		return target
	}
	parts := make([]string, 0, 4)
	if target != "" {
		parts = append(parts, target)
	}
	for f := range strings.SplitSeq(fragment, "#") {
		if f = strings.TrimSpace(f); f != "" {
			parts = append(parts, f)
		}
	}
	return strings.Join(parts, " > ")
}
