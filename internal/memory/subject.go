package memory

import (
	"regexp"
	"strings"
	"unicode"
)

// SubjectValue reads an entry as "subject has value", so that a newer entry
// with the same subject and a different value can be recognised as
// superseding an older one ("Gateway host is the NUC" -> "Gateway host is
// the Mac mini"). It understands "X is Y" ("X is now Y"), "X: Y", "X = Y",
// "X moved to Y" (also migrated/switched/changed, and "moved from A to Y"),
// and "X → Y" ("->", "=>"); the earliest separator in the first line wins,
// and in "X: A → B" the value is B.
//
// The subject is normalised for comparison: lower-case, blanks collapsed,
// markup and leading articles and possessives (the, a, an, my, our, your)
// dropped. The value is returned as written, trimmed of markup and
// sentence punctuation.
//
// ok is false when the text is not such a statement: no separator, a
// question, a negated value ("is not"), a subject that is a pronoun ("It is
// raining"), a label of the Rule/Why/How or Source: kind, a date or number,
// or a subject longer than six words (a sentence, not a name).
func SubjectValue(text string) (subject, value string, ok bool) {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	// folded is for the guards of the case-insensitive patterns. Cutting a
	// prefix or blanks off line keeps it valid (a literal missing from the
	// whole line is missing from any part of it); other edits reset it.
	folded := fold(line)
	if reEntryNoise.may(line, folded) {
		line = reEntryNoise.re.ReplaceAllString(line, "")
		folded = ""
	}
	line = reEntryPrefix.ReplaceAllString(line, "")
	if strings.Contains(line, "~~") {
		line = strings.ReplaceAll(line, "~~", "")
		folded = ""
	}
	line = strings.TrimSpace(line)
	if line == "" || strings.HasSuffix(line, "?") {
		return "", "", false
	}
	start, end, found := separator(line, folded)
	if !found {
		return "", "", false
	}
	subject = normaliseSubject(line[:start])
	value = line[end:]
	if reArrow.may(value, "") {
		if ms := reArrow.re.FindAllStringIndex(value, -1); len(ms) > 0 {
			value = value[ms[len(ms)-1][1]:] // "X: A → B" has the value B
		}
	}
	value = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(value), ".;,!"))
	value = strings.TrimSpace(strings.Trim(value, "*`\"'"))
	if subject == "" || value == "" || !validSubject(subject) {
		return "", "", false
	}
	if lv := strings.ToLower(value); lv == "not" || strings.HasPrefix(lv, "not ") || strings.HasPrefix(lv, "never ") {
		return "", "", false
	}
	return subject, value, true
}

var (
	// reEntryPrefix strips blockquote and list markers, checkboxes and
	// [type] tags from the start of an entry.
	reEntryPrefix = regexp.MustCompile(`^(?:\s*>)*(?:\s*(?:[-*+]|\d+[.)])\s+)?(?:\[[ xX]\]\s*)?(?:\[[a-z-]+\]\s*)?`)
	// reEntryNoise strips promotion suffixes, comments and source footers.
	reEntryNoise = guard(`<!--.*?-->|\s*\[score=[^\]]*\]|(?i)\s*\(?\bsource:\s.*$`,
		[][]string{{"<!--", "[score=", "source:"}})
	// reVerbSep finds the word and arrow separators.
	reVerbSep = guard(`(?i)\s*(?:→|⇒|⟶|->|=>)\s*`+
		`|\s+(?:has\s+|have\s+|was\s+|were\s+)?(?:moved|migrated|switched|changed|relocated)\s+(?:from\s+.+?\s+)?to\s+`+
		`|\s+(?:is|are)\s+now\s+|\s+(?:is|are)\s+`,
		[][]string{append(joined(blanks, "is", "are"),
			"→", "⇒", "⟶", "->", "=>", "moved", "migrated", "switched", "changed", "relocated")})
	reArrow = guard(`→|⇒|⟶|->|=>`,
		[][]string{{"→", "⇒", "⟶", "->", "=>"}})
)

// separator returns the earliest separator in line: a verb or arrow from
// reVerbSep, a colon followed by a blank (so "10:30" and "https://" are not
// separators), a full-width colon, or a lone '=' (not "==", "<=", "!=").
// folded is as for guarded.may.
func separator(line, folded string) (start, end int, ok bool) {
	start = len(line) + 1
	if reVerbSep.may(line, folded) {
		if m := reVerbSep.re.FindStringIndex(line); m != nil {
			start, end = m[0], m[1]
		}
	}
	for i := 0; i < len(line) && i < start; i++ {
		switch c := line[i]; {
		case c == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t'):
			start, end = i, i+1
		case c == '=' && (i+1 == len(line) || line[i+1] != '=' && line[i+1] != '>') &&
			(i == 0 || !strings.ContainsRune("=<>!", rune(line[i-1]))):
			start, end = i, i+1
		case strings.HasPrefix(line[i:], "："):
			start, end = i, i+len("：")
		default:
			continue
		}
		break
	}
	if start > len(line) {
		return 0, 0, false
	}
	// Trim the blanks around a punctuation separator into it.
	for start > 0 && line[start-1] == ' ' {
		start--
	}
	for end < len(line) && line[end] == ' ' {
		end++
	}
	return start, end, true
}

// normaliseSubject lower-cases a subject, strips markup and drops leading
// articles and possessives.
func normaliseSubject(s string) string {
	s = strings.ToLower(strings.Trim(strings.TrimSpace(s), "*_`\"'"))
	words := strings.Fields(s)
	for len(words) > 0 {
		switch words[0] {
		case "the", "a", "an", "my", "our", "your":
			words = words[1:]
			continue
		}
		break
	}
	return strings.TrimRight(strings.Join(words, " "), ".,;:!")
}

// pronouns start sentences, not names: "It is raining", "This is fine".
var pronouns = map[string]bool{
	"it": true, "this": true, "that": true, "there": true, "here": true,
	"he": true, "she": true, "they": true, "we": true, "i": true, "you": true,
	"what": true, "which": true, "who": true, "these": true, "those": true,
	"everything": true, "something": true, "nothing": true,
}

// labels are the headings of structured entries (Rule/Why/How blocks,
// Source: footers), not subjects of facts.
var labels = map[string]bool{
	"rule": true, "why": true, "how": true, "note": true, "notes": true,
	"source": true, "sources": true, "evidence": true, "tip": true,
	"example": true, "e.g.": true, "summary": true, "context": true,
	"todo": true, "fixme": true, "warning": true, "important": true,
	"nb": true, "ps": true, "see": true, "fyi": true, "reminder": true,
	"update": true, "q": true, "question": true, "answer": true,
	"related": true, "tags": true, "date": true, "time": true,
}

func validSubject(s string) bool {
	words := strings.Fields(s)
	if len(words) == 0 || len(words) > 6 || len(s) > 60 {
		return false
	}
	if pronouns[words[0]] || labels[s] {
		return false
	}
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}
