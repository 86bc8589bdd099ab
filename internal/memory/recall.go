package memory

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
)

// RecallDoc is memory/.dreams/short-term-recall.json held for editing:
// {"version":1,"entries":{KEY:{path,startLine,endLine,snippet,recallCount,...}}}.
// A store nothing changed is written back as it was read, byte for byte.
// Otherwise entries the caller does not touch are written back byte for
// byte (up to indentation), with their keys in the original order, unless
// their snippet holds a secret: that is written again redacted.
type RecallDoc struct {
	top     *object
	list    bool // entries were an array
	Entries []*RecallRecord
	byKey   map[string]*RecallRecord
	bare    bool // no final newline in the file read
	// src is the file as read, what Bytes gives while no entry is dirty.
	src []byte
}

// RecallRecord is one entry of the recall store.
type RecallRecord struct {
	Key             string
	Path            string
	StartLine       int
	EndLine         int
	Snippet         string
	RecallCount     int
	DailyCount      int
	GroundedCount   int
	TotalScore      float64
	MaxScore        float64
	FirstRecalledAt time.Time
	LastRecalledAt  time.Time
	PromotedAt      time.Time
	QueryHashes     []string
	RecallDays      []string
	ConceptTags     []string

	// raw is the entry as read; obj is made from it only when the record
	// is written again, which keeps a large store light to read.
	raw   json.RawMessage
	obj   *object
	dirty bool
}

// NewRecallDoc returns an empty recall store.
func NewRecallDoc() *RecallDoc {
	top := newObject()
	top.set("version", 1)
	top.setRaw("entries", json.RawMessage("{}"))
	return &RecallDoc{top: top, byKey: map[string]*RecallRecord{}}
}

// ParseRecallDoc reads short-term-recall.json. An error means the caller
// must leave the file alone.
func ParseRecallDoc(src []byte) (*RecallDoc, error) { return parseRecallDoc(src, nil) }

// ReadRecall reads the entries of short-term-recall.json, in file order,
// for a reader that only looks at them (the workspace). Like ReadMeta, it
// leaves out what is not an entry and says what in skipped, and it also
// takes a bare array of entries.
func ReadRecall(src []byte) (entries []*RecallRecord, skipped []string, err error) {
	skip := func(what string) { skipped = append(skipped, what) }
	d := NewRecallDoc()
	if t := bytes.TrimSpace(src); bytes.HasPrefix(t, []byte("[")) {
		err = d.addEntries(t, skip)
	} else {
		d, err = parseRecallDoc(src, skip)
	}
	if err != nil {
		return nil, nil, err
	}
	for _, r := range d.Entries {
		r.raw = nil // kept for a rewrite, which a reader never makes: src can go
	}
	return d.Entries, skipped, nil
}

// parseRecallDoc is ParseRecallDoc, or ReadRecall when skip is set: it is
// then called for each part left out instead of failing.
func parseRecallDoc(src []byte, skip func(what string)) (*RecallDoc, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return NewRecallDoc(), nil
	}
	top, err := parseObject(src)
	if err != nil {
		return nil, err
	}
	d := &RecallDoc{top: top, byKey: map[string]*RecallRecord{}, bare: !bytes.HasSuffix(src, []byte("\n")), src: src}
	raw, ok := top.vals["entries"]
	if !ok || isNull(raw) {
		top.setRaw("entries", json.RawMessage("{}"))
		return d, nil
	}
	return d, d.addEntries(raw, skip)
}

// addEntries adds the entries of an "entries" value: an object of key ->
// entry, or a list of entries with their keys inside.
func (d *RecallDoc) addEntries(raw json.RawMessage, skip func(what string)) error {
	switch raw[0] { // raw is a value the scanner read: no blank before it
	case '{':
		m, err := parseObject(raw)
		if err != nil {
			return err
		}
		for _, k := range m.keys {
			r, ok := readRecall(m.vals[k], k, false)
			if !ok {
				if err := notAnEntry(fmt.Sprintf("recall entry %q", k), skip); err != nil {
					return err
				}
				continue
			}
			d.add(r)
		}
	case '[':
		d.list = true
		items, err := parseArray(raw)
		if err != nil {
			return err
		}
		for i, it := range items {
			r, ok := readRecall(it, "", true)
			if !ok {
				if err := notAnEntry(fmt.Sprintf("recall entry %d", i+1), skip); err != nil {
					return err
				}
				continue
			}
			d.add(r)
		}
	default:
		err := errors.New(`"entries" is neither an object nor an array`)
		if skip == nil {
			return err
		}
		skip(err.Error())
	}
	return nil
}

func (d *RecallDoc) add(r *RecallRecord) {
	d.Entries = append(d.Entries, r)
	if r.Key != "" && d.byKey[r.Key] == nil {
		d.byKey[r.Key] = r
	}
}

// readRecall reads an entry, raw, stored under key; keyed takes the key
// from the entry's "key" field instead (entries in a list). ok is false
// when raw is not an object. A field given twice counts with its last
// value, as encoding/json reads it.
func readRecall(raw json.RawMessage, key string, keyed bool) (r *RecallRecord, ok bool) {
	if raw[0] != '{' {
		return nil, false
	}
	r = &RecallRecord{raw: raw}
	var snippet, first, last, promoted json.RawMessage
	var path, start, end json.RawMessage
	eachMember(raw, func(k, v []byte) { // raw was checked when it was read
		switch string(k) {
		case "key":
			if keyed {
				key = rawString(v)
			}
		case "path":
			path = v
		case "startLine":
			start = v
		case "endLine":
			end = v
		case "snippet":
			snippet = v
		case "recallCount":
			r.RecallCount = int(rawFloat(v))
		case "dailyCount":
			r.DailyCount = int(rawFloat(v))
		case "groundedCount":
			r.GroundedCount = int(rawFloat(v))
		case "totalScore":
			r.TotalScore = rawFloat(v)
		case "maxScore":
			r.MaxScore = rawFloat(v)
		case "firstRecalledAt":
			first = v
		case "lastRecalledAt":
			last = v
		case "promotedAt":
			promoted = v
		case "queryHashes":
			r.QueryHashes = rawStrings(v)
		case "recallDays":
			r.RecallDays = rawStrings(v)
		case "conceptTags":
			r.ConceptTags = rawStrings(v)
		}
	})
	r.Key = key
	r.Path = rawString(path)
	r.StartLine = int(rawFloat(start))
	r.EndLine = int(rawFloat(end))
	if r.Path == "" || r.StartLine == 0 {
		if p, a, b, ok := splitRecallKey(key); ok {
			if r.Path == "" {
				r.Path = p
			}
			if r.StartLine == 0 && r.EndLine == 0 {
				r.StartLine, r.EndLine = a, b
			}
		}
	}
	if raw := rawString(snippet); raw != "" {
		r.Snippet = scrub(raw)
		r.dirty = r.Snippet != raw // written again without the secret
	}
	r.FirstRecalledAt = rawTime(first)
	r.LastRecalledAt = rawTime(last)
	r.PromotedAt = rawTime(promoted)
	return r, true
}

// splitRecallKey reads "source:path:start:end[:claimHash]".
func splitRecallKey(key string) (path string, start, end int, ok bool) {
	parts := strings.Split(key, ":")
	num := func(s string) (int, bool) {
		var n int
		_, err := fmt.Sscanf(s, "%d", &n)
		return n, err == nil && fmt.Sprint(n) == s
	}
	for cut := len(parts); cut >= 3; cut-- {
		a, ok1 := num(parts[cut-2])
		b, ok2 := num(parts[cut-1])
		if ok1 && ok2 && cut-2 >= 2 {
			return strings.Join(parts[1:cut-2], ":"), a, b, true
		}
	}
	if len(parts) == 2 { // "source:path", a whole file
		return parts[1], 0, 0, true
	}
	return "", 0, 0, false
}

// RecallKey is the store key of a line range: "memory:PATH:START:END".
func RecallKey(path string, start, end int) string {
	return fmt.Sprintf("memory:%s:%d:%d", path, start, end)
}

// Get returns the record with the key, or nil.
func (d *RecallDoc) Get(key string) *RecallRecord { return d.byKey[key] }

// Record counts one recall of a line range found by a query: recallCount,
// totalScore and maxScore grow, the query's hash and the day join their
// lists (once), groundedCount grows
// when the match was confirmed against the text itself (grounded), and the
// first and last recall times move. A new range gets its snippet and up to
// six concept tags from the snippet. dailyCount is left as it is: in
// OpenClaw's store it counts the dreaming's daily ingestions, another
// signal than a recall, and the Deep phase adds the two (n = recalls +
// daily ingestions).
func (d *RecallDoc) Record(m Match, queryHash string, grounded bool, at time.Time) *RecallRecord {
	key := RecallKey(m.Path, m.StartLine, m.EndLine)
	r := d.byKey[key]
	if r == nil {
		r = &RecallRecord{Key: key, Path: m.Path, StartLine: m.StartLine, EndLine: m.EndLine, obj: newObject()}
		d.add(r)
	}
	r.dirty = true
	if r.Snippet == "" {
		r.Snippet = scrub(m.Text)
	}
	if len(r.ConceptTags) == 0 {
		r.ConceptTags = ConceptTags(r.Snippet, 6)
	}
	r.RecallCount++
	r.TotalScore = round3(r.TotalScore + m.Score)
	r.MaxScore = max(r.MaxScore, round3(m.Score))
	if grounded {
		r.GroundedCount++
	}
	at = at.UTC()
	if r.FirstRecalledAt.IsZero() || at.Before(r.FirstRecalledAt) {
		r.FirstRecalledAt = at
	}
	if at.After(r.LastRecalledAt) {
		r.LastRecalledAt = at
	}
	if queryHash != "" && !slices.Contains(r.QueryHashes, queryHash) {
		r.QueryHashes = append(r.QueryHashes, queryHash)
	}
	if day := at.Format(time.DateOnly); !slices.Contains(r.RecallDays, day) {
		r.RecallDays = append(r.RecallDays, day)
	}
	if d.top != nil {
		d.top.set("updatedAt", stamp(at))
	}
	return r
}

// MarkPromoted records that a dream promoted the range.
func (d *RecallDoc) MarkPromoted(key string, at time.Time) {
	if r := d.byKey[key]; r != nil {
		r.PromotedAt = at.UTC()
		r.dirty = true
	}
}

// Bytes encodes the store with two-space indentation, or gives back the
// file as it was read while no entry changed.
func (d *RecallDoc) Bytes() []byte {
	if d.src != nil && !slices.ContainsFunc(d.Entries, func(r *RecallRecord) bool { return r.dirty }) {
		return bytes.Clone(d.src)
	}
	d.src = nil // what was read is no longer what the store holds
	entries := newObject()
	var list []json.RawMessage
	for _, r := range d.Entries {
		if r.dirty {
			r.write()
		}
		raw := r.raw
		if r.obj != nil {
			raw, _ = r.obj.MarshalJSON()
		}
		if d.list {
			list = append(list, raw)
		} else {
			entries.setRaw(r.Key, raw)
		}
	}
	if d.list {
		var b strings.Builder
		b.WriteByte('[')
		for i, raw := range list {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(raw)
		}
		b.WriteByte(']')
		d.top.setRaw("entries", json.RawMessage(b.String()))
	} else {
		raw, _ := entries.MarshalJSON()
		d.top.setRaw("entries", raw)
	}
	raw, _ := d.top.MarshalJSON()
	b := indent(raw)
	if d.bare {
		b = b[:len(b)-1]
	}
	return b
}

func (r *RecallRecord) write() {
	if r.obj == nil {
		var err error
		if r.obj, err = parseObject(r.raw); err != nil {
			r.obj = newObject() // not reached: raw was read as an object
		}
	}
	o := r.obj
	if o.present("key") != "" || len(o.keys) == 0 && r.Key == "" {
		o.set("key", r.Key)
	}
	o.set("path", r.Path)
	o.set("startLine", r.StartLine)
	o.set("endLine", r.EndLine)
	o.set("snippet", scrub(r.Snippet))
	o.set("recallCount", r.RecallCount)
	o.set("dailyCount", r.DailyCount)
	o.set("groundedCount", r.GroundedCount)
	o.set("totalScore", r.TotalScore)
	o.set("maxScore", r.MaxScore)
	o.set("firstRecalledAt", stampOrNil(r.FirstRecalledAt))
	o.set("lastRecalledAt", stampOrNil(r.LastRecalledAt))
	o.set("queryHashes", nonNil(r.QueryHashes))
	o.set("recallDays", nonNil(r.RecallDays))
	o.set("conceptTags", nonNil(r.ConceptTags))
	if !r.PromotedAt.IsZero() || o.has("promotedAt") {
		o.set("promotedAt", stampOrNil(r.PromotedAt))
	}
	r.dirty = false
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// stamp formats a time as OpenClaw does: UTC with milliseconds.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func stampOrNil(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return stamp(t)
}

// QueryHash is the hash a query is recorded under: the first 12 hex digits
// of the SHA-256 of the query, lower-cased with blanks collapsed, so the
// same question asked twice counts as one unique query.
func QueryHash(q string) string {
	sum := sha256.Sum256([]byte(strings.Join(strings.Fields(strings.ToLower(q)), " ")))
	return hex.EncodeToString(sum[:])[:12]
}

// ConceptTags derives up to max concept tags from a text: its distinct
// content words of four letters or more (words as analysis.Words gives
// them, StopWord and numbers left out), in order of first appearance.
// Explicit #tags come first.
func ConceptTags(text string, max int) []string {
	var out []string
	seen := map[string]bool{}
	addTag := func(w string) {
		if len(out) < max && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, f := range strings.Fields(text) {
		if strings.HasPrefix(f, "#") && len(f) > 1 {
			addTag(strings.ToLower(strings.TrimRight(f[1:], ".,;:!?)")))
		}
	}
	for _, w := range analysis.Words(text) {
		if utf8.RuneCountInString(w) >= 4 && !StopWord(w) && !Numberish(w) {
			addTag(w)
		}
	}
	return out
}

// Numberish reports a word (as analysis.Words gives it) without a letter:
// a number, or a piece of a date, version or address, which names no
// concept.
func Numberish(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// StopWord reports a word that says nothing about what a memory entry is
// about: a stop word of the analysis (analysis.StopWord), or a word an
// agent's log uses of every exchange and every day (user, asked, today,
// numbers written out), which makes no concept tag and tells one recalled
// line from another poorly.
func StopWord(w string) bool { return analysis.StopWord(w) || logWords[w] }

var logWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`even still now new old vs one two three four five six seven eight nine ten
		first last next today yesterday tomorrow week weeks month months year years day days time times
		user agent please thanks ok okay said says say asked ask told tell wants want need needs get got make made`) {
		m[w] = true
	}
	return m
}()
