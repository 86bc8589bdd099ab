package staticindex

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
)

// The decoding half of the static index's codec, for Reader, the
// reference reader in reader_test.go: in production only the
// browser decodes the index (assets/search/codec.ts).

// maxPayload bounds what openEnvelope inflates, so a corrupted or hostile
// file cannot make the reader allocate without limit.
const maxPayload = 32 << 20

// openEnvelope returns the payload of a file written by envelope.
func openEnvelope(file []byte) ([]byte, error) {
	if len(file) == 0 {
		return nil, errors.New("empty file")
	}
	switch file[0] {
	case codecRaw:
		return file[1:], nil
	case codecDeflate:
		r := flate.NewReader(bytes.NewReader(file[1:]))
		defer r.Close()
		out, err := io.ReadAll(io.LimitReader(r, maxPayload+1))
		if err != nil {
			return nil, err
		}
		if len(out) > maxPayload {
			return nil, errors.New("payload too large")
		}
		return out, nil
	}
	return nil, errors.New("unknown codec")
}

// reader decodes varints and strings, remembering the first error instead
// of panicking on truncated input.
type reader struct {
	b   []byte
	off int
	err error
}

var errCorrupt = errors.New("search index: corrupted data")

func (r *reader) uvarint() uint64 {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if r.off >= len(r.b) {
			r.fail()
			return 0
		}
		c := r.b[r.off]
		r.off++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	r.fail()
	return 0
}

// int reads a varint that must fit in [0, limit].
func (r *reader) int(limit int) int {
	v := r.uvarint()
	if v > uint64(limit) {
		r.fail()
		return 0
	}
	return int(v)
}

func (r *reader) byte() byte {
	if r.off >= len(r.b) {
		r.fail()
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || r.off+n > len(r.b) {
		r.fail()
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = errCorrupt
	}
	r.off = len(r.b)
}

// frontDecoder reads what frontCoder wrote.
type frontDecoder struct{ prev []byte }

func (f *frontDecoder) next(r *reader) string {
	n := r.int(len(f.prev))
	m := r.int(len(r.b))
	rest := r.bytes(m)
	if r.err != nil {
		return ""
	}
	s := make([]byte, 0, n+m)
	s = append(s, f.prev[:n]...)
	s = append(s, rest...)
	f.prev = s
	return string(s)
}

// decodeSim is the similarity a stored byte stands for; the browser
// divides by 255 the same way.
func decodeSim(b byte) float64 { return float64(b) / 255 }
