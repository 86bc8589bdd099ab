package archive_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/llmchat"
)

// fakeModel answers every chat-completions request with content and
// records the user messages it was sent.
func fakeModel(t *testing.T, content string) (*llmchat.Config, *[]string) {
	t.Helper()
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []struct{ Role, Content string }
		}
		if err := json.Unmarshal(body, &req); err != nil || r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		asked = append(asked, req.Messages[1].Content)
		answer, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"content": content}}}})
		w.Write(answer)
	}))
	t.Cleanup(srv.Close)
	return &llmchat.Config{URL: srv.URL + "/v1", Model: "tiny", Key: "k"}, &asked
}

func TestArchive_ModelSummaryCitesTheMessagesItSumsUp(t *testing.T) {
	_, opts := setup(t)
	opts.LLM, _ = fakeModel(t, `{"points":[{"text":"Rui backs up with restic to B2; Sam chose Glacier Instant Retrieval.","cites":["m1","m2"]}]}`)
	opts.Channel, opts.Group = "telegram", "homelab-crew"
	rep := run(t, opts)
	got := read(t, filepath.Join(opts.Workspace, "archives/telegram/homelab-crew/summaries/topic-7.md"))
	want := "- Rui backs up with restic to B2; Sam chose Glacier Instant Retrieval. ([raw/topic-7/2026-11-02.md#L3](../raw/topic-7/2026-11-02.md#^L3), [raw/topic-7/2026-11-02.md#L4](../raw/topic-7/2026-11-02.md#^L4))"
	if !strings.Contains(got, "## Summary") || !strings.Contains(got, want) || !strings.Contains(got, "## Key messages") {
		t.Errorf("summary:\n%s", got)
	}
	// Topic 12 has one message, so the same answer's "m2" is checked
	// and refused there.
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0].Error(), `topic-12.md: the model's summary was not used (point 1: it cites "m2"`) {
		t.Errorf("warnings: %v", rep.Warnings)
	}
}

func TestArchive_ModelSummaryThatFailsACheckIsLeftOut(t *testing.T) {
	cases := map[string]string{
		"unknown id":      `{"points":[{"text":"Sam chose Glacier.","cites":["m99"]}]}`,
		"invented number": `{"points":[{"text":"Sam pays 42 EUR a month.","cites":["m2"]}]}`,
		"markdown":        `{"points":[{"text":"See [this](http://x).","cites":["m2"]}]}`,
		"not the schema":  `{"summary":"Sam chose Glacier."}`,
	}
	for name, answer := range cases {
		t.Run(name, func(t *testing.T) {
			_, opts := setup(t)
			opts.LLM, _ = fakeModel(t, answer)
			opts.Channel, opts.Group = "telegram", "homelab-crew"
			rep := run(t, opts)
			got := read(t, filepath.Join(opts.Workspace, "archives/telegram/homelab-crew/summaries/topic-7.md"))
			if strings.Contains(got, "## Summary") || !strings.Contains(got, "## Key messages") {
				t.Errorf("summary:\n%s", got)
			}
			if len(rep.Warnings) == 0 || !strings.Contains(rep.Warnings[0].Error(), "the model's summary was not used") {
				t.Errorf("warnings: %v", rep.Warnings)
			}
		})
	}
}

// What the model is sent passed the secret guard: the archive's raw lines
// are redacted, and the request is redacted once more.
func TestArchive_ModelIsSentNoSecret(t *testing.T) {
	root, opts := setup(t)
	appendLine(t, filepath.Join(root, "agents/main/sessions/s7.jsonl"), `{"type":"message","id":"9","parentId":"3","timestamp":"2026-11-03T08:00:00.000Z","message":{"role":"user","content":"[Telegram Homelab Crew] Sam Okafor (2): the bucket key is AKIAIOSFODNN7EXAMPLQ"}}`)
	var asked *[]string
	opts.LLM, asked = fakeModel(t, `{"points":[{"text":"Sam shared the bucket key.","cites":["m4"]}]}`)
	run(t, opts)
	if len(*asked) == 0 {
		t.Fatal("the model was not asked")
	}
	for _, a := range *asked {
		if strings.Contains(a, "AKIAIOSFODNN7EXAMPLQ") {
			t.Errorf("the model was sent a secret: %s", a)
		}
	}
}
