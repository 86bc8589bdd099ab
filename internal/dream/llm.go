package dream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// The optional LLM pass rewrites each distilled fact in plainer words
// through an OpenAI-compatible chat-completions endpoint. It is off by
// default and never needed: the deterministic line is already complete.
// What is sent has had its secrets redacted. An answer is used only when
// it passes every check below; otherwise the deterministic line stays and
// the plan says why.

const llmPrompt = `You distil notes from an AI agent's daily log into durable memory.
Rewrite the fact as ONE plain sentence of at most %d characters. Keep every date, number, name and
identifier exactly as written; add nothing that is not in the fact; no preamble, no quotes, no markdown.`

// polish runs the LLM over every candidate, two requests at a time.
func (p *planner) polish() {
	l := p.opts.LLM
	client, url := llmClient(l)
	sem := make(chan struct{}, 2)
	done := make(chan struct{})
	results := make([]string, len(p.cands))
	errs := make([]error, len(p.cands))
	for i, c := range p.cands {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem; done <- struct{}{} }()
			results[i], errs[i] = askLLM(p.ctx, client, url, l, c.fact)
		}()
	}
	for range p.cands {
		<-done
	}
	used, failed := 0, 0
	var firstErr error
	for i, c := range p.cands {
		if errs[i] != nil {
			failed++
			if firstErr == nil {
				firstErr = errs[i]
			}
			continue
		}
		if why := checkLLM(c.fact, results[i]); why != "" {
			c.notes = append(c.notes, "LLM answer not used: "+why)
			continue
		}
		c.fact = results[i]
		c.words = contentWords(c.fact)
		c.nums = numbers(c.fact)
		c.notes = append(c.notes, "worded by the LLM")
		used++
	}
	if failed > 0 {
		p.warn("", "the LLM endpoint failed for %d of %d facts (%v); their deterministic lines were kept", failed, len(p.cands), firstErr)
	}
	p.plan.Notes = append(p.plan.Notes, fmt.Sprintf("LLM distillation: %d of %d facts reworded", used, len(p.cands)))
}

const llmTopicPrompt = `These facts were just filed together in a new memory file titled %q.
Write ONE plain sentence of at most 160 characters saying what the file is about. Use no number, date or
name that is not in the facts; no preamble, no quotes, no markdown.`

// summariseTopics gives each topic file this dream starts a one-sentence
// description under its title, when an LLM is configured. The sentence is
// checked like an entry: one line, no secret, no number the facts lack.
func (p *planner) summariseTopics() {
	l := p.opts.LLM
	client, url := llmClient(l)
	for _, tp := range p.topics {
		if !tp.isNew || len(tp.added) == 0 {
			continue
		}
		var facts []string
		for _, c := range tp.added {
			facts = append(facts, "- "+redact(c.fact))
		}
		all := strings.Join(facts, "\n")
		answer, err := askLLMPrompt(p.ctx, client, url, l, fmt.Sprintf(llmTopicPrompt, tp.title), all)
		if err != nil {
			p.warn(tp.path, "the LLM endpoint failed for the topic summary (%v); the file has none", err)
			continue
		}
		if why := checkSummary(all, answer); why != "" {
			p.plan.Notes = append(p.plan.Notes, fmt.Sprintf("LLM summary of %s not used: %s", tp.path, why))
			continue
		}
		if tp.doc.lines[len(tp.doc.lines)-1] != "" {
			tp.doc.lines = append(tp.doc.lines, "")
		}
		tp.doc.lines = append(tp.doc.lines, answer)
		tp.doc.sections[0].end = len(tp.doc.lines)
	}
}

// checkSummary says why a topic summary cannot be used, or "".
func checkSummary(facts, answer string) string {
	a := strings.TrimSpace(answer)
	switch {
	case a == "" || utf8.RuneCountInString(a) < 8:
		return "too short"
	case strings.ContainsAny(a, "\n\r"):
		return "more than one line"
	case utf8.RuneCountInString(a) > 200:
		return "too long"
	case strings.ContainsAny(a, "#*`[]|"):
		return "it holds markup"
	case secrets.Contains(a):
		return "it holds a secret"
	}
	fn := numbers(facts)
	for _, n := range numbers(a) {
		if !slices.Contains(fn, n) {
			return "it adds the number " + n
		}
	}
	return ""
}

func llmClient(l *LLM) (*http.Client, string) {
	client := l.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	url := strings.TrimRight(l.URL, "/")
	if !strings.HasSuffix(url, "/chat/completions") {
		url += "/chat/completions"
	}
	return client, url
}

// askLLM sends one fact and returns the answer's text.
func askLLM(ctx context.Context, client *http.Client, url string, l *LLM, fact string) (string, error) {
	return askLLMPrompt(ctx, client, url, l, fmt.Sprintf(llmPrompt, maxFact), redact(fact))
}

// askLLMPrompt sends a system prompt and a user message.
func askLLMPrompt(ctx context.Context, client *http.Client, url string, l *LLM, system, user string) (string, error) {
	model := l.Model
	if model == "" {
		model = "gpt-4o-mini"
	}
	body, _ := json.Marshal(map[string]any{
		"model":       model,
		"temperature": 0,
		"messages": []map[string]string{
			{"role": "system", "content": system},
			{"role": "user", "content": redact(user)},
		},
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if l.Key != "" {
		req.Header.Set("Authorization", "Bearer "+l.Key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	var out struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return "", fmt.Errorf("the answer is not chat-completions JSON (%v)", err)
	}
	if len(out.Choices) == 0 {
		return "", errors.New("the answer has no choices")
	}
	return strings.TrimSpace(out.Choices[0].Message.Content), nil
}

// checkLLM says why an answer cannot replace the deterministic line, or ""
// when it can.
func checkLLM(fact, answer string) string {
	a := strings.TrimSpace(answer)
	switch {
	case a == "":
		return "empty"
	case strings.ContainsAny(a, "\n\r"):
		return "more than one line"
	case utf8.RuneCountInString(a) > maxFact+20:
		return "too long"
	case utf8.RuneCountInString(a) < 8:
		return "too short"
	case secrets.Contains(a):
		return "it holds a secret"
	case reMetaBits.MatchString(a):
		return "it holds candidate metadata"
	}
	// Hallucination guard: every number of the answer must be in the fact,
	// and every date of the fact must be in the answer.
	fn, an := numbers(fact), numbers(a)
	for _, n := range an {
		if !slices.Contains(fn, n) {
			return "it adds the number " + n
		}
	}
	for _, d := range reISODate.FindAllString(fact, -1) {
		if !strings.Contains(a, d) {
			return "it drops the date " + d
		}
	}
	return ""
}
