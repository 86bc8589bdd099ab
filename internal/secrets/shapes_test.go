package secrets

import (
	"slices"
	"strings"
	"testing"
)

// shapeContext wraps a shape the way notes hold it. The expected redaction
// goes through the same wrapper, since redaction leaves context alone.
type shapeContext struct {
	name string
	wrap func(string) string
}

var shapeContexts = []shapeContext{
	{"bare", func(s string) string { return s }},
	{"prose", func(s string) string { return "Sam pasted this in the chat, " + s + " — rotate it soon." }},
	{"list", func(s string) string { return "- " + strings.ReplaceAll(s, "\n", "\n  ") }},
	{"quote", func(s string) string { return "> " + strings.ReplaceAll(s, "\n", "\n> ") }},
	{"code", func(s string) string { return "```text\n" + s + "\n```" }},
	{"table", func(s string) string { return "| host | credential |\n|---|---|\n| nuc-01 | " + s + " |" }},
	{"yaml", func(s string) string {
		return "---\ntitle: Ops notes\nnotes: |\n  " + strings.ReplaceAll(s, "\n", "\n  ") + "\ntags: [ops]\n---\n# Ops notes"
	}},
}

// trimLineEnds drops the blanks that end each line: a redacted line keeps
// its container markup without trailing blanks.
func trimLineEnds(s string) string {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(ls, "\n")
}

func TestShapes_EveryShapeIsFoundAndRedactedInEveryContext(t *testing.T) {
	shapes := readCases(t, "testdata/shapes.txt")
	if len(shapes) < 40 {
		t.Errorf("shapes.txt has %d shapes, want at least 40", len(shapes))
	}
	for _, sh := range shapes {
		for _, ctx := range shapeContexts {
			if slices.Contains(sh.notIn, ctx.name) {
				continue
			}
			text := ctx.wrap(sh.text)
			where := "shapes.txt:" + itoa(sh.line) + " " + sh.name + " (" + ctx.name + ")"
			var got []Kind
			for _, f := range Scan(text) {
				got = append(got, f.Kind)
			}
			if !slices.Equal(got, sh.kinds) {
				t.Errorf("%s: kinds %v, want %v\n%s", where, got, sh.kinds, text)
				continue
			}
			red, _ := Redact(text)
			// The file drops the empty lines a redacted block ends with;
			// redaction keeps them, so the expectation gets them back.
			want := sh.redacted + strings.Repeat("\n", max(0, strings.Count(sh.text, "\n")-strings.Count(sh.redacted, "\n")))
			if want = ctx.wrap(want); trimLineEnds(red) != trimLineEnds(want) {
				t.Errorf("%s: Redact =\n%s\nwant\n%s", where, red, want)
			}
			if strings.Count(red, "\n") != strings.Count(text, "\n") {
				t.Errorf("%s: redaction changed the number of lines:\n%s", where, red)
			}
			if again, _ := Redact(red); again != red || Contains(red) {
				t.Errorf("%s: redacting again changed the text:\n%s", where, again)
			}
		}
	}
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}
