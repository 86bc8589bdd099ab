package staticindex

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"sync"
)

// The byte-level pieces of the static index format, shared by the writer
// and the Go reader; assets/search/codec.ts is their browser twin.
//
// Every file starts with one codec byte: 0 for a raw payload, 1 for a
// payload compressed with raw DEFLATE (RFC 1951), which browsers inflate
// with DecompressionStream("deflate-raw"). The files are never served
// with a Content-Encoding, so they read the same over http and from
// file://, and the server needs no configuration.
const (
	codecRaw     = 0
	codecDeflate = 1
)

// compressMin is the payload size below which compression is not tried:
// DEFLATE's block overhead eats the gain on a handful of bytes.
const compressMin = 128

// flateLevel trades a little size for build time: on a 10,000-note
// index, level 4 compresses in 60% of the default level's (6) time for
// 1.3% more bytes (level 1 would add 7%).
const flateLevel = 4

var flaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flateLevel)
	return w
}}

// envelope prefixes payload with its codec byte, compressing it when that
// saves at least a tenth.
func envelope(payload []byte) []byte {
	if len(payload) >= compressMin {
		var buf bytes.Buffer
		buf.Grow(len(payload)/2 + 16)
		buf.WriteByte(codecDeflate)
		fw := flaters.Get().(*flate.Writer)
		fw.Reset(&buf)
		_, _ = fw.Write(payload)
		_ = fw.Close()
		flaters.Put(fw)
		if buf.Len()-1 < len(payload)*9/10 {
			return buf.Bytes()
		}
	}
	out := make([]byte, 0, len(payload)+1)
	out = append(out, codecRaw)
	return append(out, payload...)
}

// jsWrapper is the file:// twin of a data file: browsers refuse fetch()
// on file:// URLs but run <script> tags, so each file is also written as a
// script that hands its bytes (base64) to the search client.
func jsWrapper(name string, file []byte) []byte {
	enc := base64.StdEncoding
	out := make([]byte, 0, len(name)+enc.EncodedLen(len(file))+32)
	out = append(out, `__dreamwikiSearch("`...)
	out = append(out, name...)
	out = append(out, `","`...)
	out = enc.AppendEncode(out, file)
	out = append(out, "\");\n"...)
	return out
}

// appendUvarint appends v as a LEB128 varint.
func appendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// Field lengths are stored in one byte each. Lengths below 64 are exact;
// above, each step grows by a sixteenth, which keeps BM25's length
// normalisation within 3% up to millions of terms. The table is built with
// integer arithmetic so that the browser decodes identical numbers.
var lengthTable = func() [256]int {
	var t [256]int
	for v := 0; v < 256; v++ {
		switch {
		case v < 64:
			t[v] = v
		default:
			t[v] = t[v-1] + max(1, t[v-1]>>4)
		}
	}
	return t
}()

// quantizeLength returns the byte whose decoded length is the largest not
// above n.
func quantizeLength(n int) byte {
	lo, hi := 0, 255
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if lengthTable[mid] <= n {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return byte(lo)
}

// frontCoder writes a sorted list of strings, each as the length of the
// prefix it shares with the previous one, then the rest.
type frontCoder struct{ prev string }

func (f *frontCoder) append(b []byte, s string) []byte {
	n := 0
	for n < len(s) && n < len(f.prev) && s[n] == f.prev[n] {
		n++
	}
	b = appendUvarint(b, uint64(n))
	b = appendUvarint(b, uint64(len(s)-n))
	b = append(b, s[n:]...)
	f.prev = s
	return b
}
