// Package llmchat asks an OpenAI-compatible chat-completions endpoint one
// question and returns the answer's text. What it sends is redacted by the
// secret guard first; checking what comes back is the caller's job (the
// dream's distiller and the archive's summariser each validate answers
// against their own request).
package llmchat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// Config is an OpenAI-compatible chat-completions endpoint.
type Config struct {
	// URL is the API base ("http://localhost:8080/v1") or the full
	// chat-completions URL.
	URL   string
	Model string
	// Key is sent as a bearer token when set (callers read it from the
	// environment, never from a flag).
	Key string
	// Client defaults to an http.Client with a 60-second timeout.
	Client *http.Client
}

// Ask sends a system prompt and a user message (redacted once more) and
// returns the answer's text. format, when set, is the response_format.
func (c *Config) Ask(ctx context.Context, system, user string, format any) (string, error) {
	client := c.Client
	if client == nil {
		client = &http.Client{Timeout: 60 * time.Second}
	}
	url := strings.TrimRight(c.URL, "/")
	if !strings.HasSuffix(url, "/chat/completions") {
		url += "/chat/completions"
	}
	model := c.Model
	if model == "" {
		model = "gpt-4o-mini"
	}
	user, _ = secrets.Redact(user)
	req := map[string]any{
		"model":       model,
		"temperature": 0,
		"messages": []map[string]string{
			{"role": "system", "content": system},
			{"role": "user", "content": user},
		},
	}
	if format != nil {
		req["response_format"] = format
	}
	body, _ := json.Marshal(req)
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	hr.Header.Set("Content-Type", "application/json")
	if c.Key != "" {
		hr.Header.Set("Authorization", "Bearer "+c.Key)
	}
	resp, err := client.Do(hr)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
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
