package workspace

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// readText reads one text file: size cap, hash of the raw bytes, then the
// content as valid UTF-8 with LF line ends and no BOM. data are the raw
// bytes.
func readText(fsys fs.FS, c candidate, diags *diag.List) (f *File, data []byte) {
	data, info, ok := readCapped(fsys, c, diags)
	if !ok {
		return nil, nil
	}
	sum := sha256.Sum256(data)
	content, bad := normalizeText(data)
	if len(bad) > 0 {
		diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "utf8", File: c.path, Line: bad[0],
			Message: fmt.Sprintf("file is not valid UTF-8 (%s); invalid bytes were replaced with U+FFFD", describeLines(bad)),
			Hint:    "save the file as UTF-8"})
	}
	return &File{
		Path:    c.path,
		Content: content,
		Size:    info.size,
		ModTime: info.mod,
		Hash:    hex.EncodeToString(sum[:]),
	}, data
}

// BlobID is the git object id of a file holding data (what `git
// hash-object` prints): how history knows a file's earlier versions
// wherever they were.
func BlobID(data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// assetBlobID is BlobID of an asset's bytes, read without keeping them;
// "" when it cannot be read (the file is left out all the same).
func assetBlobID(fsys fs.FS, c candidate) string {
	var diags diag.List
	f, info, ok := openCapped(fsys, c, &diags)
	if !ok {
		return ""
	}
	defer f.Close()
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", info.size)
	if n, err := io.Copy(h, f); err != nil || n != info.size {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// readAsset hashes one asset without keeping its bytes. With a guard
// (a read with Options.Redact), a text asset's secrets are reported here;
// ReadAsset redacts them in what it returns.
func readAsset(fsys fs.FS, c candidate, g *secrets.Guard, diags *diag.List) *Asset {
	f, info, ok := openCapped(fsys, c, diags)
	if !ok {
		return nil
	}
	defer f.Close()
	h := sha256.New()
	var w io.Writer = h
	var text bytes.Buffer
	if g != nil && textAsset(c.path) {
		w = io.MultiWriter(h, &text)
	}
	n, err := io.Copy(w, io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		diags.Warnf("read", c.path, 0, "file could not be read (%v); it was skipped", underlying(err))
		return nil
	}
	if n > MaxFileSize {
		tooBig(diags, c.path, n)
		return nil
	}
	if g != nil && textAsset(c.path) {
		content, _ := normalizeText(text.Bytes())
		var found diag.List
		redactFile(&File{Path: c.path, Content: content}, *g, &found)
		for _, d := range found {
			if d.Code == "secret" {
				d.Message = strings.Replace(d.Message, "the site, the vault and the search index show", "the copies in the site and the vault show", 1)
			}
			diags.Add(d)
		}
	}
	return &Asset{Path: c.path, Size: n, ModTime: info.mod, Hash: hex.EncodeToString(h.Sum(nil)), source: c.source}
}

type fileInfo struct {
	size int64
	mod  time.Time
}

func openCapped(fsys fs.FS, c candidate, diags *diag.List) (fs.File, fileInfo, bool) {
	f, err := fsys.Open(fsPath(c.source))
	if err != nil {
		diags.Warnf("read", c.path, 0, "file could not be read (%v); it was skipped", underlying(err))
		return nil, fileInfo{}, false
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		diags.Warnf("read", c.path, 0, "file could not be read (%v); it was skipped", underlying(err))
		return nil, fileInfo{}, false
	}
	if st.Size() > maxSize(c.path) {
		f.Close()
		tooBig(diags, c.path, st.Size())
		return nil, fileInfo{}, false
	}
	return f, fileInfo{size: st.Size(), mod: st.ModTime()}, true
}

func readCapped(fsys fs.FS, c candidate, diags *diag.List) ([]byte, fileInfo, bool) {
	f, info, ok := openCapped(fsys, c, diags)
	if !ok {
		return nil, info, false
	}
	defer f.Close()
	var buf bytes.Buffer
	buf.Grow(int(info.size) + bytes.MinRead)
	n, err := buf.ReadFrom(io.LimitReader(f, maxSize(c.path)+1))
	if err != nil {
		diags.Warnf("read", c.path, 0, "file could not be read (%v); it was skipped", underlying(err))
		return nil, info, false
	}
	if n > maxSize(c.path) {
		tooBig(diags, c.path, n)
		return nil, info, false
	}
	info.size = n
	return buf.Bytes(), info, true
}

func tooBig(diags *diag.List, p string, n int64) {
	diags.Add(diag.Diagnostic{Severity: diag.Warning, Code: "size", File: p,
		Message: fmt.Sprintf("file is %.1f MiB, over the %d MiB limit; it was skipped", float64(n)/(1<<20), maxSize(p)>>20),
		Hint:    "split it, or list it under exclude in dreamwiki.toml"})
}

// normalizeText strips a UTF-8 BOM, turns CRLF and lone CR into LF and
// replaces each run of invalid UTF-8 bytes with U+FFFD. bad lists the
// (1-based, output) lines where bytes were replaced.
func normalizeText(b []byte) (s string, bad []int) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(b, '\r') < 0 && utf8.Valid(b) {
		return string(b), nil
	}
	var sb strings.Builder
	sb.Grow(len(b) + 16)
	line := 1
	inBad := false
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			inBad = false
			switch c {
			case '\r':
				sb.WriteByte('\n')
				line++
				if i+1 < len(b) && b[i+1] == '\n' {
					i++
				}
			case '\n':
				sb.WriteByte('\n')
				line++
			default:
				sb.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			if !inBad {
				sb.WriteRune(utf8.RuneError)
				if len(bad) == 0 || bad[len(bad)-1] != line {
					bad = append(bad, line)
				}
			}
			inBad = true
			i++
			continue
		}
		inBad = false
		sb.Write(b[i : i+size])
		i += size
	}
	return sb.String(), bad
}

// describeLines says where invalid bytes were found: "line 4", "lines 4, 9
// and 12", "lines 4, 9, 12 and 37 more".
func describeLines(lines []int) string {
	if len(lines) == 1 {
		return fmt.Sprintf("line %d", lines[0])
	}
	const show = 3
	var parts []string
	for i, l := range lines {
		if i == show {
			return fmt.Sprintf("lines %s and %d more", strings.Join(parts, ", "), len(lines)-show)
		}
		parts = append(parts, fmt.Sprint(l))
	}
	return fmt.Sprintf("lines %s and %s", strings.Join(parts[:len(parts)-1], ", "), parts[len(parts)-1])
}
