package site

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/output"
)

// api/*.json is encoded one item at a time; it must read exactly as
// encoding/json writes the whole document, so agents and diffs see no
// difference.
func TestWriteJSONList_MatchesEncodingJSON(t *testing.T) {
	type item struct {
		A string   `json:"a"`
		B []string `json:"b,omitempty"`
	}
	for _, items := range [][]item{
		nil,
		{{A: "one"}},
		{{A: "<b>&</b>", B: []string{"x", "y"}}, {A: "two"}, {A: "é \u2028"}},
	} {
		mem := output.NewMemory()
		s := &site{w: mem, opts: Options{Title: `My "memory"`}}
		if err := writeJSONList(s, "api/x.json", "items", items); err != nil {
			t.Fatal(err)
		}
		got, _ := mem.Get("api/x.json")

		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", " ")
		if items == nil {
			items = []item{}
		}
		if err := enc.Encode(map[string]any{"site": s.opts.Title, "items": items}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%d items:\n got %s\nwant %s", len(items), got, want.Bytes())
		}
	}
}
