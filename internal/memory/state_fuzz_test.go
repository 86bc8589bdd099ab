package memory

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzStateFiles reads arbitrary bytes as memory-meta.json, the recall
// store and a state object: no panic, and whatever reads writes back as
// JSON that reads again the same.
func FuzzStateFiles(f *testing.F) {
	for _, s := range []string{`{"entries":[{"id":"a","text":"t","created":"2026-01-01"}]}`, `[{"id":"a"}]`, `{"a":{"text":"t"}}`,
		`{"version":1,"entries":{"memory:x.md:1:2":{"path":"x.md","recallCount":3}}}`, `{"lastDreamAt":"x","n":[1,{"a":2}]}`, `{}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if d, err := ParseMetaDoc(src); err == nil {
			n := len(d.Entries)
			d.Add("new").Tier = "hot"
			out := d.Bytes()
			again, err := ParseMetaDoc(out)
			if err != nil || len(again.Entries) != n+1 {
				t.Errorf("meta rewrite: %v, %d entries, want %d\n%s", err, len(again.Entries), n+1, out)
			}
		}
		if d, err := ParseRecallDoc(src); err == nil {
			d.Record(Match{Line: Line{Path: "memory/x.md", StartLine: 1, EndLine: 1, Text: "t"}, Score: 1}, "q", true, time.Unix(0, 0))
			if _, err := ParseRecallDoc(d.Bytes()); err != nil {
				t.Errorf("recall rewrite: %v\n%s", err, d.Bytes())
			}
		}
		if out, err := UpdateObject(src, Field{"lastDreamAt", "2026-01-01T00:00:00Z"}, Field{"new", 1}); err == nil {
			var m map[string]any
			if err := json.Unmarshal(out, &m); err != nil || m["lastDreamAt"] != "2026-01-01T00:00:00Z" || m["new"] != float64(1) {
				t.Errorf("UpdateObject(%q) = %q (%v)", src, out, err)
			}
		}
	})
}
