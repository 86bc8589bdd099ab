package memory

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzScanner_AgreesWithEncodingJSON: the scanner accepts exactly the
// texts encoding/json accepts, and decodes their strings the same way.
func FuzzScanner_AgreesWithEncodingJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,-0,1e3,2.5E-3,true,false,null,"x\u00e9\ud83d\ude00\n"]}`, ` {"a" : {"b":{}} } `,
		`{"a":1,}`, `[01]`, `[1.]`, `[-]`, `"\ud800"`, `"\ud800\u0041"`, "\"\xff\"", `{"a" 1}`, `[1 2]`, `{"a":tru}`, `"\x"`, "\"\t\"", `1 2`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s := &scanner{src: src}
		v, err := s.value()
		if err == nil {
			err = s.end()
		}
		if ok := json.Valid(src); (err == nil) != ok {
			t.Fatalf("scanner says %v, encoding/json valid = %v, for %q", err, ok, src)
		}
		if err != nil || v[0] != '"' {
			return
		}
		var want string
		if err := json.Unmarshal(v, &want); err != nil {
			t.Fatal(err)
		}
		if got, _ := stringValue(v); got != want {
			t.Errorf("stringValue(%q) = %q, encoding/json %q", v, got, want)
		}
	})
}

// Malformed JSON is an error that says where and what.
func TestParseRecallDoc_MalformedJSONSaysWhere(t *testing.T) {
	for src, want := range map[string]string{
		"{\n  \"version\": 1,\n  \"entries\": {\"a\": }\n}":       `line 3, column 20: invalid character '}' looking for beginning of value`,
		"{\"version\": 1, \"entries\": {\"a\": {\"path\": \"x\"}": `line 1, column 46: unexpected end of JSON input`,
		`{"version": 1} {}`:     `line 1, column 16: text after the JSON value`,
		`{"version": 01}`:       `line 1, column 14: invalid character '1' after object key:value pair`,
		`["not", "an object"]`:  `not a JSON object`,
		`{"entries": "x"}`:      `"entries" is neither an object nor an array`,
		`{"entries": {"k": 1}}`: `recall entry "k" is not an object`,
	} {
		_, err := ParseRecallDoc([]byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseRecallDoc(%q) = %v, want %q", src, err, want)
		}
	}
}
