package memsearch

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// querySyntaxFile holds queries and how they parse; the browser's parser
// (assets/search/query.ts) runs the same vectors in tests/browser, so the
// site's search box and `dreamwiki search` read a query the same way.
const querySyntaxFile = "../../../testdata/query-syntax.json"

type syntaxVector struct {
	Q     string `json:"q"`
	Words []struct {
		Text   string `json:"text"`
		Phrase bool   `json:"phrase"`
		Must   bool   `json:"must"`
		Not    bool   `json:"not"`
	} `json:"words"`
	Filters []struct {
		Field string `json:"field"`
		Value string `json:"value"`
		Not   bool   `json:"not"`
	} `json:"filters"`
}

func TestParseQuery_SharedVectors(t *testing.T) {
	data, err := os.ReadFile(querySyntaxFile)
	if err != nil {
		t.Fatal(err)
	}
	var vs []syntaxVector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		var want parsedQuery
		for _, w := range v.Words {
			want.words = append(want.words, queryWord{text: w.Text, phrase: w.Phrase, must: w.Must, not: w.Not})
		}
		for _, f := range v.Filters {
			want.filters = append(want.filters, fieldClause{field: f.Field, value: f.Value, not: f.Not})
		}
		if got := parseQuery(v.Q); !reflect.DeepEqual(got, want) {
			t.Errorf("parseQuery(%q)\n got %+v\nwant %+v", v.Q, got, want)
		}
	}
}

func TestWriteResults_BestScoreFirst(t *testing.T) {
	var b strings.Builder
	rs := []Result{{Citation: "a.md#L1-L1", Score: 0.2, Source: "daily"}, {Citation: "b.md#L1-L1", Score: 0.9, Source: "topic"}, {Citation: "c.md#L1-L1", Score: 0.5, Source: "index"}}
	if err := WriteResults(&b, rs, false); err != nil {
		t.Fatal(err)
	}
	want := "1. b.md#L1-L1  (topic, 0.90)\n   \n2. c.md#L1-L1  (index, 0.50)\n   \n3. a.md#L1-L1  (daily, 0.20)\n   \n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if rs[0].Citation != "a.md#L1-L1" {
		t.Error("WriteResults reordered its caller's slice")
	}
}
