package memory

import (
	"bufio"
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"time"
)

// EventLog is the record shape memory/.dreams/events.jsonl already uses,
// so that a record dreamwiki appends reads like the ones around it: the
// file is OpenClaw's, and its readers expect their own schema.
type EventLog struct {
	// TimeKey is the key records carry their time under: "timestamp" in
	// OpenClaw's logs (and in a log that does not exist yet), "ts" in
	// older ones.
	TimeKey string
	// Common are the keys every record of the log has, sorted. A record
	// that cannot carry them all is not written (see Record).
	Common []string
	// Types are the keys every record of each type carries, sorted: a
	// record of a type the log already holds carries them too (see
	// Record).
	Types map[string][]string
}

// eventTimeKeys are the keys a record's time is found under, the one
// OpenClaw writes first.
var eventTimeKeys = []string{"timestamp", "ts", "at", "time", "recordedAt", "createdAt"}

// ReadEventLog reads the schema of an events.jsonl: the time key most of
// its records use and the keys all of them share. Lines that are not JSON
// objects are left out of both.
func ReadEventLog(data []byte) EventLog {
	l := EventLog{TimeKey: eventTimeKeys[0], Types: map[string][]string{}}
	uses := map[string]int{}
	var common map[string]bool
	all := map[string]map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		o, err := parseObject(line)
		if err != nil {
			continue
		}
		for _, k := range eventTimeKeys {
			if o.has(k) {
				uses[k]++
				break
			}
		}
		var typ string
		if raw, _ := o.first("type"); raw != nil && json.Unmarshal(raw, &typ) == nil && typ != "" {
			if all[typ] == nil {
				all[typ] = map[string]bool{}
				for _, k := range o.keys {
					all[typ][k] = true
				}
			}
			for k := range all[typ] {
				if !o.has(k) {
					delete(all[typ], k)
				}
			}
		}
		if common == nil {
			common = map[string]bool{}
			for _, k := range o.keys {
				common[k] = true
			}
			continue
		}
		for k := range common {
			if !o.has(k) {
				delete(common, k)
			}
		}
	}
	best := 0
	for _, k := range eventTimeKeys {
		if uses[k] > best {
			l.TimeKey, best = k, uses[k]
		}
	}
	l.Common = slices.Sorted(maps.Keys(common))
	for typ := range all {
		l.Types[typ] = slices.Sorted(maps.Keys(all[typ]))
	}
	return l
}

// Record returns the line (with its newline) of an event in the log's
// shape: type, the time under the log's time key, then the fields in
// sorted order, strings redacted. A type the log already holds follows
// the keys its records use (#23 rule 3). ok is false when the event has no
// value for a key every record of its type carries, or every record of the
// log: such a record would not be one of the log's records, so none is
// written.
func (l EventLog) Record(typ string, at time.Time, fields map[string]any) (line []byte, ok bool) {
	timeKey := l.TimeKey
	if timeKey == "" {
		timeKey = eventTimeKeys[0]
	}
	need := append(slices.Clone(l.Common), l.Types[typ]...)
	for _, k := range need {
		if _, has := fields[k]; !has && k != "type" && k != timeKey && !isTimeKey(k) {
			return nil, false
		}
	}
	o := newObject()
	o.set("type", typ)
	o.set(timeKey, stamp(at))
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		v := fields[k]
		if s, ok := v.(string); ok {
			v = scrub(s)
		}
		o.set(k, v)
	}
	raw, _ := o.MarshalJSON()
	return append(raw, '\n'), true
}

// RecallEvent returns the line of a memory.recall.recorded event in the
// log's shape (see Record); the query is written redacted.
func (l EventLog) RecallEvent(query string, results []Match, at time.Time) ([]byte, bool) {
	type result struct {
		Path      string  `json:"path"`
		StartLine int     `json:"startLine"`
		EndLine   int     `json:"endLine"`
		Score     float64 `json:"score"`
	}
	rs := []result{}
	for _, m := range results {
		rs = append(rs, result{m.Path, m.StartLine, m.EndLine, round3(m.Score)})
	}
	return l.Record("memory.recall.recorded", at, map[string]any{"query": query, "resultCount": len(results), "results": rs})
}

// isTimeKey reports a key events carry their time under.
func isTimeKey(k string) bool { return slices.Contains(eventTimeKeys, k) }
