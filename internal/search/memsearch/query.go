package memsearch

import (
	"strings"
	"unicode"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
)

// The query syntax of `dreamwiki search`, kept small and forgiving: any
// input is a valid query, and text that looks like syntax but is not
// (10.0.0.12:8080, http://x, a lone quote, regex metacharacters) is
// searched as text.
//
//	gateway host       words; results match any, best when they match all
//	"gateway host"     a phrase: the words in this order (required)
//	+gateway -nuc      a required word, an excluded word
//	type:feedback      a filter on a field: type, tier, tag, kind (or
//	tier:hot tag:x     source), status, path and date (these two match
//	path:memory/       as prefixes), workspace (a team site's: the
//	workspace:alpha    browser's index has it, one workspace's chunks
//	                   carry none, so it matches nothing here); -type:x
//	                   excludes
//	kind:"daily log"   a quoted value may hold spaces
type parsedQuery struct {
	words   []queryWord
	filters []fieldClause
}

type queryWord struct {
	text      string
	phrase    bool
	must, not bool
}

type fieldClause struct {
	field, value string
	not          bool
}

var queryFields = map[string]bool{
	"type": true, "tier": true, "tag": true, "kind": true, "source": true,
	"status": true, "path": true, "date": true, "workspace": true,
}

// maxQueryClauses bounds the work a pasted wall of text can cause.
const maxQueryClauses = 32

func parseQuery(s string) parsedQuery {
	var pq parsedQuery
	rs := []rune(s)
	i := 0
	for i < len(rs) && len(pq.words)+len(pq.filters) < maxQueryClauses {
		for i < len(rs) && unicode.IsSpace(rs[i]) {
			i++
		}
		if i >= len(rs) {
			break
		}
		must, not := false, false
		if (rs[i] == '+' || rs[i] == '-') && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) {
			must, not = rs[i] == '+', rs[i] == '-'
			i++
		}
		if rs[i] == '"' {
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				j++
			}
			text := string(rs[i+1 : j])
			i = j + 1
			if len(analysis.Analyze(text)) > 0 {
				pq.words = append(pq.words, queryWord{text: text, phrase: true, must: must, not: not})
			}
			continue
		}
		if field, value, next, ok := quotedFilter(rs, i); ok {
			pq.filters = append(pq.filters, fieldClause{field: field, value: value, not: not})
			i = next
			continue
		}
		j := i
		for j < len(rs) && !unicode.IsSpace(rs[j]) {
			j++
		}
		tok := string(rs[i:j])
		i = j
		if name, value, ok := strings.Cut(tok, ":"); ok && queryFields[strings.ToLower(name)] && value != "" {
			value = strings.Trim(value, `"`)
			if value != "" {
				pq.filters = append(pq.filters, fieldClause{field: strings.ToLower(name), value: value, not: not})
				continue
			}
		}
		if len(analysis.Analyze(tok)) == 0 {
			continue // punctuation only
		}
		pq.words = append(pq.words, queryWord{text: tok, must: must, not: not})
	}
	return pq
}

// quotedFilter reads a filter whose value is quoted, field:"two words",
// at rs[i]: the value runs to the closing quote (or the end, as an
// unclosed phrase does). It reports the index after it. A value that is
// empty is not a filter.
func quotedFilter(rs []rune, i int) (field, value string, next int, ok bool) {
	j := i
	for j < len(rs) && rs[j] != ':' && !unicode.IsSpace(rs[j]) {
		j++
	}
	field = strings.ToLower(string(rs[i:j]))
	if j+1 >= len(rs) || rs[j] != ':' || rs[j+1] != '"' || !queryFields[field] {
		return "", "", 0, false
	}
	k := j + 2
	for k < len(rs) && rs[k] != '"' {
		k++
	}
	value = strings.TrimSpace(string(rs[j+2 : k]))
	if value == "" {
		return "", "", 0, false
	}
	return field, value, k + 1, true
}
