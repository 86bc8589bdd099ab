package memory

import (
	"bytes"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// The state files are read with a small scanner rather than with
// encoding/json's Decoder: a recall store of 16 MB holds tens of thousands
// of entries, and the Decoder's Token and Decode, with every nesting level
// decoded again from raw bytes, made reading it the larger part of a
// build. The scanner validates the text as strictly as encoding/json
// (RFC 8259) in one pass per level and hands out values as sub-slices of
// the text, which the order-keeping object keeps as they were.

// maxDepth bounds nesting as encoding/json does, so that no input can
// exhaust the stack.
const maxDepth = 10000

type scanner struct {
	src   []byte
	pos   int
	depth int
}

// syntaxError is malformed JSON, at a line and column of the text.
type syntaxError struct {
	line, col int
	msg       string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.line, e.col, e.msg)
}

func (s *scanner) fail(format string, args ...any) error {
	at := min(s.pos, len(s.src))
	line := 1 + bytes.Count(s.src[:at], []byte{'\n'})
	col := 1 + utf8.RuneCount(s.src[bytes.LastIndexByte(s.src[:at], '\n')+1:at])
	return &syntaxError{line, col, fmt.Sprintf(format, args...)}
}

// unexpected fails at the current byte, saying what was wanted there.
func (s *scanner) unexpected(want string) error {
	if s.pos >= len(s.src) {
		return s.fail("unexpected end of JSON input")
	}
	c, _ := utf8.DecodeRune(s.src[s.pos:])
	return s.fail("invalid character %q %s", c, want)
}

func (s *scanner) space() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// end checks that only whitespace follows the value read.
func (s *scanner) end() error {
	s.space()
	if s.pos < len(s.src) {
		return s.fail("text after the JSON value")
	}
	return nil
}

// value skips one value, checking it, and returns its bytes.
func (s *scanner) value() ([]byte, error) {
	s.space()
	start := s.pos
	if s.pos >= len(s.src) {
		return nil, s.unexpected("")
	}
	var err error
	switch c := s.src[s.pos]; {
	case c == '{':
		err = s.object(nil)
	case c == '[':
		err = s.array(nil)
	case c == '"':
		_, _, err = s.str()
	case c == '-' || c >= '0' && c <= '9':
		err = s.number()
	case c == 't':
		err = s.literal("true")
	case c == 'f':
		err = s.literal("false")
	case c == 'n':
		err = s.literal("null")
	default:
		err = s.unexpected("looking for beginning of value")
	}
	if err != nil {
		return nil, err
	}
	return s.src[start:s.pos], nil
}

// object reads an object at pos, calling member (when set) with each key,
// decoded, and the bytes of its value.
func (s *scanner) object(member func(key, val []byte)) error {
	if s.depth++; s.depth > maxDepth {
		return s.fail("exceeded max depth")
	}
	s.pos++ // '{'
	s.space()
	if s.pos < len(s.src) && s.src[s.pos] == '}' {
		s.pos++
		s.depth--
		return nil
	}
	for {
		s.space()
		if s.pos >= len(s.src) || s.src[s.pos] != '"' {
			return s.unexpected("looking for beginning of object key string")
		}
		a, b, err := s.str()
		if err != nil {
			return err
		}
		s.space()
		if s.pos >= len(s.src) || s.src[s.pos] != ':' {
			return s.unexpected("after object key")
		}
		s.pos++
		v, err := s.value()
		if err != nil {
			return err
		}
		if member != nil {
			key := s.src[a:b]
			if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
				key = unquote(key)
			}
			member(key, v)
		}
		s.space()
		if s.pos < len(s.src) && s.src[s.pos] == ',' {
			s.pos++
			continue
		}
		if s.pos < len(s.src) && s.src[s.pos] == '}' {
			s.pos++
			s.depth--
			return nil
		}
		return s.unexpected("after object key:value pair")
	}
}

// array reads an array at pos, calling elem (when set) with the bytes of
// each element.
func (s *scanner) array(elem func(val []byte)) error {
	if s.depth++; s.depth > maxDepth {
		return s.fail("exceeded max depth")
	}
	s.pos++ // '['
	s.space()
	if s.pos < len(s.src) && s.src[s.pos] == ']' {
		s.pos++
		s.depth--
		return nil
	}
	for {
		v, err := s.value()
		if err != nil {
			return err
		}
		if elem != nil {
			elem(v)
		}
		s.space()
		if s.pos < len(s.src) && s.src[s.pos] == ',' {
			s.pos++
			continue
		}
		if s.pos < len(s.src) && s.src[s.pos] == ']' {
			s.pos++
			s.depth--
			return nil
		}
		return s.unexpected("after array element")
	}
}

// str reads a string at pos and returns the bounds of its content,
// between the quotes.
func (s *scanner) str() (start, end int, err error) {
	s.pos++ // '"'
	start = s.pos
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case c == '"':
			s.pos++
			return start, s.pos - 1, nil
		case c == '\\':
			s.pos++
			if s.pos >= len(s.src) {
				return 0, 0, s.unexpected("")
			}
			switch s.src[s.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.pos++
			case 'u':
				s.pos++
				for range 4 {
					if s.pos >= len(s.src) || !isHex(s.src[s.pos]) {
						return 0, 0, s.unexpected("in \\u hexadecimal character escape")
					}
					s.pos++
				}
			default:
				return 0, 0, s.unexpected("in string escape code")
			}
		case c < 0x20:
			return 0, 0, s.unexpected("in string literal")
		default:
			s.pos++
		}
	}
	return 0, 0, s.unexpected("")
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number reads a number as JSON writes one: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() error {
	digits := func(what string) error {
		if s.pos >= len(s.src) || !isDigit(s.src[s.pos]) {
			return s.unexpected(what)
		}
		for s.pos < len(s.src) && isDigit(s.src[s.pos]) {
			s.pos++
		}
		return nil
	}
	if s.src[s.pos] == '-' {
		s.pos++
	}
	if s.pos < len(s.src) && s.src[s.pos] == '0' {
		s.pos++
	} else if err := digits("in numeric literal"); err != nil {
		return err
	}
	if s.pos < len(s.src) && s.src[s.pos] == '.' {
		s.pos++
		if err := digits("after decimal point in numeric literal"); err != nil {
			return err
		}
	}
	if s.pos < len(s.src) && (s.src[s.pos] == 'e' || s.src[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.src) && (s.src[s.pos] == '+' || s.src[s.pos] == '-') {
			s.pos++
		}
		if err := digits("in exponent of numeric literal"); err != nil {
			return err
		}
	}
	return nil
}

func (s *scanner) literal(word string) error {
	for i := range len(word) {
		if s.pos >= len(s.src) || s.src[s.pos] != word[i] {
			return s.unexpected("in literal " + word + " (expecting " + fmt.Sprintf("%q", word[i]) + ")")
		}
		s.pos++
	}
	return nil
}

// eachMember reads raw, which must hold one JSON object and nothing else,
// calling member with each key (decoded) and the bytes of its value, in
// file order, duplicates included.
func eachMember(raw []byte, member func(key, val []byte)) error {
	s := &scanner{src: raw}
	s.space()
	if s.pos >= len(raw) || raw[s.pos] != '{' {
		if _, err := s.value(); err != nil {
			return err
		}
		return errNotObject
	}
	if err := s.object(member); err != nil {
		return err
	}
	return s.end()
}

// eachElement reads raw, which must hold one JSON array and nothing else,
// calling elem with the bytes of each element.
func eachElement(raw []byte, elem func(val []byte)) error {
	s := &scanner{src: raw}
	s.space()
	if s.pos >= len(raw) || raw[s.pos] != '[' {
		if _, err := s.value(); err != nil {
			return err
		}
		return errNotArray
	}
	if err := s.array(elem); err != nil {
		return err
	}
	return s.end()
}

// unquote decodes the content of a JSON string (between its quotes, as
// the scanner checked it) as encoding/json does: invalid UTF-8 and lone
// surrogates become U+FFFD.
func unquote(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\\':
			i++
			switch b[i] {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(b[i+1:])
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
						r2 = hex4(b[i+3:])
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default: // '"', '\\', '/'
				out = append(out, b[i])
			}
			i++
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			out = utf8.AppendRune(out, r) // RuneError for invalid UTF-8
			i += n
		}
	}
	return out
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// stringValue decodes v when it is a JSON string.
func stringValue(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	body := v[1 : len(v)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body), true
	}
	return string(unquote(body)), true
}
