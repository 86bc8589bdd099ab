package markdown

// RewriteLinks returns doc.Source with the source text of each link
// replaced by fn's replacement where fn returns ok; other links are kept
// as written. It is how the Markdown twin turns wikilinks into relative
// Markdown links, and how the vault rewrites paths. Links nested inside a
// replaced link (an image inside a link) are not offered to fn. The result
// is a new slice; doc.Source is not modified.
func RewriteLinks(doc *Doc, fn func(l *Link) (replacement string, ok bool)) []byte {
	if doc == nil {
		return nil
	}
	src := doc.Source
	out := make([]byte, 0, len(src)+len(src)/8)
	last := 0
	for _, l := range doc.Links {
		if l.Start < last || l.End > len(src) || l.Start > l.End {
			continue // inside a link already replaced, or not from this Source
		}
		rep, ok := fn(l)
		if !ok {
			continue
		}
		out = append(out, src[last:l.Start]...)
		out = append(out, rep...)
		last = l.End
	}
	return append(out, src[last:]...)
}
