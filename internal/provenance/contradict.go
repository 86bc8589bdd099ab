package provenance

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dreamwiki/dreamwiki/internal/analysis"
	"github.com/dreamwiki/dreamwiki/internal/dates"
	"github.com/dreamwiki/dreamwiki/internal/memory"
	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Two claims contradict each other only when they give different values
// to one single-valued attribute of one subject: Arjun's birthday, the
// dev server's port, the model of the NAS. Lines that merely share a list
// key ("Decision: …", "下一步：…"), the same field of two records (the
// role of two personas) or two attributes of one thing (a speaker's
// device id and its volume) are not contradictions.
//
// Each claim is read into facts (subject, attribute, value); facts are
// sorted by subject and attribute, so that only facts about the same
// thing are ever compared: the work is O(n log n) in the number of facts,
// and a subject that many lines give values to is a list, not a single
// value, and is not compared at all.

// fact is one single value a claim gives.
type fact struct {
	claim   int    // index in analyzer.claims
	subject string // normalised subject key (what facts are grouped by)
	name    string // the subject as reports name it
	// attr is the attribute the value is of ("birthday", "port"), or ""
	// when the key names the value itself ("Preferred editor: VS Code").
	attr  string
	value string
	words map[string]bool // the value's head as a word set
	// scope is where the fact is stated (file and heading path): a bare
	// key ("Profile: …", "字幕：…") names a subject only there.
	scope string
	// label marks a fact written "Key: value", as against a statement
	// about its subject ("Friday updates go to #x").
	label bool
}

// maxValuesPerSubject is the most claims one subject and attribute may
// have before it is taken for a list: a single value written in more
// places than this is a log of values, not a fact in dispute.
const maxValuesPerSubject = 4

// contests finds current claims that give one single-valued attribute of
// one subject different values with no recorded supersession between
// them. Both are contested until a chain confirms one; the one with the
// older evidence is stale.
func (a *analyzer) contests() {
	disputes(a.facts(liveClaims(a.claims)), func(x, y fact) bool { return true }, func(i, j int, subj string) {
		older, newer := a.claims[i], a.claims[j]
		if latest(older).After(latest(newer)) {
			older, newer = newer, older
		}
		a.res.Contests = append(a.res.Contests, Contest{Subject: subj, Older: older.ID, Newer: newer.ID})
		older.Contests = append(older.Contests, newer.ID)
		newer.Contests = append(newer.Contests, older.ID)
	})
}

// liveClaims are the indexes of the claims that can be in dispute: current
// claims of curated memory nothing supersedes.
func liveClaims(claims []*Claim) []int {
	var live []int
	for i, c := range claims {
		if c.Origin == OriginArchive || len(c.SupersededBy()) > 0 || c.Entry == nil || c.Entry.Status == "superseded" {
			continue
		}
		live = append(live, i)
	}
	return live
}

// disputes calls found once for each pair of claims (by fact.claim, the
// lower first) with facts that give one single-valued attribute of one
// subject different values, for the pairs of facts pair admits; subject
// names the attribute.
func disputes(facts []fact, pair func(x, y fact) bool, found func(i, j int, subject string)) {
	sort.SliceStable(facts, func(i, j int) bool {
		if facts[i].subject != facts[j].subject {
			return facts[i].subject < facts[j].subject
		}
		return facts[i].attr < facts[j].attr
	})
	type key struct{ x, y int }
	seen := map[key]bool{}
	for lo := 0; lo < len(facts); {
		hi := lo
		for hi < len(facts) && facts[hi].subject == facts[lo].subject {
			hi++
		}
		g := facts[lo:hi]
		lo = hi
		if distinctClaims(g) > maxValuesPerSubject {
			continue
		}
		for i := range g {
			for j := i + 1; j < len(g); j++ {
				x, y := g[i], g[j]
				if x.claim == y.claim || !sameAttribute(x, y) || sameValue(x.words, y.words) || !pair(x, y) {
					continue
				}
				k := key{min(x.claim, y.claim), max(x.claim, y.claim)}
				if seen[k] {
					continue
				}
				seen[k] = true
				subj := x.name
				if attr := max(x.attr, y.attr); attr != "" {
					subj += " " + attr
				}
				found(k.x, k.y, subj)
			}
		}
	}
}

func distinctClaims(g []fact) int {
	seen := map[int]bool{}
	for _, f := range g {
		seen[f.claim] = true
	}
	return len(seen)
}

// sameAttribute reports whether two facts of one subject are about the
// same attribute. A bare key ("Profile: …", "字幕：…", "NAS: …") is a
// label, not a subject: two bare facts are compared only where both are
// stated in one scope (a file's section), and only when both values are
// single values (a number, a code, a name), not phrases. A bare value is
// compared with a named attribute ("Ollama model: llama3.1:8b" and
// "Ollama: qwen2.5:7b") only when both values are codes (model names,
// versions, part numbers): what a bare key names is its thing's
// identity, which a code states and a phrase does not.
func sameAttribute(x, y fact) bool {
	switch {
	case x.attr == "" && y.attr == "":
		return (x.scope == y.scope || !x.label && !y.label) && singleValue(x.value) && singleValue(y.value)
	case x.attr == y.attr:
		return true
	case x.attr == "" || y.attr == "":
		return hasCode(x.value) && hasCode(y.value)
	}
	return false
}

var articles = map[string]bool{"the": true, "a": true, "an": true, "der": true, "die": true, "das": true, "le": true, "la": true, "el": true, "o": true}

// singleValue reports a value that is one value rather than a phrase: it
// holds a number or a code, or is a name of at most two words (six
// characters of a script without spaces).
func singleValue(v string) bool {
	if strings.IndexFunc(v, unicode.IsDigit) >= 0 || hasCode(v) || strings.Contains(v, "://") {
		return true
	}
	f := strings.Fields(v)
	if len(f) > 0 && articles[strings.ToLower(f[0])] {
		f = f[1:] // "the Mac mini"
	}
	if strings.IndexFunc(v, isCJK) >= 0 {
		return len(f) == 1 && utf8.RuneCountInString(v) <= 6
	}
	return len(f) <= 2
}

// sameValue reports whether two value heads say the same: one holds the
// other ("Mac mini" / "the Mac mini M2"), or most words agree and no
// number differs ("GPT 5.2 Codex" and "GPT 5.3 Codex" differ).
func sameValue(x, y map[string]bool) bool {
	if subset(x, y) || subset(y, x) {
		return true
	}
	if analysis.Jaccard(x, y) < 0.5 {
		return false
	}
	for w := range x {
		if !y[w] && strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			return false
		}
	}
	for w := range y {
		if !x[w] && strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			return false
		}
	}
	return true
}

func subset(a, b map[string]bool) bool {
	for w := range a {
		if !b[w] {
			return false
		}
	}
	return true
}

// hasCode reports a value that holds a code: a token that mixes digits
// with letters or dots ("DS920+", "qwen2.5:7b", "5.2"), not a plain
// number, date or amount.
func hasCode(v string) bool {
	for _, t := range strings.FieldsFunc(v, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(",;()（），；、", r) }) {
		digit, other := false, false
		for _, r := range t {
			switch {
			case unicode.IsDigit(r):
				digit = true
			case unicode.IsLetter(r) && r < unicode.MaxLatin1, r == '.' || r == ':':
				other = true
			}
		}
		if digit && other && !isDateToken(t) {
			return true
		}
	}
	return false
}

var reDateToken = regexp.MustCompile(`^\d{1,4}[-./]\d{1,2}(?:[-./]\d{1,4})?[.:]?$|^\d{1,2}:\d{2}$|^\d+(?:st|nd|rd|th)$`)

func isDateToken(t string) bool { return reDateToken.MatchString(t) }

// keyUse counts where each key ("decision", "역할") heads a claim, to tell
// a subject from a list key or a record's field name.
type keyUse struct {
	total    int
	sections map[string]int // "file\x00section" -> claims
	files    map[string]map[string]bool
}

// facts reads the claims at the given indexes into facts.
func (a *analyzer) facts(idx []int) []fact {
	type parsed struct {
		i          int
		key, value string
		label      bool // written "Key: value"
	}
	var ps []parsed
	uses := map[string]*keyUse{}
	var out []fact
	add := func(i int, subject, attr, value string, label bool) {
		name := subject
		if k := strings.LastIndexByte(subject, 0); k >= 0 {
			name = subject[k+1:] // a table's row: its key cell
		}
		head := valueHead(value)
		h := analysis.WordSet(head)
		// A date keying a table's row names the day's record; a date or
		// time as a label names a slot.
		if subject == "" || len(h) == 0 || isPlaceholder(head) || (name == subject && isSlot(name)) {
			return
		}
		c := a.claims[i]
		out = append(out, fact{claim: i, subject: subject, name: name, attr: attr, value: head, words: h, scope: c.File + "\x00" + c.Section, label: label})
	}
	keyed := keyColumns(a.claims, idx)
	for _, i := range idx {
		if e := a.claims[i].Entry; e.Shape == workspace.ShapeTableRow {
			// A row is a record of its table: its first cell names the
			// subject when that column is the table's key (its cells
			// differ row to row), each other cell is the value of its
			// column. A row is compared with the rows of its own table
			// only: another table's row with the same first cell is
			// another record (the same field of two runs, two reports).
			table := tableOf(a.claims[i])
			if len(e.Cells) == 0 || len(e.Columns) == 0 || !keyed[table] {
				continue
			}
			subject := table + "\x00" + strings.ToLower(strings.TrimSpace(e.Cells[0]))
			for k := 1; k < len(e.Cells) && k < len(e.Columns); k++ {
				add(i, subject, strings.ToLower(e.Columns[k]), e.Cells[k], true)
			}
			continue
		}
		st := a.subject(a.claims[i])
		if !st.ok {
			continue
		}
		key := st.key
		ps = append(ps, parsed{i, key, st.value, st.label})
		c := a.claims[i]
		u := uses[key]
		if u == nil {
			u = &keyUse{sections: map[string]int{}, files: map[string]map[string]bool{}}
			uses[key] = u
		}
		u.total++
		u.sections[c.File+"\x00"+c.Section]++
		if u.files[c.File] == nil {
			u.files[c.File] = map[string]bool{}
		}
		u.files[c.File][c.Section] = true
	}
	for _, p := range ps {
		c := a.claims[p.i]
		u := uses[p.key]
		subject, attr := splitAttribute(p.key)
		switch {
		case isAttribute(p.key):
			// The key is an attribute of what the section describes:
			// "모델: …" under "## 똑뇌 (전략 담당)".
			subject, attr = sectionSubject(c.Section), strings.ToLower(p.key)
		case attr == "" && p.label && listKey(u, c.File, c.Section):
			// "Decision: …", "下一步：…": the key heads a list, it is no
			// subject, also where each section holds such a list. A key
			// that names a single-valued attribute ("Dev server port") is
			// one even when repeated, and so is the subject of a
			// statement ("Friday updates go to #x").
			continue
		case recordField(u, c.File):
			// A field of the record each section describes ("역할" under
			// two personas): compared within its record only.
			subject = sectionSubject(c.Section) + " / " + p.key
		}
		if attr == "" {
			if va, rest, ok := leadingAttribute(p.value); ok {
				attr, p.value = va, rest // "Dev server runs on port 5173"
			}
		}
		if !p.label && strings.IndexFunc(subject, unicode.IsDigit) >= 0 {
			continue // "84% of corrections are silent": a measure, no subject
		}
		add(p.i, subject, attr, p.value, p.label)
		// Attributes stated inside the value: "Arjun: Priya's brother;
		// birthday 14 March", "Dev server: `pnpm dev` (port 3000)".
		for _, cl := range reValueClause.Split(p.value, -1)[1:] {
			if va, rest, ok := leadingAttribute(strings.TrimSpace(cl)); ok {
				add(p.i, subject, va, rest, p.label)
			}
		}
	}
	return out
}

// tableOf names the table a row is in: its file, section and columns.
func tableOf(c *Claim) string {
	return c.File + "\x00" + c.Section + "\x00" + strings.Join(c.Entry.Columns, "|")
}

// keyColumns reports, for each table among the claims at idx, whether
// its first column is a key: its rows give at least 80% as many first
// cells as there are rows. A column of ranks, counts or categories ("0", "1",
// "🔴 KRITISCH") names no record.
func keyColumns(claims []*Claim, idx []int) map[string]bool {
	cells := map[string]map[string]int{}
	rows := map[string]int{}
	for _, i := range idx {
		e := claims[i].Entry
		if e.Shape != workspace.ShapeTableRow || len(e.Cells) == 0 {
			continue
		}
		t := tableOf(claims[i])
		if cells[t] == nil {
			cells[t] = map[string]int{}
		}
		cells[t][strings.ToLower(strings.TrimSpace(e.Cells[0]))]++
		rows[t]++
	}
	keyed := make(map[string]bool, len(rows))
	for t, n := range rows {
		keyed[t] = len(cells[t])*5 >= n*4
	}
	return keyed
}

// reSlot is a key that names a time slot, not a subject: a date, a time
// of day, a weekday ("2026-02-06", "09:00", "周二", "Monday").
var reSlot = regexp.MustCompile(`(?i)^(?:\d{1,2}:\d{2}(?:\s*[-–~]\s*\d{1,2}:\d{2})?|(?:mon|tues|wednes|thurs|fri|satur|sun)day|周[一二三四五六日天]|星期[一二三四五六日天]|[月火水木金土日]曜日?|[월화수목금토일]요일)$`)

// isSlot reports a subject that is a time slot: values given to it are
// what happens then, one slot's and another's.
func isSlot(subject string) bool {
	if reSlot.MatchString(subject) {
		return true
	}
	_, ok := dates.Parse(subject)
	return ok
}

// statedSubject is a claim text read as subject key and value
// (subjectValue), and whether it is written "Key: value" (colonLabel).
type statedSubject struct {
	key, value string
	label, ok  bool
}

func readSubject(text string) statedSubject {
	key, value, ok := subjectValue(text)
	if !ok {
		return statedSubject{}
	}
	return statedSubject{key: key, value: value, label: colonLabel(text, value), ok: true}
}

// colonLabel reports a claim written "Key: value", the shape of the lines
// of a list ("Decision: …"), as against a statement about a subject
// ("Friday updates go to #reliability", "The NAS is a DS920+").
func colonLabel(text, value string) bool {
	line, _, _ := strings.Cut(text, "\n")
	k := strings.Index(line, value)
	if k < 0 {
		return false
	}
	before := strings.TrimRight(line[:k], " *_`\"'")
	return strings.HasSuffix(before, ":") || strings.HasSuffix(before, "：")
}

// listKey reports a key that heads several lines of one list, or lines
// all over the workspace: the name of a kind of line, not of a subject.
func listKey(u *keyUse, file, section string) bool {
	return u.total >= 3 || u.sections[file+"\x00"+section] >= 2
}

// recordField reports a key used in several sections of one file: each
// section is a record (a persona, a host) and the key one of its fields.
func recordField(u *keyUse, file string) bool {
	return len(u.files[file]) >= 2
}

// sectionSubject is the subject a section describes: its innermost
// heading without a parenthetical remark or a count.
func sectionSubject(section string) string {
	if k := strings.LastIndex(section, " / "); k >= 0 {
		section = section[k+3:]
	}
	section = reParen.ReplaceAllString(section, "")
	return strings.ToLower(strings.TrimSpace(section))
}

// reValueClause splits a value into its clauses.
var reValueClause = regexp.MustCompile(`[;；，,(（)）]\s*`)

// reGoesTo reads "X goes to Y" style statements memory.SubjectValue does
// not: where a thing goes, runs or lives.
var reGoesTo = regexp.MustCompile(`(?i)^(.{3,60}?)\s+(?:goes|go|went|runs|run|lives|live|posts|post|are sent|is sent|are posted|is posted)\s+(?:to|on|in|at)\s+(\S.*)$`)

// subjectValue reads a claim as subject key and value.
func subjectValue(text string) (string, string, bool) {
	if s, v, ok := memory.SubjectValue(text); ok {
		return s, v, true
	}
	line, _, _ := strings.Cut(text, "\n")
	m := reGoesTo.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return "", "", false
	}
	subj := strings.ToLower(strings.Join(strings.Fields(m[1]), " "))
	if len(strings.Fields(subj)) > 6 {
		return "", "", false
	}
	return subj, m[2], true
}

// splitAttribute splits a key into subject and attribute: "arjun's
// birthday" gives arjun and birthday, "ollama model" ollama and model,
// "dev server" the subject alone.
func splitAttribute(key string) (subject, attr string) {
	for _, sep := range []string{"'s ", "’s ", "的", "의 ", "の"} {
		if s, at, ok := strings.Cut(key, sep); ok && s != "" && isAttribute(strings.TrimSpace(at)) {
			return strings.TrimSpace(s), strings.TrimSpace(at)
		}
	}
	if k := strings.LastIndexByte(key, ' '); k > 0 && isAttribute(key[k+1:]) {
		return strings.TrimSpace(key[:k]), key[k+1:]
	}
	return key, ""
}

// leadingAttribute reads "port 5173" or "birthday 14 March" as an
// attribute and its value.
func leadingAttribute(s string) (attr, value string, ok bool) {
	s = strings.TrimLeft(s, "*_` ")
	for _, w := range []int{2, 1} {
		f := strings.Fields(s)
		if len(f) <= w {
			continue
		}
		at := strings.ToLower(strings.Join(f[:w], " "))
		at = strings.TrimRight(at, ":：")
		if isAttribute(at) {
			return at, strings.TrimSpace(strings.Join(f[w:], " ")), true
		}
	}
	return "", "", false
}

// singleValued are attributes a thing has one value of at a time, in the
// languages workspaces are written in.
var singleValued = map[string]bool{
	"birthday": true, "born": true, "date of birth": true, "model": true, "port": true,
	"version": true, "ip": true, "ip address": true, "address": true, "email": true,
	"phone": true, "timezone": true, "time zone": true, "os": true, "hostname": true,
	"host": true, "id": true, "device id": true, "owner": true, "manager": true,
	"deadline": true, "due": true, "budget": true, "url": true, "domain": true,
	"生日": true, "型号": true, "模型": true, "端口": true, "版本": true, "地址": true,
	"邮箱": true, "电话": true, "时区": true, "系统": true, "负责人": true,
	"생일": true, "모델": true, "포트": true, "버전": true, "주소": true, "이메일": true,
	"전화": true, "시간대": true, "誕生日": true, "モデル": true, "ポート": true,
	"バージョン": true, "住所": true, "メール": true, "電話": true, "タイムゾーン": true,
	"cumpleaños": true, "modelo": true, "puerto": true, "versión": true,
	"dirección": true, "correo": true, "teléfono": true, "zona horaria": true,
}

func isAttribute(s string) bool { return singleValued[strings.ToLower(strings.TrimSpace(s))] }

// reValueEnd cuts a value down to its head: what comes before the first
// clause that qualifies it ("#reliability since 2026-11-02, drafted ...").
var reValueEnd = regexp.MustCompile(`(?i)[,;(，；（、]|\s[—–-]\s|\s(?:since|as|from|until|till|by|for|with|when|after|before|because|via|and|but|which|who|on|at|in)\s`)

func valueHead(v string) string {
	if loc := reValueEnd.FindStringIndex(v); loc != nil {
		v = v[:loc[0]]
	}
	return strings.TrimSpace(v)
}
