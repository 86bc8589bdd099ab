package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/dates"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/memory"
)

// The JSON state files are read tolerantly: any field may be missing, of
// another type (numbers as strings, times as Unix numbers) or unknown.
// Only malformed JSON is reported, with its line.

// decodeJSON decodes src into a generic value with numbers kept exact.
func decodeJSON(src string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(src))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	off := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			return nil, trailingDataError{off + 1}
		}
		return nil, err
	}
	return v, nil
}

// trailingDataError is a second value after the top-level one.
type trailingDataError struct{ offset int64 }

// Error says what is wrong, without the offset (the line is reported).
func (e trailingDataError) Error() string { return "unexpected data after the top-level value" }

// jsonProblem turns a decoding error into a warning at the right line.
func jsonProblem(diags *diag.List, file, src string, lineOffset int, err error, what string) {
	line, col := 0, 0
	msg := err.Error()
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var td trailingDataError
	switch {
	case errors.As(err, &se):
		line, col = offsetLineCol(src, se.Offset)
	case errors.As(err, &td):
		line, col = offsetLineCol(src, td.offset)
	case errors.As(err, &te):
		line, col = offsetLineCol(src, te.Offset)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		line, col = offsetLineCol(src, int64(len(src)))
		msg = "unexpected end of JSON input"
		if strings.TrimSpace(src) == "" {
			msg = "file is empty"
		}
	}
	if line > 0 {
		line += lineOffset
	}
	diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "json", File: file, Line: line, Col: col,
		Message: fmt.Sprintf("not valid JSON (%s); %s", msg, what)})
}

// offsetLineCol converts a byte offset into a 1-based line and column.
// json's SyntaxError offset points just past the offending byte.
func offsetLineCol(src string, off int64) (int, int) {
	if off > int64(len(src)) {
		off = int64(len(src))
	}
	if off > 0 {
		off-- // the offending byte itself
	}
	before := src[:off]
	line := strings.Count(before, "\n") + 1
	col := int(off) - strings.LastIndexByte(before, '\n')
	return line, col
}

// validateJSON reports malformed JSON in a data file nobody interprets.
func validateJSON(f *File, diags *diag.List) {
	if strings.HasSuffix(strings.ToLower(f.Path), ".jsonl") {
		forEachJSONLine(f, diags, "the line was skipped", func(int, any) {})
		return
	}
	if !json.Valid([]byte(f.Content)) {
		_, err := decodeJSON(f.Content)
		if err == nil {
			err = errors.New("invalid JSON")
		}
		jsonProblem(diags, f.Path, f.Content, 0, err, "the file was not interpreted")
	}
}

// forEachJSONLine decodes every non-blank line of a JSONL file, warning
// about bad lines and going on with the rest.
func forEachJSONLine(f *File, diags *diag.List, what string, fn func(line int, v any)) {
	src := f.Content
	line := 0
	for len(src) > 0 {
		line++
		l := src
		if k := strings.IndexByte(src, '\n'); k >= 0 {
			l, src = src[:k], src[k+1:]
		} else {
			src = ""
		}
		if strings.TrimSpace(l) == "" {
			continue
		}
		v, err := decodeJSON(l)
		if err != nil {
			jsonProblem(diags, f.Path, l, line-1, err, what)
			continue
		}
		fn(line, v)
	}
}

// Accessors for decoded values.

func jObject(v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	return m, ok
}

// jGet returns the first of keys present in m.
func jGet(m map[string]any, keys ...string) (any, bool) {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return v, true
		}
	}
	return nil, false
}

func jString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

func jFloat(v any) float64 {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case string:
		f, _ := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f
	case bool:
		if x {
			return 1
		}
	}
	return 0
}

func jInt(v any) int {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		return int(f)
	case string:
		if i, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return int(f)
	case bool:
		if x {
			return 1
		}
	}
	return 0
}

func jTime(v any) time.Time {
	switch x := v.(type) {
	case string:
		t, _ := dates.Timestamp(x)
		return t
	case json.Number:
		f, err := x.Float64()
		if err == nil && f != 0 {
			return dates.Unix(f)
		}
	}
	return time.Time{}
}

// plainJSON converts json.Number values into float64 (what encoding/json
// gives by default), so Extra and Fields hold ordinary decoded JSON.
func plainJSON(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plainJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainJSON(e)
		}
		return out
	}
	return v
}

// extra returns the fields of m not in known, or nil.
func extra(m map[string]any, known map[string]bool) map[string]any {
	var out map[string]any
	for k, v := range m {
		if known[k] {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		out[k] = plainJSON(v)
	}
	return out
}

func keySet(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// --- short-term-recall.json and memory-meta.json ---

// Their formats are the memory package's, which reads them for the dream
// that rewrites them too; the workspace only reports a file that is no
// JSON at all (with its line) and the entries memory had to leave out.

func parseMeta(f *File, diags *diag.List) *MetaStore {
	return &MetaStore{File: f, Entries: readStateFile(f, diags, "the decay metadata", memory.ReadMeta)}
}

// readStateFile reads the entries of a state file with read, reporting
// JSON that does not parse (at its line), a file read cannot take, and
// each entry it left out. read checks the JSON as strictly as
// encoding/json, so the file is decoded a second time, for the line of
// the problem, only when read fails (or finds nothing in a blank file):
// a recall store can be tens of megabytes.
func readStateFile[E any](f *File, diags *diag.List, what string, read func([]byte) ([]E, []string, error)) []E {
	entries, skipped, err := read([]byte(f.Content))
	if err != nil || strings.TrimSpace(f.Content) == "" {
		if _, jerr := decodeJSON(f.Content); jerr != nil {
			jsonProblem(diags, f.Path, f.Content, 0, jerr, what+" was not loaded")
		} else {
			diags.Warnf("json", f.Path, 0, "%s was not loaded (%v)", what, err)
		}
		return nil
	}
	for _, s := range skipped {
		diags.Warnf("json", f.Path, 0, "%s: %s; it was skipped", what, s)
	}
	return entries
}

// --- events.jsonl ---

var eventTimeKeys = []string{"at", "ts", "timestamp", "time", "recordedAt", "createdAt"}

func parseEvents(f *File, diags *diag.List) []Event {
	var out []Event
	forEachJSONLine(f, diags, "the event was skipped", func(line int, v any) {
		m, ok := jObject(v)
		if !ok {
			diags.Warnf("json", f.Path, line, "event is not a JSON object; it was skipped")
			return
		}
		ev := Event{Line: line}
		known := map[string]bool{}
		if t, ok := jGet(m, "type", "event", "kind", "name"); ok {
			ev.Type = jString(t)
			for _, k := range []string{"type", "event", "kind", "name"} {
				if _, ok := m[k]; ok {
					known[k] = true
					break
				}
			}
		}
		for _, k := range eventTimeKeys {
			if t, ok := m[k]; ok && t != nil {
				ev.At = jTime(t)
				known[k] = true
				break
			}
		}
		// Recall fields may sit at the top or under data/payload.
		body := m
		_, top := jGet(m, "query", "results", "resultCount")
		if !top {
			for _, k := range []string{"data", "payload", "detail"} {
				if d, ok := jObject(m[k]); ok {
					body = d
					break
				}
			}
		}
		if q, ok := body["query"]; ok {
			ev.Query = jString(q)
		}
		if n, ok := jGet(body, "resultCount", "results_count", "count"); ok {
			ev.ResultCount = jInt(n)
		}
		if rs, ok := body["results"].([]any); ok {
			for _, r := range rs {
				rm, ok := jObject(r)
				if !ok {
					continue
				}
				ev.Results = append(ev.Results, EventResult{
					Path:      jString(rm["path"]),
					StartLine: jInt(rm["startLine"]),
					EndLine:   jInt(rm["endLine"]),
					Score:     jFloat(rm["score"]),
				})
			}
			if ev.ResultCount == 0 {
				ev.ResultCount = len(ev.Results)
			}
		}
		if top {
			known["query"], known["resultCount"], known["results"] = true, true, true
		}
		ev.Fields = extra(m, known)
		out = append(out, ev)
	})
	return out
}

// --- heartbeat-state.json ---

func parseHeartbeat(f *File, diags *diag.List) *Heartbeat {
	h := &Heartbeat{File: f}
	v, err := decodeJSON(f.Content)
	if err != nil {
		jsonProblem(diags, f.Path, f.Content, 0, err, "the heartbeat state was not loaded")
		return h
	}
	m, ok := jObject(v)
	if !ok {
		diags.Warnf("json", f.Path, 0, "heartbeat state is not a JSON object; it was ignored")
		return h
	}
	if t, ok := jGet(m, "lastDreamAt", "last_dream_at", "lastDream"); ok {
		h.LastDreamAt = jTime(t)
	}
	if r, ok := jGet(m, "lastDreamResult", "last_dream_result"); ok {
		h.LastDreamResult = jString(r)
	}
	h.Extra = extra(m, keySet("lastDreamAt", "last_dream_at", "lastDream", "lastDreamResult", "last_dream_result"))
	return h
}

// --- archives/archive-config.json ---

func parseArchiveConfig(f *File, diags *diag.List) *ArchiveConfig {
	c := &ArchiveConfig{File: f}
	v, err := decodeJSON(f.Content)
	if err != nil {
		jsonProblem(diags, f.Path, f.Content, 0, err, "group labels were not loaded")
		return c
	}
	m, ok := jObject(v)
	if !ok {
		diags.Warnf("json", f.Path, 0, "archive config is not a JSON object; it was ignored")
		return c
	}
	c.AgentName = jString(m["agentName"])
	if gs, ok := jObject(m["groups"]); ok {
		c.Groups = map[string]ArchiveGroup{}
		for id, gv := range gs {
			switch g := gv.(type) {
			case map[string]any:
				c.Groups[id] = ArchiveGroup{Name: jString(g["name"]), Label: jString(g["label"])}
			case string:
				c.Groups[id] = ArchiveGroup{Label: g}
			}
		}
	}
	if ts, ok := jObject(m["topicNames"]); ok {
		c.TopicNames = map[string]map[string]string{}
		for gid, tv := range ts {
			tm, ok := jObject(tv)
			if !ok {
				continue
			}
			names := map[string]string{}
			for tid, n := range tm {
				names[tid] = jString(n)
			}
			c.TopicNames[gid] = names
		}
	}
	return c
}
