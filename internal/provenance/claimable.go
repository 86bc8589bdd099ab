package provenance

import (
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/dreamwiki/dreamwiki/internal/dates"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Not every entry of curated memory states something. Real MEMORY.md
// files carry the bookkeeping of whoever wrote them between the facts: a
// "_Last updated: …_" line, a bare date label over the entries of that
// day ("2026-02-06:"), lines pasted from a log ("Date: 2026-04-09",
// "Commit 9b1e7d2", "gateway.log"), the lines of a date | file | summary
// index, and table rows without a header row to say what their cells are.
// None of them is a claim a user would accept as remembered, so none
// becomes a claim note; the entries stay in the workspace's model.

// notAClaim reports an entry that states nothing by itself.
func notAClaim(e *workspace.Entry) bool {
	if e.Shape == workspace.ShapeTableRow {
		return !hasHeader(e.Columns)
	}
	t := strings.TrimSpace(strings.Trim(strings.TrimSpace(e.Text), "*_"))
	switch {
	case isDateLabel(t), isMetadataLine(t), isBareFileName(t), isIndexLine(t):
		return true
	}
	return isLogLine(t)
}

func hasHeader(cols []string) bool {
	for _, c := range cols {
		if strings.TrimSpace(c) != "" {
			return true
		}
	}
	return false
}

// isDateLabel reports a date alone, as written above the entries of a day:
// "2026-02-06:", "2026-02-27：".
func isDateLabel(t string) bool {
	t = strings.TrimRight(t, ":：- ")
	_, ok := dates.Parse(t)
	return ok
}

// metadataKeys are the labels of a line that dates the file it is in,
// not a fact: "Last updated", "最后更新", "Date". A fact with a date for a
// value ("Arjun's birthday: 14 May") has a subject instead.
var metadataKeys = []string{
	"date", "updated", "last updated", "modified", "last modified", "created", "timestamp",
	"last dream", "日期", "时间", "更新", "最后更新", "上次更新", "上次整理", "整理", "날짜",
	"업데이트", "마지막 업데이트", "日付", "更新日", "最終更新", "fecha", "actualizado",
	"última actualización", "datum", "aktualisiert",
}

// isMetadataLine reports "Key: date" where the key is a metadata label.
func isMetadataLine(t string) bool {
	k := strings.IndexAny(t, ":：")
	if k <= 0 {
		return false
	}
	key := strings.ToLower(strings.TrimSpace(strings.Trim(t[:k], "*_ ")))
	rest := strings.TrimSpace(strings.Trim(strings.TrimLeft(t[k:], ":："), "*_ "))
	if !slices.Contains(metadataKeys, key) {
		return false
	}
	if _, ok := dates.Parse(firstField(rest)); ok {
		return true
	}
	_, ok := dates.Timestamp(rest)
	return ok
}

// firstField is s up to its first blank or '|'.
func firstField(s string) string {
	if k := strings.IndexAny(s, " \t|"); k >= 0 {
		return s[:k]
	}
	return s
}

// isBareFileName reports a file name or path alone: "gateway.log",
// "memory/2026-03-28.md".
func isBareFileName(t string) bool {
	t = strings.Trim(t, "`")
	if t == "" || strings.ContainsAny(t, " \t") || strings.Contains(t, "://") {
		return false
	}
	ext := path.Ext(t)
	if len(ext) < 2 || len(ext) > 6 || strings.IndexFunc(ext[1:], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0 {
		return false
	}
	// "v1.2" and "3.5" are versions, not files: an extension starts with
	// a letter.
	return unicode.IsLetter(rune(ext[1])) && len(t) > len(ext)
}

// isIndexLine reports a line of a date | file | summary index.
func isIndexLine(t string) bool {
	fields := strings.Split(t, "|")
	if len(fields) < 3 {
		return false
	}
	_, ok := dates.Parse(strings.TrimSpace(fields[0]))
	return ok
}

// isLogLine reports a line that is a hash with at most one word: "Commit
// 9b1e7d2", "a3f9c21 merged".
func isLogLine(t string) bool {
	words, hashes := 0, 0
	for _, f := range strings.Fields(t) {
		switch {
		case isHash(strings.Trim(f, "`.,:;()")):
			hashes++
		default:
			words++
		}
	}
	return hashes > 0 && words <= 1
}

// isHash reports a hexadecimal commit or content hash: 7 to 64 hex
// digits, with at least one digit and one letter.
func isHash(s string) bool {
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	digit, letter := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F':
			letter = true
		default:
			return false
		}
	}
	return digit && letter
}
