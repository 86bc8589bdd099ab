package memory

import (
	"strings"
	"testing"
	"time"
)

// The encoders of the state files are the one place their texts are
// redacted: whoever writes (a dream, a recall from the CLI, serve mode,
// MCP), no raw secret gets in, and one an older version wrote is redacted
// the next time the file is written.
func TestStateFiles_NeverHoldARawSecret(t *testing.T) {
	const secret = "hunter2-but-longer"
	at := time.Date(2026, 4, 6, 10, 0, 0, 0, time.UTC)
	check := func(what string, b []byte) {
		t.Helper()
		if strings.Contains(string(b), secret) || !strings.Contains(string(b), "[REDACTED:password]") {
			t.Errorf("%s:\n%s", what, b)
		}
	}

	meta, err := ParseMetaDoc([]byte(`{"version": 2, "entries": [{"id": "mem_old", "text": "NAS password: ` + secret + `", "recallCount": 0}]}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(meta.Entries[0].Text, secret) {
		t.Error("a parsed record holds the secret")
	}
	check("memory-meta.json with an old record", meta.Bytes())
	meta.Add("Router password: " + secret)
	meta.Entries[0].Text = "set by hand, password: " + secret
	check("memory-meta.json with new records", meta.Bytes())

	store, err := ParseRecallDoc([]byte(`{"version": 1, "entries": {"memory:MEMORY.md:3:3": {"path": "MEMORY.md", "startLine": 3, "endLine": 3, "snippet": "NAS password: ` + secret + `", "recallCount": 1}}}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	check("short-term-recall.json with an old snippet", store.Bytes())
	r := store.Record(Match{Line: Line{Path: "MEMORY.md", StartLine: 9, EndLine: 9, Text: "Router password: " + secret}, Score: 1}, QueryHash("router password"), true, at)
	for _, tag := range r.ConceptTags {
		if strings.Contains(secret, tag) {
			t.Errorf("concept tag %q is part of the secret", tag)
		}
	}
	check("short-term-recall.json with a new snippet", store.Bytes())

	ev, _ := ReadEventLog(nil).RecallEvent("what is the password: "+secret, nil, at)
	check("a recall event", ev)
	ev, _ = ReadEventLog(nil).Record("memory.promotion.applied", at, map[string]any{"note": "password: " + secret})
	check("an event", ev)
}
