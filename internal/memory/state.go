package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
)

// Field is a key and a value for UpdateObject.
type Field struct {
	Key   string
	Value any
}

// UpdateObject sets top-level fields of a JSON object such as
// memory/heartbeat-state.json. Only the values of those fields change: every
// other byte of the file (other fields, their layout, key order, the final
// newline or its absence) stays as it was. New keys are appended with the
// indentation the file uses. An empty src starts a new object. An error
// means src is not a JSON object, and the caller must leave it alone.
func UpdateObject(src []byte, fields ...Field) ([]byte, error) {
	if strings.TrimSpace(string(src)) == "" {
		o := newObject()
		for _, f := range fields {
			o.set(f.Key, f.Value)
		}
		raw, _ := o.MarshalJSON()
		return indent(raw), nil
	}
	type span struct{ start, end int }
	spans := map[string]span{}
	dec := json.NewDecoder(bytes.NewReader(src))
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	firstKey := -1
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keyEnd := int(dec.InputOffset()) // the key is on the line this offset is on
		k, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		end := int(dec.InputOffset())
		spans[k] = span{end - len(raw), end}
		if firstKey < 0 {
			firstKey = keyEnd
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	closeAt := int(dec.InputOffset()) - 1
	// Only JSON's own whitespace may follow: a form feed would make the
	// rewritten file unreadable.
	if rest := strings.Trim(string(src[closeAt+1:]), " \t\r\n"); rest != "" {
		return nil, errors.New("text after the JSON object")
	}

	// Replace existing values, last first so offsets stay valid.
	type edit struct {
		at, end int
		text    string
	}
	var edits []edit
	var added []Field
	for _, f := range fields {
		if s, ok := spans[f.Key]; ok {
			edits = append(edits, edit{s.start, s.end, string(marshal(f.Value))})
		} else {
			added = append(added, f)
		}
	}
	if len(added) > 0 {
		// The indentation of the first key, else two spaces.
		ind := "  "
		if firstKey >= 0 {
			if ls := bytes.LastIndexByte(src[:firstKey], '\n'); ls >= 0 {
				line := string(src[ls+1:])
				ind = line[:len(line)-len(strings.TrimLeft(line, " \t"))]
			}
		}
		// Insert after the last value (before the blanks that precede '}').
		at := closeAt
		for at > 0 && strings.ContainsRune(" \t\r\n", rune(src[at-1])) {
			at--
		}
		var b strings.Builder
		for i, f := range added {
			if i > 0 || len(spans) > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n" + ind)
			b.Write(marshal(f.Key))
			b.WriteString(": ")
			b.Write(marshal(f.Value))
		}
		if len(spans) == 0 {
			b.WriteString("\n")
		}
		edits = append(edits, edit{at, at, b.String()})
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.at - a.at })
	out := slices.Clone(src)
	for _, e := range edits {
		out = slices.Concat(out[:e.at], []byte(e.text), out[e.end:])
	}
	return out, nil
}
