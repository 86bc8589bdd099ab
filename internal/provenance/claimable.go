package provenance

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

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

// A claim also says something about something (issue #23, rule 5). A
// label with nothing after it ("Rollback:", "**周计划模板**:"), a template's
// field ("Symptom:" under "## YYYY-MM-DD — [short title]", "静息心率 |
// -（待测）"), a pointer to where the entries went ("More X entries: see
// memory/x.md"), a line of a pasted transcript or of code, and a bare list
// of names ("Cloud, Multi-cloud, Serverless, FaaS") say nothing, and are
// no claims either. Each shape is one small test in notClaimShapes.

// notAClaim reports an entry that states nothing by itself.
func notAClaim(e *workspace.Entry) bool {
	if isTemplateSection(e.Section) {
		return true
	}
	if e.Shape == workspace.ShapeTableRow {
		return !hasHeader(e.Columns) || placeholderRow(e.Cells)
	}
	t := strings.TrimSpace(strings.Trim(strings.TrimSpace(e.Text), "*_"))
	for _, shape := range notClaimShapes {
		if shape(t) {
			return true
		}
	}
	if e.Shape == workspace.ShapeList && isNamePhrase(t) || isShortLabel(t) {
		return true
	}
	return isTranscriptLine(t, e.Section) || isCode(e.Raw)
}

// isShortLabel reports a section label written as a line of its own in
// a script without spaces: "やったこと", "待执行", "結果" (five characters
// at most, no number).
func isShortLabel(t string) bool {
	n := 0
	for _, r := range t {
		switch {
		case isCJK(r):
			n++
		case r == '/' || r == '・':
		default:
			return false
		}
	}
	return n > 0 && n <= 5
}

// isNamePhrase reports a list item that only names a thing, in a list of
// features or checks: "Code complexity", "File/Image Upload", "WhatsApp
// (wacli)". It has at most three words besides a remark, five with it,
// no number, no label and no sentence's end; Latin script only, where
// words are told apart by spaces.
func isNamePhrase(t string) bool {
	bare := strings.TrimSpace(reParen.ReplaceAllString(t, ""))
	if bare == "" {
		return true // "(pending more)": a remark alone
	}
	if len(strings.Fields(bare)) > 3 || len(strings.Fields(t)) > 5 || strings.HasSuffix(bare, ".") {
		return false
	}
	return strings.IndexFunc(t, func(r rune) bool {
		return unicode.IsDigit(r) || r == ':' || r == '：' || r == '=' || (unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r))
	}) < 0
}

// notClaimShapes are the shapes of an entry's text that state nothing.
var notClaimShapes = []func(string) bool{
	isDateLabel, isMetadataLine, isBareFileName, isIndexLine, isLogLine,
	isEmptyLabel, isPlaceholderField, isPointerLine, isSubjectlessList,
}

// isEmptyLabel reports a label with no value: "Rollback:", "产出文件：",
// "Created `scripts/x.sh`:", a list's lead-in.
func isEmptyLabel(t string) bool {
	t = strings.TrimRight(t, "*_` ")
	return strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")
}

// placeholders are the values a template leaves for its instance to fill.
var placeholders = map[string]bool{
	"-": true, "—": true, "–": true, "?": true, "??": true, "...": true, "…": true, "tbd": true, "tba": true,
	"todo": true, "n/a": true, "na": true, "none": true, "xxx": true, "x": true, "yyyy-mm-dd": true,
	"待定": true, "待测": true, "待补充": true, "待填": true, "待填写": true, "未定": true, "暂无": true, "无": true,
	"미정": true, "없음": true, "未定义": true, "未記入": true, "なし": true,
}

// isPlaceholder reports a value that is a placeholder: "TBD", "-（待测）",
// "[proposal title]", "<name>", "{{date}}".
func isPlaceholder(v string) bool {
	v = strings.TrimSpace(strings.Trim(strings.TrimSpace(v), "*_`"))
	if v == "" {
		return true
	}
	if (strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") && !strings.Contains(v, "](")) ||
		(strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">")) || strings.HasPrefix(v, "{{") {
		return true
	}
	v = strings.ToLower(v)
	if placeholders[v] {
		return true
	}
	// "-（待测）", "TBD (ask Sam)", "（待测）": a placeholder with a remark.
	if bare := strings.TrimSpace(reParen.ReplaceAllString(v, "")); bare != v {
		if bare == "" {
			return placeholders[strings.TrimSpace(strings.Trim(v, "()（） "))]
		}
		return placeholders[bare]
	}
	return false
}

// isPlaceholderField reports "Key: placeholder".
func isPlaceholderField(t string) bool {
	k := strings.IndexAny(t, ":：")
	if k <= 0 {
		return false
	}
	return isPlaceholder(strings.TrimLeft(t[k:], ":："))
}

// placeholderRow reports a table row whose cells after its key are all
// placeholders: a template's row.
func placeholderRow(cells []string) bool {
	if len(cells) < 2 {
		return false
	}
	for _, c := range cells[1:] {
		if !isPlaceholder(c) {
			return false
		}
	}
	return true
}

// reTemplateHeading finds a heading that is a template's: a placeholder
// date ("## YYYY-MM-DD — [short title]"), a {{field}}, or a heading
// named a template or one to fill in ("（タスク完了時に記入）").
var reTemplateHeading = regexp.MustCompile(`(?i)YYYY|\bMM-DD\b|\{\{|\btemplate\b|模板|テンプレート|템플릿|填写|記入|기입`)

// isTemplateSection reports a section (a heading path) that is a
// template: its entries are fields to fill in, not facts.
func isTemplateSection(section string) bool {
	return section != "" && reTemplateHeading.MatchString(section)
}

// rePointerLine is a line that only says where entries went: "More X
// entries: see memory/x.md", "see memory/x.md", "详见 memory/x.md".
var rePointerLine = regexp.MustCompile(`(?i)^(?:more\b.*\bentries:\s*)?(?:see|详见|参见|参考|자세히|詳細は)\s+\S+$`)

func isPointerLine(t string) bool { return rePointerLine.MatchString(t) }

// reTranscript is the speaker of a pasted conversation's line.
var reTranscript = regexp.MustCompile(`(?i)^(?:assistant|user|human|system)\s*:`)

// isTranscriptLine reports a line of a pasted conversation: an
// assistant's reply anywhere, a user's turn under a conversation heading.
func isTranscriptLine(t, section string) bool {
	if !reTranscript.MatchString(t) {
		return false
	}
	if strings.HasPrefix(strings.ToLower(t), "assistant") {
		return true
	}
	s := strings.ToLower(section)
	return strings.Contains(s, "conversation") || strings.Contains(s, "transcript") || strings.Contains(s, "对话")
}

// isCode reports an entry with a line of code outside a fence: a lone
// brace, a line opening a block, or a statement ending in ';'.
func isCode(raw string) bool {
	for _, l := range strings.Split(raw, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "-*+>"))
		switch {
		case l == "{" || l == "}" || l == "};" || l == "});" || l == ")" || l == "]":
			return true
		case strings.HasSuffix(l, " {") && !strings.Contains(l, ". "):
			return true
		case strings.HasSuffix(l, ";") && (strings.Contains(l, " = ") || len(strings.Fields(l)) <= 3) && strings.IndexFunc(l, isCJK) < 0:
			return true
		}
	}
	return false
}

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hangul, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

// isSubjectlessList reports a bare list of names with nothing said of
// them and no subject: "Cloud, Multi-cloud, Serverless, FaaS", "评分 +
// 好评率". "Stack: Go, Postgres" names its subject, and is a claim.
func isSubjectlessList(t string) bool {
	t = strings.TrimSpace(reParen.ReplaceAllString(t, ""))
	if strings.ContainsAny(t, ":：=") || strings.ContainsAny(strings.TrimRight(t, ".。 "), ".!?。！？") {
		return false
	}
	// Korean and Japanese end a clause with a particle or a verb, often
	// on a list's last item ("게임 개발, AI, 자동화에 관심"): only a
	// person tells such a list from a sentence.
	if strings.IndexFunc(t, func(r rune) bool { return unicode.Is(unicode.Hangul, r) || unicode.Is(unicode.Hiragana, r) }) >= 0 {
		return false
	}
	var items []string
	plus := false
	switch {
	case strings.Contains(t, " + "):
		items, plus = strings.Split(t, " + "), true
	default:
		// Not '，': Chinese joins the clauses of a sentence with it.
		items = strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == '、' })
	}
	if len(items) < 3 {
		return false
	}
	for _, it := range items {
		it = strings.TrimSpace(it)
		if it == "" || len(strings.Fields(it)) > 3 || utf8.RuneCountInString(it) > 30 {
			return false
		}
		if !plus && strings.IndexFunc(it, unicode.IsDigit) >= 0 {
			return false
		}
	}
	return true
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
	"last dream", "started", "start", "finished", "completed", "done", "logged",
	"日期", "时间", "更新", "最后更新", "上次更新", "上次整理", "整理", "完成", "开始", "完成时间", "날짜", "완료", "시작",
	"開始", "完了", "終了",
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
	if reClock.MatchString(rest) {
		return true
	}
	_, ok := dates.Timestamp(rest)
	return ok
}

// reClock is a time of day alone: "11:53", "09:30 UTC".
var reClock = regexp.MustCompile(`^\d{1,2}:\d{2}(?::\d{2})?(?:\s*[A-Z]{2,4})?$`)

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
