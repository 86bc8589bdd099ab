package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/dates"
)

// MetaDoc is memory/memory-meta.json held for editing. It reads every shape
// the workspace tolerates ({"entries":[...]}, {"entries":{id:{...}}}, a
// top-level array, a top-level map of id -> entry) and writes the file back
// in the shape it came in, with keys in their original order and unknown
// fields untouched, so that a rewrite shows only the values that changed.
//
// Building and encoding a MetaDoc is pure; writing the bytes is the dream
// package's job. Entry texts are held and written with their secrets
// redacted.
type MetaDoc struct {
	shape   string  // "entries-array", "entries-map", "array" or "map"
	top     *object // the top-level object; nil for "array"
	listKey string  // "entries", "memories" or "items"
	Entries []*MetaRecord
	ids     map[string]*MetaRecord
	// bare is set when the file had no final newline; it is written back
	// the same way.
	bare bool
}

// MetaRecord is one entry of memory-meta.json. The typed fields are read
// when the document is parsed and written back (under the key the file
// already used for them) only when they changed.
type MetaRecord struct {
	MetaFields

	obj    *object
	mapKey string
	orig   MetaFields // as parsed, to write only what changed
	fresh  bool       // added since the document was read
}

// MetaFields are the fields of a memory-meta.json entry dreamwiki reads and
// writes; any other field is carried over untouched.
type MetaFields struct {
	ID      string
	Text    string
	Section string
	Type    string
	File    string // the workspace file that holds the entry ("MEMORY.md", "memory/gateway.md")
	Created time.Time
	// FirstSeen is when a record was made for an entry nothing dates (no
	// date of its own, no source): the entry is at least that old. Created
	// stays unknown rather than take a made-up date.
	FirstSeen    time.Time
	LastRecalled time.Time
	RecallCount  int
	Structural   bool
	Supersedes   string
	SupersededBy string
	Tier         string
	Score        float64
}

// Field names and their accepted aliases, the first being the one a new
// entry is written with.
var (
	metaID           = []string{"id"}
	metaText         = []string{"text"}
	metaSection      = []string{"section"}
	metaType         = []string{"type", "memoryType", "memory_type"}
	metaFile         = []string{"file", "path"}
	metaCreated      = []string{"created", "createdAt", "created_at"}
	metaFirstSeen    = []string{"firstSeen", "first_seen"}
	metaLastRecalled = []string{"lastRecalled", "lastRecalledAt", "last_recalled"}
	metaRecalls      = []string{"recallCount", "recalls", "recall_count"}
	metaStructural   = []string{"structural"}
	metaSupersedes   = []string{"supersedes"}
	metaSupersededBy = []string{"supersededBy", "superseded_by"}
	metaTier         = []string{"tier"}
	metaScore        = []string{"score", "decayScore", "decay_score"}
)

// NewMetaDoc returns an empty memory-meta.json in the default shape.
func NewMetaDoc() *MetaDoc {
	top := newObject()
	top.set("version", 1)
	top.setRaw("entries", json.RawMessage("[]"))
	return &MetaDoc{shape: "entries-array", top: top, listKey: "entries", ids: map[string]*MetaRecord{}}
}

// ParseMetaDoc reads memory-meta.json. An error means the file is not JSON
// in any shape it understands; callers must then leave the file alone
// rather than overwrite what they cannot read.
func ParseMetaDoc(src []byte) (*MetaDoc, error) { return parseMetaDoc(src, nil) }

// ReadMeta reads the entries of memory-meta.json, in file order, for a
// reader that only looks at them (the workspace). Unlike ParseMetaDoc it
// leaves out what is not an entry (an item that is not an object, an
// "entries" that is neither list nor object) and says what in skipped,
// rather than failing the file: a writer must fail, since writing back
// what it read would drop that part, but a reader can go on with the rest.
func ReadMeta(src []byte) (entries []*MetaRecord, skipped []string, err error) {
	d, err := parseMetaDoc(src, func(what string) { skipped = append(skipped, what) })
	if err != nil {
		return nil, nil, err
	}
	return d.Entries, skipped, nil
}

// parseMetaDoc is ParseMetaDoc, or ReadMeta when skip is set: it is then
// called for each part left out instead of failing.
func parseMetaDoc(src []byte, skip func(what string)) (*MetaDoc, error) {
	d := &MetaDoc{ids: map[string]*MetaRecord{}, bare: len(src) > 0 && !strings.HasSuffix(string(src), "\n")}
	trim := strings.TrimSpace(string(src))
	if trim == "" {
		return NewMetaDoc(), nil
	}
	if trim[0] == '[' {
		items, err := parseArray([]byte(trim))
		if err != nil {
			return nil, err
		}
		d.shape = "array"
		return d, d.addList(items, skip)
	}
	top, err := parseObject([]byte(trim))
	if err != nil {
		return nil, err
	}
	d.top = top
	for _, k := range []string{"entries", "memories", "items"} {
		if v, ok := top.vals[k]; ok {
			d.listKey = k
			switch t := strings.TrimSpace(string(v)); {
			case strings.HasPrefix(t, "["):
				d.shape = "entries-array"
				items, err := parseArray(v)
				if err != nil {
					return nil, err
				}
				return d, d.addList(items, skip)
			case strings.HasPrefix(t, "{"):
				d.shape = "entries-map"
				m, err := parseObject(v)
				if err != nil {
					return nil, err
				}
				return d, d.addMap(m, skip)
			case t == "null":
				d.shape = "entries-array"
				return d, nil
			}
			err := fmt.Errorf("%q is neither an array nor an object", k)
			if skip == nil {
				return nil, err
			}
			skip(err.Error())
			return d, nil
		}
	}
	if looksLikeMap(top) {
		d.shape, d.top = "map", nil
		return d, d.addMap(top, skip)
	}
	// An object without entries: keep its fields, add an entries list.
	d.shape, d.listKey = "entries-array", "entries"
	return d, nil
}

func looksLikeMap(o *object) bool {
	if len(o.keys) == 0 {
		return false
	}
	for _, k := range o.keys {
		e, err := parseObject(o.vals[k])
		if err != nil || !(e.has("text") || e.has("id") || e.has("created") || e.has("recallCount")) {
			return false
		}
	}
	return true
}

func (d *MetaDoc) addList(items []json.RawMessage, skip func(string)) error {
	for i, raw := range items {
		o, err := parseObject(raw)
		if err != nil {
			if err := notAnEntry(fmt.Sprintf("entry %d", i+1), skip); err != nil {
				return err
			}
			continue
		}
		d.add(readRecord(o, ""))
	}
	return nil
}

func (d *MetaDoc) addMap(m *object, skip func(string)) error {
	for _, k := range m.keys {
		o, err := parseObject(m.vals[k])
		if err != nil {
			if err := notAnEntry(fmt.Sprintf("entry %q", k), skip); err != nil {
				return err
			}
			continue
		}
		d.add(readRecord(o, k))
	}
	return nil
}

// notAnEntry reports an entry that is not an object: an error for a
// writer, a skipped entry for a reader (skip set).
func notAnEntry(entry string, skip func(string)) error {
	what := entry + " is not an object"
	if skip == nil {
		return errors.New(what)
	}
	skip(what)
	return nil
}

func (d *MetaDoc) add(r *MetaRecord) {
	d.Entries = append(d.Entries, r)
	if r.ID != "" && d.ids[r.ID] == nil {
		d.ids[r.ID] = r
	}
}

func readRecord(o *object, mapKey string) *MetaRecord {
	r := &MetaRecord{obj: o, mapKey: mapKey}
	get := func(keys []string) json.RawMessage { v, _ := o.first(keys...); return v }
	r.ID = rawString(get(metaID))
	if r.ID == "" {
		r.ID = mapKey
	}
	raw := rawString(get(metaText))
	r.Text = scrub(raw)
	r.Section = rawString(get(metaSection))
	r.Type = rawString(get(metaType))
	r.File = rawString(get(metaFile))
	r.Created = rawTime(get(metaCreated))
	r.FirstSeen = rawTime(get(metaFirstSeen))
	r.LastRecalled = rawTime(get(metaLastRecalled))
	r.RecallCount = int(rawFloat(get(metaRecalls)))
	r.Structural = rawBool(get(metaStructural))
	if ss := rawStrings(get(metaSupersedes)); len(ss) > 0 {
		r.Supersedes = ss[0]
	}
	if ss := rawStrings(get(metaSupersededBy)); len(ss) > 0 {
		r.SupersededBy = ss[0]
	}
	r.Tier = rawString(get(metaTier))
	r.Score = rawFloat(get(metaScore))
	r.orig = r.typed()
	r.orig.Text = raw // a secret in it is written over at the next write
	return r
}

// Since is when the entry is known to exist: Created, else FirstSeen.
// Decay counts age from it.
func (f MetaFields) Since() time.Time {
	if f.Created.IsZero() {
		return f.FirstSeen
	}
	return f.Created
}

// typed is a copy of the typed fields only.
func (r *MetaRecord) typed() MetaFields { return r.MetaFields }

// Fresh reports whether the record was added since the document was read.
func (r *MetaRecord) Fresh() bool { return r.fresh }

// ByID returns the record with the id, or nil.
func (d *MetaDoc) ByID(id string) *MetaRecord { return d.ids[id] }

// Add appends a new record for an entry text and returns it. Its id is
// "mem_" and eight hex digits of the SHA-256 of the text (more digits when
// that id is taken), the form OpenClaw's bootstrap uses; the id, not the
// text, identifies the entry from then on.
func (d *MetaDoc) Add(text string) *MetaRecord {
	text = scrub(text)
	sum := sha256.Sum256([]byte(text))
	h := hex.EncodeToString(sum[:])
	id := "mem_" + h[:8]
	for n := 10; d.ids[id] != nil; n += 2 {
		if n > len(h) {
			id = fmt.Sprintf("mem_%s_%d", h[:8], len(d.Entries))
			break
		}
		id = "mem_" + h[:n]
	}
	r := &MetaRecord{MetaFields: MetaFields{ID: id, Text: text}, obj: newObject(), fresh: true}
	if d.shape == "entries-map" || d.shape == "map" {
		r.mapKey = id
	}
	d.add(r)
	return r
}

// Remove drops a record (an entry that no longer exists anywhere).
func (d *MetaDoc) Remove(r *MetaRecord) {
	for i, e := range d.Entries {
		if e == r {
			d.Entries = append(d.Entries[:i], d.Entries[i+1:]...)
			break
		}
	}
	if d.ids[r.ID] == r {
		delete(d.ids, r.ID)
	}
}

// Set stores a top-level field other than the entries ("lastDecayAt").
func (d *MetaDoc) Set(key string, v any) {
	if d.top != nil && key != d.listKey {
		d.top.set(key, v)
	}
}

// Bytes encodes the document: original shape, original key order, two-space
// indentation, a final newline. Fields of a record are written only when
// they changed, under the alias the file used; a new record's fields come
// in a fixed order.
func (d *MetaDoc) Bytes() []byte {
	var list []json.RawMessage
	entries := newObject()
	for _, r := range d.Entries {
		r.write()
		raw, _ := r.obj.MarshalJSON()
		if d.shape == "entries-map" || d.shape == "map" {
			key := r.mapKey
			if key == "" {
				key = r.ID
			}
			entries.setRaw(key, raw)
		} else {
			list = append(list, raw)
		}
	}
	var body json.RawMessage
	if d.shape == "entries-map" || d.shape == "map" {
		body, _ = entries.MarshalJSON()
	} else {
		var b strings.Builder
		b.WriteByte('[')
		for i, raw := range list {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(raw)
		}
		b.WriteByte(']')
		body = json.RawMessage(b.String())
	}
	out := body
	if d.shape != "array" && d.shape != "map" {
		top := d.top
		if top == nil {
			top = newObject()
		}
		top.setRaw(d.listKey, body)
		out, _ = top.MarshalJSON()
	}
	b := indent(out)
	if d.bare {
		b = b[:len(b)-1]
	}
	return b
}

// write puts the changed typed fields back into the record's object.
func (r *MetaRecord) write() {
	o, was := r.obj, r.orig
	// A new record gets every numeric field, so all entries look alike.
	force := len(o.keys) == 0
	put := func(keys []string, changed bool, v any) {
		if !changed && !force {
			return
		}
		k := o.present(keys...)
		if k == "" {
			k = keys[0]
		}
		o.set(k, v)
	}
	str := func(keys []string, now, before string) {
		if now == before {
			return
		}
		if now == "" && o.present(keys...) == "" {
			return
		}
		put(keys, true, now)
	}
	str(metaID, r.ID, was.ID)
	str(metaText, scrub(r.Text), was.Text)
	str(metaSection, r.Section, was.Section)
	str(metaType, r.Type, was.Type)
	str(metaFile, r.File, was.File)
	put(metaCreated, !r.Created.Equal(was.Created), timeValue(r.Created))
	if !r.FirstSeen.IsZero() || o.present(metaFirstSeen...) != "" {
		put(metaFirstSeen, !r.FirstSeen.Equal(was.FirstSeen), timeValue(r.FirstSeen))
	}
	put(metaLastRecalled, !r.LastRecalled.Equal(was.LastRecalled), timeValue(r.LastRecalled))
	put(metaRecalls, r.RecallCount != was.RecallCount, r.RecallCount)
	put(metaStructural, r.Structural != was.Structural, r.Structural)
	str(metaSupersedes, r.Supersedes, was.Supersedes)
	str(metaSupersededBy, r.SupersededBy, was.SupersededBy)
	str(metaTier, r.Tier, was.Tier)
	put(metaScore, round3(r.Score) != round3(was.Score), json.Number(strconv.FormatFloat(round3(r.Score), 'f', -1, 64)))
	r.orig = r.typed()
}

// timeValue writes a date as "2006-01-02" (the form the seeds' files use),
// keeping a time of day only when there is one; zero is null.
func timeValue(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339)
}

// round3 rounds a score to three decimals, enough for a 0..1 value that a
// person reads, and stable across runs.
func round3(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return math.Round(f*1000) / 1000
}

// rawTime decodes a date or timestamp as dates.Timestamp reads one, or a
// number of Unix seconds or milliseconds, in UTC.
func rawTime(v json.RawMessage) time.Time {
	if len(v) == 0 || isNull(v) {
		return time.Time{}
	}
	s, ok := stringValue(v)
	if !ok {
		f := rawFloat(v)
		if f == 0 {
			return time.Time{}
		}
		return dates.Unix(f)
	}
	if t, ok := dates.Timestamp(s); ok {
		return t.UTC()
	}
	return time.Time{}
}
