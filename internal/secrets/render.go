package secrets

import "strings"

// redact replaces the secrets found in text (found, from scanning it with
// g) with their placeholders, ph being Placeholder for text and
// NamePlaceholder for names.
func redact(text string, ph func(Kind) string, found []candidate, g Guard) (string, []Finding) {
	if len(found) == 0 {
		return text, nil
	}
	fs := resolve(text, found)
	out, reps := render(text, fs, ph)
	// Each round covers more of the text, so this ends; the bound is a
	// guard, not a limit any real text reaches.
	for round := 0; round < 8; round++ {
		again := g.scan(out)
		if len(again) == 0 {
			break
		}
		before := coverage(fs)
		for _, c := range again {
			found = append(found, candidate{mapBack(fs, reps, c.start, false), mapBack(fs, reps, c.end, true), c.kind, c.rule})
		}
		fs = resolve(text, found)
		if coverage(fs) == before {
			break
		}
		out, reps = render(text, fs, ph)
	}
	return out, fs
}

// isExtension reports whether s looks like a file extension: one to five
// letters and digits ("md", "json", "tar" of ".tar").
func isExtension(s string) bool {
	return s != "" && len(s) <= 5 && span(s, 0, isAlnum) == len(s)
}

// render replaces each finding's bytes with its replacement and returns the
// length of each replacement, for mapBack.
func render(text string, fs []Finding, ph func(Kind) string) (string, []int) {
	var b strings.Builder
	b.Grow(len(text))
	reps := make([]int, len(fs))
	last := 0
	for i, f := range fs {
		b.WriteString(text[last:f.Start])
		n := b.Len()
		writeReplacement(&b, text[f.Start:f.End], ph(f.Kind))
		reps[i] = b.Len() - n
		last = f.End
	}
	b.WriteString(text[last:])
	return b.String(), reps
}

// writeReplacement writes what replaces the secret value v: the placeholder,
// then for every line break inside v the same line break and the container
// markup (indentation, quote and list markers, without trailing blanks)
// that began the next line. So a key block in a list item stays a list
// item of as many lines, and every line number after it stays valid.
func writeReplacement(b *strings.Builder, v, placeholder string) {
	b.WriteString(placeholder)
	for {
		nl := strings.IndexByte(v, '\n')
		if nl < 0 {
			return
		}
		if nl > 0 && v[nl-1] == '\r' {
			b.WriteByte('\r')
		}
		b.WriteByte('\n')
		v = v[nl+1:]
		next := v
		if e := strings.IndexByte(next, '\n'); e >= 0 {
			next = next[:e]
		}
		b.WriteString(strings.TrimRight(next[:containerPrefix(next)], " \t"))
	}
}

// mapBack turns an offset in the rendered text into an offset in text. An
// offset inside a replacement maps to the start of the secret it replaced,
// or to its end when end is set.
func mapBack(fs []Finding, reps []int, pos int, end bool) int {
	delta := 0 // how much longer the output is than the text so far
	for i, f := range fs {
		at := f.Start + delta
		if pos < at || end && pos == at {
			return pos - delta
		}
		if pos < at+reps[i] || end && pos == at+reps[i] {
			if end {
				return f.End
			}
			return f.Start
		}
		delta += reps[i] - (f.End - f.Start)
	}
	return pos - delta
}

// coverage is the number of bytes the findings cover.
func coverage(fs []Finding) int {
	n := 0
	for _, f := range fs {
		n += f.End - f.Start
	}
	return n
}
