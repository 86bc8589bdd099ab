package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// object is a JSON object that remembers the order of its keys, so that
// rewriting memory-meta.json or the recall store changes only the values a
// dream or a recall touched: a person diffing the file sees those and
// nothing else.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func newObject() *object { return &object{vals: map[string]json.RawMessage{}} }

var (
	errNotObject = errors.New("not a JSON object")
	errNotArray  = errors.New("not a JSON array")
)

// parseObject decodes raw, which must hold a JSON object and nothing else.
// Its values are sub-slices of raw. A key given twice keeps its first
// place and its last value, as encoding/json would read it.
func parseObject(raw []byte) (*object, error) {
	o := newObject()
	err := eachMember(raw, func(key, val []byte) {
		k := string(key)
		if _, dup := o.vals[k]; !dup {
			o.keys = append(o.keys, k)
		}
		o.vals[k] = val
	})
	if err != nil {
		return nil, err
	}
	return o, nil
}

// parseArray decodes raw, which must hold a JSON array, into its elements,
// sub-slices of raw.
func parseArray(raw []byte) ([]json.RawMessage, error) {
	var out []json.RawMessage
	if err := eachElement(raw, func(v []byte) { out = append(out, v) }); err != nil {
		return nil, err
	}
	return out, nil
}

func (o *object) has(k string) bool { _, ok := o.vals[k]; return ok }

// first returns the first of keys present with a non-null value, and that key.
func (o *object) first(keys ...string) (json.RawMessage, string) {
	for _, k := range keys {
		if v, ok := o.vals[k]; ok && !isNull(v) {
			return v, k
		}
	}
	return nil, ""
}

// present returns the first of keys present at all (even as null).
func (o *object) present(keys ...string) string {
	for _, k := range keys {
		if o.has(k) {
			return k
		}
	}
	return ""
}

// set stores v (marshalled without HTML escaping) under k, appending k when
// it is new.
func (o *object) set(k string, v any) {
	o.setRaw(k, marshal(v))
}

func (o *object) setRaw(k string, raw json.RawMessage) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = raw
}

func (o *object) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// MarshalJSON writes the object compactly, keys in their order.
func (o *object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(marshal(k))
		b.WriteByte(':')
		v := o.vals[k]
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal encodes v without escaping <, > and &, which are common in notes
// and would only make the file harder to read.
func marshal(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage("null")
	}
	return json.RawMessage(bytes.TrimRight(b.Bytes(), "\n"))
}

// indent formats compact JSON with two-space indentation and a final newline,
// the layout the files are written in by OpenClaw and the seeds' scripts.
func indent(compact []byte) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, compact, "", "  "); err != nil {
		return append(compact, '\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// rawString decodes a JSON string; other values give their text (numbers,
// booleans) or "".
func rawString(v json.RawMessage) string {
	if len(v) == 0 || isNull(v) {
		return ""
	}
	if s, ok := stringValue(v); ok {
		return s
	}
	t := strings.TrimSpace(string(v))
	if t == "true" || t == "false" || len(t) > 0 && (t[0] == '-' || t[0] >= '0' && t[0] <= '9') {
		return t
	}
	return ""
}

// rawFloat decodes a number (or a numeric string); anything else is 0.
func rawFloat(v json.RawMessage) float64 {
	if len(v) == 0 || isNull(v) {
		return 0
	}
	if f, err := strconv.ParseFloat(string(v), 64); err == nil {
		return f // a JSON number, read without the decoder
	}
	var f float64
	if json.Unmarshal(v, &f) == nil {
		return f
	}
	if s, ok := stringValue(v); ok {
		var g float64
		if json.Unmarshal([]byte(strings.TrimSpace(s)), &g) == nil {
			return g
		}
	}
	return 0
}

// rawBool decodes a boolean, or a string strconv.ParseBool reads ("true",
// "1", "T"), or a number (true unless 0).
func rawBool(v json.RawMessage) bool {
	if len(v) == 0 || isNull(v) {
		return false
	}
	if s, ok := stringValue(v); ok {
		b, _ := strconv.ParseBool(strings.TrimSpace(s))
		return b
	}
	return strings.TrimSpace(string(v)) == "true" || rawFloat(v) != 0
}

// rawStrings decodes an array of strings, numbers written as their text
// (a single string counts as one).
func rawStrings(v json.RawMessage) []string {
	if len(v) == 0 || isNull(v) {
		return nil
	}
	if v[0] == '[' {
		out := []string{}
		eachElement(v, func(e []byte) { // v was checked when it was read
			if s := rawString(e); s != "" {
				out = append(out, s)
			}
		})
		return out
	}
	if s := rawString(v); s != "" {
		return []string{s}
	}
	return nil
}
