package markdown

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

type frontMatterState int

const (
	frontMatterNone frontMatterState = iota
	frontMatterClosed
	frontMatterUnclosed
)

// frontMatterBlock is where a YAML front matter block sits in a file.
type frontMatterBlock struct {
	state frontMatterState
	yaml  []byte // the YAML between the fences
	// bodyStart is the byte offset of the body; bodyLine its 1-based line.
	bodyStart, bodyLine int
}

// splitFrontMatter finds a front matter block: a first line of exactly
// "---" and a later line of "---" (or YAML's "..."). Trailing spaces on the
// fence lines are tolerated, as Obsidian does. src has "\n" line endings.
func splitFrontMatter(src []byte) frontMatterBlock {
	first, rest, ok := cutLine(src)
	if !ok || !mdline.FrontMatterOpens(first) {
		return frontMatterBlock{}
	}
	off := len(src) - len(rest)
	line := 2
	for len(rest) > 0 {
		l, next, _ := cutLine(rest)
		if mdline.FrontMatterCloses(l) {
			start := len(src) - len(next)
			return frontMatterBlock{state: frontMatterClosed, yaml: src[off : len(src)-len(rest)], bodyStart: start, bodyLine: line + 1}
		}
		rest = next
		line++
	}
	return frontMatterBlock{state: frontMatterUnclosed}
}

// cutLine splits off the first line (without its "\n").
func cutLine(b []byte) (line, rest []byte, hadNewline bool) {
	for i, c := range b {
		if c == '\n' {
			return b[:i], b[i+1:], true
		}
	}
	return b, nil, false
}

// ReadFrontMatter decodes the front matter of a note's text exactly as
// Parse does, without parsing the body, for a reader that needs a note's
// properties before it is rendered (the workspace reader decides privacy
// from them). fm.Present is false when the text has no closed front
// matter block; diags say why a block that is there did not decode.
func ReadFrontMatter(file, text string) (fm FrontMatter, diags diag.List) {
	if !strings.HasPrefix(text, "---") {
		return fm, nil
	}
	block := splitFrontMatter([]byte(text))
	if block.state != frontMatterClosed {
		return fm, nil
	}
	return parseFrontMatter(block.yaml, file, &diags), diags
}

// parseFrontMatter decodes the YAML of a front matter block that starts on
// line 2 of the file. Errors become diagnostics; the FrontMatter is then
// empty apart from Present.
func parseFrontMatter(src []byte, file string, diags *diag.List) (fm FrontMatter) {
	fm.Present = true
	var root yaml.Node
	if err := safeYAMLUnmarshal(src, &root); err != nil {
		line, msg := yamlErrorLine(err.Error())
		// yaml may place an error at the end of the stream, one line
		// past the block: report it on the closing fence then.
		line = min(line, bytes.Count(src, []byte{'\n'})+1)
		diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "frontmatter", File: file, Line: line + 1,
			Message: fmt.Sprintf("front matter is not valid YAML (%s)", msg),
			Hint:    "the note was rendered without it"})
		return fm
	}
	if len(root.Content) == 0 {
		return fm // empty block
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "frontmatter", File: file, Line: m.Line + 1,
			Message: "front matter is not a YAML mapping of keys to values",
			Hint:    "the note was rendered without it"})
		return fm
	}
	fm.Fields = make(map[string]any, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		key := k.Value
		if _, dup := fm.Fields[key]; !dup {
			fm.Keys = append(fm.Keys, key)
		}
		var val any
		if err := v.Decode(&val); err == nil {
			fm.Fields[key] = plainYAML(val)
		} else {
			fm.Fields[key] = nil
		}
		switch strings.ToLower(key) {
		case "title":
			if v.Kind == yaml.ScalarNode {
				fm.Title = strings.TrimSpace(v.Value)
			}
		case "aliases", "alias":
			fm.Aliases = appendUnique(fm.Aliases, yamlStrings(v, false)...)
		case "tags", "tag":
			for _, t := range yamlStrings(v, true) {
				if t = cleanTag(t); t != "" {
					fm.Tags = appendUniqueFold(fm.Tags, t)
				}
			}
		case "date":
			fm.Date = yamlDate(v)
		case "created":
			fm.Created = yamlDate(v)
		case "updated", "modified":
			if d := yamlDate(v); d != "" || fm.Updated == "" {
				fm.Updated = d
			}
		case "publish":
			fm.Privacy = append(fm.Privacy, privacyKey(k, v))
			if b, ok := yamlBool(v); ok {
				fm.Publish = &b
			}
		case "private":
			fm.Privacy = append(fm.Privacy, privacyKey(k, v))
			if b, ok := yamlBool(v); ok {
				fm.Private = b
			}
		case "<<":
			fm.Privacy = append(fm.Privacy, mergedPrivacyKeys(k, v)...)
		}
	}
	return fm
}

// privacyKey is the key k with its value v as written. Lines are the
// file's: the block starts on its line 2.
func privacyKey(k, v *yaml.Node) PrivacyKey {
	pk := PrivacyKey{Key: k.Value, Line: k.Line + 1}
	switch v.Kind {
	case yaml.ScalarNode:
		pk.Value = v.Value
		if v.Style == 0 && v.ShortTag() == "!!bool" {
			b := strings.EqualFold(v.Value, "true")
			pk.Bool = &b
		}
	case yaml.AliasNode:
		pk.Value = "*" + v.Value
	}
	return pk
}

// mergedPrivacyKeys are the privacy keys a merge key ("<<: *defaults")
// brings in, each with no plain value: what they say depends on YAML's
// merge rules, which few readers of a note know.
func mergedPrivacyKeys(k, v *yaml.Node) []PrivacyKey {
	var out []PrivacyKey
	var visit func(n *yaml.Node, depth int)
	visit = func(n *yaml.Node, depth int) {
		if n == nil || depth > 8 {
			return
		}
		switch n.Kind {
		case yaml.AliasNode:
			visit(n.Alias, depth+1)
		case yaml.SequenceNode:
			for _, c := range n.Content {
				visit(c, depth+1)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if name := strings.ToLower(n.Content[i].Value); name == "private" || name == "publish" {
					out = append(out, PrivacyKey{Key: n.Content[i].Value, Line: k.Line + 1, Value: "<<: " + yamlText(v)})
				}
			}
		}
	}
	visit(v, 0)
	return out
}

// yamlText is how a merge value is written: "*name" for an alias.
func yamlText(v *yaml.Node) string {
	if v.Kind == yaml.AliasNode {
		return "*" + v.Value
	}
	return "a mapping"
}

// plainYAML replaces the time.Time values yaml decodes timestamps into
// with strings (YYYY-MM-DD for dates, RFC 3339 otherwise), so Fields hold
// only strings, numbers, bools, lists and maps, and print the same
// everywhere.
func plainYAML(v any) any {
	switch v := v.(type) {
	case time.Time:
		if v.Hour() == 0 && v.Minute() == 0 && v.Second() == 0 && v.Nanosecond() == 0 && v.Location() == time.UTC {
			return v.Format("2006-01-02")
		}
		return v.Format(time.RFC3339Nano)
	case map[string]any:
		for k, x := range v {
			v[k] = plainYAML(x)
		}
	case map[any]any:
		for k, x := range v {
			v[k] = plainYAML(x)
		}
	case []any:
		for i, x := range v {
			v[i] = plainYAML(x)
		}
	}
	return v
}

// safeYAMLUnmarshal guards against a panic inside the YAML library: a bad
// front matter block must cost a warning, never the build.
func safeYAMLUnmarshal(src []byte, out *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return yaml.Unmarshal(src, out)
}

// yamlErrorLine pulls the 1-based line out of a yaml error such as
// "yaml: line 3: mapping values are not allowed in this context" and
// returns it with the bare message. Line 0 means unknown; it is reported on
// the opening fence.
func yamlErrorLine(s string) (int, string) {
	s = strings.TrimPrefix(s, "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(s, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				line = n
				s = strings.TrimSpace(rest[i+1:])
			}
		}
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return line, s
}

// yamlStrings reads a string or a list of strings. With split, a single
// string is split on commas and spaces ("tags: a, b c"), as Obsidian does
// for tags.
func yamlStrings(v *yaml.Node, split bool) []string {
	var out []string
	add := func(s string) {
		if split {
			for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
				out = append(out, f)
			}
			return
		}
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag != "!!null" {
			add(v.Value)
		}
	case yaml.SequenceNode:
		for _, c := range v.Content {
			if c.Kind == yaml.ScalarNode && c.Tag != "!!null" {
				add(c.Value)
			}
		}
	}
	return out
}

// cleanTag strips the '#' people write in front matter tags.
func cleanTag(t string) string {
	return strings.Trim(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(t), "#")), "/")
}

func yamlBool(v *yaml.Node) (bool, bool) {
	if v.Kind != yaml.ScalarNode {
		return false, false
	}
	switch strings.ToLower(strings.TrimSpace(v.Value)) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off":
		return false, true
	}
	return false, false
}

func yamlDate(v *yaml.Node) string {
	if v.Kind != yaml.ScalarNode {
		return ""
	}
	return normalizeDate(v.Value)
}

// dateLayouts are the date spellings seen in notes, beyond the ISO forms
// normalizeDate reads directly.
var dateLayouts = []string{
	"2006/01/02", "2006.01.02", "2006/1/2",
	"January 2, 2006", "Jan 2, 2006", "2 January 2006", "2 Jan 2006",
	"Monday, January 2, 2006", time.RFC1123, time.RFC1123Z,
}

// normalizeDate turns a date or datetime into YYYY-MM-DD, keeping the
// calendar date as written (a datetime's own time zone decides its day).
// It returns "" when the value is not a date.
func normalizeDate(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 10 && isISODate(s[:10]) && (len(s) == 10 || s[10] == 'T' || s[10] == 't' || s[10] == ' ') {
		if _, err := time.Parse("2006-01-02", s[:10]); err == nil {
			return s[:10]
		}
		return ""
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format("2006-01-02")
		}
	}
	return ""
}

func isISODate(s string) bool {
	for i := 0; i < 10; i++ {
		c := s[i]
		if i == 4 || i == 7 {
			if c != '-' {
				return false
			}
		} else if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func appendUnique(list []string, items ...string) []string {
next:
	for _, it := range items {
		for _, have := range list {
			if have == it {
				continue next
			}
		}
		list = append(list, it)
	}
	return list
}

// appendUniqueFold appends s unless list has it in any letter case (tags
// are case-insensitive in Obsidian; the first spelling wins).
func appendUniqueFold(list []string, s string) []string {
	for _, have := range list {
		if strings.EqualFold(have, s) {
			return list
		}
	}
	return append(list, s)
}
