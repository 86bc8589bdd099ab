package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/dates"
	"github.com/dreamwiki/dreamwiki/internal/diag"
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

func jBool(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		b, _ := strconv.ParseBool(strings.TrimSpace(x))
		return b
	case json.Number:
		f, _ := x.Float64()
		return f != 0
	}
	return false
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

func jStrings(v any) []string {
	switch x := v.(type) {
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			if s := jString(e); s != "" {
				out = append(out, s)
			}
		}
		return out
	case string:
		if x == "" {
			return nil
		}
		return []string{x}
	}
	return nil
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

// orderedObject decodes a JSON object keeping its key order.
func orderedObject(src string) ([]string, map[string]json.RawMessage, error) {
	dec := json.NewDecoder(strings.NewReader(src))
	t, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, nil, errors.New("not an object")
	}
	var keys []string
	vals := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, err
		}
		if _, dup := vals[k]; !dup {
			keys = append(keys, k)
		}
		vals[k] = raw
	}
	return keys, vals, nil
}

// --- short-term-recall.json ---

var recallKnown = keySet("key", "path", "startLine", "endLine", "snippet", "recallCount", "dailyCount",
	"groundedCount", "totalScore", "maxScore", "firstRecalledAt", "lastRecalledAt", "queryHashes",
	"recallDays", "conceptTags", "promotedAt", "source")

func parseRecall(f *File, diags *diag.List) *RecallStore {
	v, err := decodeJSON(f.Content)
	if err != nil {
		jsonProblem(diags, f.Path, f.Content, 0, err, "the recall store was not loaded")
		return &RecallStore{File: f}
	}
	rs := &RecallStore{File: f}
	top, ok := jObject(v)
	var entries any
	if ok {
		rs.Version = jInt(top["version"])
		entries = top["entries"]
		rs.Extra = extra(top, keySet("version", "entries"))
	} else {
		entries = v // a bare array or map of entries
	}
	add := func(key string, ev any) {
		m, ok := jObject(ev)
		if !ok {
			diags.Warnf("json", f.Path, 0, "recall entry %q is not an object; it was skipped", key)
			return
		}
		if k := jString(m["key"]); k != "" {
			key = k
		}
		e := &RecallEntry{
			Key:             key,
			Path:            jString(m["path"]),
			StartLine:       jInt(m["startLine"]),
			EndLine:         jInt(m["endLine"]),
			Snippet:         jString(m["snippet"]),
			RecallCount:     jInt(m["recallCount"]),
			DailyCount:      jInt(m["dailyCount"]),
			GroundedCount:   jInt(m["groundedCount"]),
			TotalScore:      jFloat(m["totalScore"]),
			MaxScore:        jFloat(m["maxScore"]),
			FirstRecalledAt: jTime(m["firstRecalledAt"]),
			LastRecalledAt:  jTime(m["lastRecalledAt"]),
			QueryHashes:     jStrings(m["queryHashes"]),
			RecallDays:      jStrings(m["recallDays"]),
			ConceptTags:     jStrings(m["conceptTags"]),
			PromotedAt:      jTime(m["promotedAt"]),
			Source:          jString(m["source"]),
			Extra:           extra(m, recallKnown),
		}
		src, path, start, end, hash := parseRecallKey(e.Key)
		if e.Source == "" {
			e.Source = src
		}
		if e.Path == "" {
			e.Path = path
		}
		if e.StartLine == 0 && e.EndLine == 0 {
			e.StartLine, e.EndLine = start, end
		}
		e.ClaimHash = hash
		rs.Entries = append(rs.Entries, e)
	}
	switch x := entries.(type) {
	case map[string]any:
		for k, ev := range x {
			add(k, ev)
		}
	case []any:
		for i, ev := range x {
			add(fmt.Sprintf("#%d", i), ev)
		}
	case nil:
	default:
		diags.Warnf("json", f.Path, 0, "recall store \"entries\" is neither an object nor an array; it was ignored")
	}
	sort.SliceStable(rs.Entries, func(i, j int) bool { return rs.Entries[i].Key < rs.Entries[j].Key })
	return rs
}

// parseRecallKey splits "source:path:start:end[:claimHash]".
func parseRecallKey(key string) (source, path string, start, end int, hash string) {
	parts := strings.Split(key, ":")
	n := len(parts)
	num := func(s string) (int, bool) {
		v, err := strconv.Atoi(s)
		return v, err == nil
	}
	switch {
	case n >= 4:
		if a, ok1 := num(parts[n-2]); ok1 {
			if b, ok2 := num(parts[n-1]); ok2 {
				return parts[0], strings.Join(parts[1:n-2], ":"), a, b, ""
			}
		}
		if n >= 5 {
			if a, ok1 := num(parts[n-3]); ok1 {
				if b, ok2 := num(parts[n-2]); ok2 {
					return parts[0], strings.Join(parts[1:n-3], ":"), a, b, parts[n-1]
				}
			}
		}
	case n == 2:
		return parts[0], parts[1], 0, 0, ""
	}
	return "", "", 0, 0, ""
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

// --- memory-meta.json ---

var metaKnown = keySet("id", "text", "created", "createdAt", "created_at", "lastRecalled", "lastRecalledAt",
	"last_recalled", "recallCount", "recalls", "recall_count", "structural", "supersededBy", "superseded_by",
	"supersedes", "tier", "score", "decayScore", "decay_score", "section")

func parseMeta(f *File, diags *diag.List) *MetaStore {
	ms := &MetaStore{File: f}
	v, err := decodeJSON(f.Content)
	if err != nil {
		jsonProblem(diags, f.Path, f.Content, 0, err, "the decay metadata was not loaded")
		return ms
	}
	add := func(id string, ev any, index int) {
		m, ok := jObject(ev)
		if !ok {
			diags.Warnf("json", f.Path, 0, "memory metadata entry %d is not an object; it was skipped", index+1)
			return
		}
		e := &MetaEntry{
			ID:           jString(m["id"]),
			Text:         jString(m["text"]),
			Structural:   jBool(m["structural"]),
			SupersededBy: firstString(m, "supersededBy", "superseded_by"),
			Supersedes:   jString(m["supersedes"]),
			Tier:         jString(m["tier"]),
			Section:      jString(m["section"]),
			Extra:        extra(m, metaKnown),
		}
		if e.ID == "" {
			e.ID = id
		}
		if t, ok := jGet(m, "created", "createdAt", "created_at"); ok {
			e.Created = jTime(t)
		}
		if t, ok := jGet(m, "lastRecalled", "lastRecalledAt", "last_recalled"); ok {
			e.LastRecalled = jTime(t)
		}
		if n, ok := jGet(m, "recallCount", "recalls", "recall_count"); ok {
			e.RecallCount = jInt(n)
		}
		if s, ok := jGet(m, "score", "decayScore", "decay_score"); ok {
			e.Score = jFloat(s)
		}
		if e.Supersedes == "" {
			// an older shape lists the superseded ids
			if ss := jStrings(m["supersedes"]); len(ss) > 0 {
				e.Supersedes = ss[0]
			}
		}
		ms.Entries = append(ms.Entries, e)
	}
	addMap := func(src json.RawMessage) {
		keys, vals, err := orderedObject(string(src))
		if err != nil {
			return
		}
		for i, k := range keys {
			ev, err := decodeJSON(string(vals[k]))
			if err != nil {
				continue
			}
			add(k, ev, i)
		}
	}
	switch x := v.(type) {
	case []any:
		ms.Shape = "array"
		for i, ev := range x {
			add("", ev, i)
		}
	case map[string]any:
		entries, hasEntries := jGet(x, "entries", "memories", "items")
		if !hasEntries {
			if looksLikeEntryMap(x) {
				ms.Shape = "map"
				addMap(json.RawMessage(f.Content))
				return ms
			}
			ms.Extra = extra(x, nil)
			return ms
		}
		key := "entries"
		for _, k := range []string{"entries", "memories", "items"} {
			if _, ok := x[k]; ok {
				key = k
				break
			}
		}
		ms.Extra = extra(x, keySet(key))
		switch es := entries.(type) {
		case []any:
			ms.Shape = "entries-array"
			for i, ev := range es {
				add("", ev, i)
			}
		case map[string]any:
			ms.Shape = "entries-map"
			_, raws, err := orderedObject(f.Content)
			if err == nil {
				addMap(raws[key])
			}
		default:
			diags.Warnf("json", f.Path, 0, "memory metadata %q is neither an array nor an object; it was ignored", key)
		}
	default:
		diags.Warnf("json", f.Path, 0, "memory metadata is neither an array nor an object; it was ignored")
	}
	return ms
}

// looksLikeEntryMap reports a top-level object of id -> entry objects.
func looksLikeEntryMap(m map[string]any) bool {
	if len(m) == 0 {
		return false
	}
	for _, v := range m {
		e, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := jGet(e, "text", "id", "created", "recallCount"); !ok {
			return false
		}
	}
	return true
}

func firstString(m map[string]any, keys ...string) string {
	if v, ok := jGet(m, keys...); ok {
		if s := jString(v); s != "" {
			return s
		}
		if ss := jStrings(v); len(ss) > 0 {
			return ss[0]
		}
	}
	return ""
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
