package workspace

import (
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// parseDreamLog reads memory/dream-log.md. Entries are the headings that
// carry a date, at the shallowest level any dated heading uses; each runs
// to the next heading of that level or higher.
func parseDreamLog(f *File) *DreamLog {
	d := &DreamLog{File: f}
	lines := mdline.Split(f.Content)
	start := mdline.FrontMatterEnd(lines)

	type heading struct {
		line, level int
		text        string
		dated       bool
	}
	var hs []heading
	entryLevel := 7
	var code mdline.Fence
	for i := start; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if code.Code(t) {
			continue
		}
		level, text := mdline.Heading(t)
		if level == 0 {
			continue
		}
		_, _, dated := headingDateTime(text)
		hs = append(hs, heading{i, level, headingText(text), dated})
		if dated && level < entryLevel {
			entryLevel = level
		}
	}
	for k, h := range hs {
		if !h.dated || h.level != entryLevel {
			continue
		}
		end := len(lines)
		for _, h2 := range hs[k+1:] {
			if h2.level <= entryLevel {
				end = h2.line
				break
			}
		}
		last := end
		for last > h.line+1 && strings.TrimSpace(lines[last-1]) == "" {
			last--
		}
		e := &DreamLogEntry{Heading: h.text, Line: h.line + 1, EndLine: last}
		e.Date, e.HasTime, _ = headingDateTime(h.text)
		body := lines[h.line+1 : last]
		e.Body = strings.Join(body, "\n")
		for _, l := range body {
			key, value, ok := logField(l)
			if !ok {
				continue
			}
			if e.Fields == nil {
				e.Fields = map[string]string{}
			}
			if _, dup := e.Fields[key]; !dup {
				e.Fields[key] = value
			}
			if key == "consolidated through" && e.ConsolidatedThrough.IsZero() {
				if t, i, _ := firstDate(value); i >= 0 {
					e.ConsolidatedThrough = t
				}
			}
		}
		e.Links = entryLinks(body, h.line+2)
		d.Entries = append(d.Entries, e)
	}
	return d
}

// logField reads "Key: value", "- Key: value", "- **Key**: value" and
// "**Key:** value"; the key is lower-cased.
func logField(l string) (key, value string, ok bool) {
	t := strings.TrimSpace(l)
	if li, isList := mdline.ListItem(t); isList {
		t = li.Text
	}
	if name, v, ok := boldField(t); ok {
		return strings.ToLower(name), v, true
	}
	k, isKV := keyValue(t)
	if !isKV {
		return "", "", false
	}
	_, v, _ := splitKV(t)
	v = strings.TrimPrefix(strings.TrimPrefix(v, "**"), "__")
	return strings.ToLower(strings.Trim(k, "*_ ")), strings.TrimSpace(v), true
}

// entryLinks lists the workspace paths and wikilink targets mentioned in
// body (whose first line is line first), in order, without duplicates.
func entryLinks(body []string, first int) []string {
	var out []string
	seen := map[string]bool{}
	for i, l := range body {
		for _, p := range navPointers(l, first+i) {
			if p.Path != "" && !seen[p.Path] {
				seen[p.Path] = true
				out = append(out, p.Path)
			}
		}
	}
	return out
}
