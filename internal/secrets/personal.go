package secrets

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Personal data is the second class the guard knows: phone numbers,
// e-mail addresses and street addresses. They are not credentials, so
// Scan, Contains and Redact never report them; ScanPersonal does, and a
// Guard with Personal set redacts them with the credentials. dreamwiki
// reports them in `check` and redacts them when a workspace asks for it
// ([publish] redact_personal).
//
// The detectors are kept narrow, because a false alarm about a date or an
// order number teaches people to skim past the report:
//
//   - Phone numbers: an international number (+CC and 8 to 15 digits); a
//     Chinese mobile (1[3-9] and 9 digits, whole or as 3-4-4); a
//     Japanese or Korean number (0 first, hyphens, 10 or 11 digits, a last
//     group of four: 090-1234-5678, 03-1234-5678, 010-1234-5678); a North
//     American number ((415) 555-2671, 415-555-2671); and any number of 7
//     to 15 digits after a phone label (phone, tel, 电话, 手机, 電話, 전화 …).
//     Never a number inside a word, after '.', '/', '-', '#' or '=', or
//     followed by one (versions, dates, paths, ids, times, hashes), nor a
//     bare one after an order, invoice or id label.
//   - E-mail addresses: local@domain.tld with a letter TLD, except
//     documentation domains (example.com, .test, .invalid), local ones
//     (.lan, .local, .internal, .home …), file names (icon@2x.png) and
//     git remotes (git@github.com:…).
//   - Street addresses: a number, one to four capitalised words and a
//     street word (123 Main Street, 9 Abbey Rd.); a German street name
//     and its number (Hauptstraße 5); a French number and street word (12
//     rue de la Paix); a Chinese road and number (北京市朝阳区建国路88号);
//     a Japanese block (東京都千代田区丸の内1丁目9-2); a Korean road and
//     number after its district (서울특별시 강남구 테헤란로 123).

// The kinds of personal data. They are never among Kinds(): Scan does not
// report them.
const (
	// KindPhone is a phone number.
	KindPhone Kind = "phone"
	// KindEmail is an e-mail address.
	KindEmail Kind = "email"
	// KindAddress is a street address.
	KindAddress Kind = "address"
)

// PersonalKinds returns the kinds of personal data.
func PersonalKinds() []Kind { return []Kind{KindPhone, KindEmail, KindAddress} }

// personalKind reports whether k is a kind of personal data.
func personalKind(k Kind) bool { return k == KindPhone || k == KindEmail || k == KindAddress }

// ScanPersonal returns the personal data in text (phone numbers, e-mail
// addresses, street addresses), sorted by offset and non-overlapping.
func ScanPersonal(text string) []Finding {
	return resolve(text, scanPersonal(text))
}

// scanPersonal is the pass for personal data: the keyword automaton for
// e-mail and address cues, then one loop over the digits for phones.
func scanPersonal(t string) []candidate {
	s := scanner{t: t}
	g := personalGuard()
	g.auto.scan(t, func(id, start, end int) bool {
		return g.triggers[id].detect(&s, start, end)
	})
	phones(&s)
	return s.found
}

var personalGuard = sync.OnceValue(func() *guard {
	ts := []trigger{{"@", email}}
	for _, w := range englishStreetWords {
		ts = append(ts, trigger{w, englishAddress})
	}
	for _, w := range []string{"straße", "strasse", "gasse", "allee", "platz", "weg", "laan", "straat", "gatan", "vägen"} {
		ts = append(ts, trigger{w, germanAddress})
	}
	for _, w := range []string{"rue ", "avenue ", "boulevard ", "chemin ", "allée ", "impasse ", "quai ", "calle ", "rua ", "via ", "piazza "} {
		ts = append(ts, trigger{w, frenchAddress})
	}
	ts = append(ts, trigger{"号", chineseAddress}, trigger{"號", chineseAddress}, trigger{"丁目", japaneseAddress})
	ts = append(ts, trigger{"로 ", koreanAddress}, trigger{"길 ", koreanAddress})
	return compileGuard(ts)
})

// ---- e-mail ----

func isEmailLocal(c byte) bool { return isAlnum(c) || strings.IndexByte("._%+-", c) >= 0 }

// notEmailTLD are top-level domains of addresses that reach no person:
// documentation, local networks, and file extensions (icon@2x.png).
var notEmailTLD = map[string]bool{
	"test": true, "invalid": true, "example": true, "localhost": true, "local": true, "lan": true,
	"home": true, "internal": true, "localdomain": true, "arpa": true, "corp": true, "intranet": true,
	"png": true, "jpg": true, "jpeg": true, "gif": true, "svg": true, "webp": true, "md": true,
	"js": true, "ts": true, "json": true, "css": true, "html": true, "txt": true, "pdf": true,
	"py": true, "go": true, "rs": true, "sh": true, "yaml": true, "yml": true, "toml": true, "lock": true,
}

// email finds the address around the '@' at at.
func email(s *scanner, at, _ int) bool {
	t := s.t
	ls := at
	for ls > 0 && at-ls < 64 && isEmailLocal(t[ls-1]) {
		ls--
	}
	for ls < at && t[ls] == '.' {
		ls++
	}
	if ls == at || ls > 0 && (isAlnum(t[ls-1]) || t[ls-1] == '@' || t[ls-1] == '/') {
		return false
	}
	if ls > 0 && t[ls-1] == ':' {
		// scheme://user:password@host holds credentials, not an address.
		ts := ls - 1
		for ts > 0 && !isSpace(t[ts-1]) && ls-ts < 512 {
			ts--
		}
		if strings.Contains(t[ts:ls], "://") {
			return false
		}
	}
	local := t[ls:at]
	if local == "git" || redacted(local) {
		return false
	}
	// The domain: labels of letters, digits and '-', joined by dots.
	ds, labels, last := at+1, 0, at+1
	i := ds
	for labels < 10 {
		e := span(t[:min(len(t), i+63)], i, func(c byte) bool { return isAlnum(c) || c == '-' })
		if e == i || t[i] == '-' || t[e-1] == '-' {
			break
		}
		labels++
		last, i = i, e
		if i+1 < len(t) && t[i] == '.' && isAlnum(t[i+1]) {
			i++
			continue
		}
		break
	}
	end := i
	tld := strings.ToLower(t[last:end])
	if labels < 2 || len(tld) < 2 || len(tld) > 24 || !lettersOnly(tld) || strings.ContainsAny(tld, "_.-") || notEmailTLD[tld] {
		return false
	}
	if end < len(t) && (isAlnum(t[end]) || t[end] == '_' || t[end] == '@' || t[end] == ':' && end+1 < len(t) && !isSpace(t[end+1])) {
		return false // git@host:owner/repo, or not the end of the address
	}
	dom := strings.ToLower(t[ds:end])
	for _, d := range [...]string{"example.com", "example.org", "example.net"} {
		if dom == d || strings.HasSuffix(dom, "."+d) {
			return false
		}
	}
	return s.add(ls, end, KindEmail, "email")
}

// ---- phone numbers ----

// phoneLabels name a phone number in the few bytes before it.
var phoneLabels = []string{"phone", "telephone", "tel", "mobile", "cell", "call", "whatsapp", "fax", "sms",
	"电话", "電話", "手机", "手機", "联系", "聯繫", "携帯", "전화", "휴대폰", "핸드폰", "연락처",
	"telefon", "téléphone", "teléfono", "telefone", "telefono", "телефон", "tlf", "tfn"}

// idLabels name a number that is an identifier, not a phone number.
var idLabels = []string{"order", "invoice", "ticket", "tracking", "txn", "transaction", "ref",
	"serial", "sku", "account", "acct", "id", "no.", "#", "订单", "單號", "单号", "编号", "編號",
	"流水", "注文", "주문", "번호", "qq", "uid", "pid", "issue", "pr"}

// phones finds the phone numbers of s.t in one pass over its digits.
func phones(s *scanner) {
	t := s.t
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !isDigit(c) && c != '+' && c != '(' {
			continue
		}
		if i > 0 && !phoneStart(t[i-1]) {
			// Skip the rest of this run: a number inside a word or after
			// '.', '/' or '-' is none.
			for i+1 < len(t) && (isAlnum(t[i+1]) || t[i+1] == '.' || t[i+1] == '-') {
				i++
			}
			continue
		}
		end, ok := phoneAt(t, i)
		if ok {
			if s.add(i, end, KindPhone, "phone") {
				return
			}
		}
		if end > i {
			i = end - 1
		}
	}
}

// phoneStart reports whether a number may start after byte p.
func phoneStart(p byte) bool {
	return !isAlnum(p) && strings.IndexByte("._/-#=@$&%+(*\\~^", p) < 0
}

// phoneAt reads the number starting at i and reports whether it is a
// phone number, with its end. end is past what was read either way.
func phoneAt(t string, i int) (end int, ok bool) {
	j := i
	plus := t[j] == '+'
	if plus {
		j++
		if j >= len(t) || !isDigit(t[j]) || t[j] == '0' {
			return j, false
		}
	}
	var groupsBuf [8]int
	var sepsBuf [8]byte
	groups, seps := groupsBuf[:0], sepsBuf[:0]
	paren := false
	for len(groups) < 8 {
		if j < len(t) && t[j] == '(' {
			e := span(t, j+1, isDigit)
			if e == j+1 || e >= len(t) || t[e] != ')' || e-j-1 > 4 {
				return j + 1, false
			}
			groups = append(groups, e-j-1)
			paren = true
			j = e + 1
			// What follows "(415)" is part of the parentheses' separator.
			if j+1 < len(t) && (t[j] == ' ' || t[j] == '-') && isDigit(t[j+1]) {
				j++
			} else if j >= len(t) || !isDigit(t[j]) {
				break
			}
			seps = append(seps, ')')
			continue
		}
		e := span(t[:min(len(t), j+16)], j, isDigit)
		if e == j {
			break
		}
		groups = append(groups, e-j)
		j = e
		if j+1 < len(t) && strings.IndexByte(" -.", t[j]) >= 0 && (isDigit(t[j+1]) || t[j+1] == '(') {
			seps = append(seps, t[j])
			j++
			continue
		}
		break
	}
	if len(groups) == 0 || j < len(t) && !phoneEnd(t, j) {
		return j, false
	}
	digits := 0
	for _, g := range groups {
		digits += g
	}
	sep := byte(0)
	for _, c := range seps {
		if sep == 0 || sep == ')' {
			sep = c
		} else if c != sep && c != ')' {
			return j, false // mixed separators: "2026-05 01"
		}
	}
	first := t[i:min(len(t), i+2)]
	if paren {
		first = strings.TrimPrefix(t[i:min(len(t), i+3)], "(")
	}
	switch {
	case plus:
		return j, digits >= 8 && digits <= 15 && (sep != '.' || len(groups) >= 4)
	case sep == '.' || digits < 7 || digits > 15 || dateShape(groups):
		return j, false // versions and addresses (1.13.0, 10.0.0.12), short numbers, dates
	}
	mobile := first[0] == '1' && first[1] >= '3' && first[1] <= '9'
	bare := false
	switch {
	case len(groups) == 1 && digits == 11 && mobile:
		bare = true // a Chinese mobile
	case len(groups) == 3 && groups[0] == 3 && groups[1] == 4 && groups[2] == 4 && mobile && !paren:
		bare = true // a Chinese mobile, 3-4-4
	case first[0] == '0' && sep == '-' && len(groups) == 3 && groups[0] >= 2 && groups[0] <= 4 && groups[2] == 4 && (digits == 10 || digits == 11):
		bare = true // Japan, Korea: 090-1234-5678, 03-1234-5678, 010-1234-5678
	case len(groups) == 3 && groups[0] == 3 && groups[1] == 3 && groups[2] == 4 && (sep == '-' || paren):
		d := onlyDigits(t[i:j]) // NANP: area code and exchange start with 2-9
		bare = d[0] >= '2' && d[3] >= '2'
	}
	if bare {
		return j, !idContext(t, i) || labelled(t, i)
	}
	return j, labelled(t, i)
}

// onlyDigits returns the digits of s.
func onlyDigits(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			b = append(b, s[i])
		}
	}
	return string(b)
}

// phoneEnd reports whether a number may end at j: not inside a word, a
// version, a date, a time or a path.
func phoneEnd(t string, j int) bool {
	c := t[j]
	if isAlnum(c) || c == '_' || c == '@' || c == '%' || c == '+' {
		return false
	}
	if strings.IndexByte(".-/:,", c) >= 0 && j+1 < len(t) && isDigit(t[j+1]) {
		return false // 1.2.3, 2026-05-01, 12:30, 05/01, 1,234
	}
	return true
}

// dateShape reports digit groups shaped like a date (2026-05-01,
// 01 05 2026).
func dateShape(groups []int) bool {
	return len(groups) == 3 && (groups[0] == 4 && groups[1] <= 2 && groups[2] <= 2 || groups[0] <= 2 && groups[1] <= 2 && groups[2] == 4)
}

// window returns up to n bytes of the line before i.
func window(t string, i, n int) string {
	ls, _ := lineStart(t, i, n)
	return t[ls:i]
}

// labelled reports whether a phone label precedes the number at i on its
// line, within a few words.
func labelled(t string, i int) bool { return hasLabel(window(t, i, 32), phoneLabels) }

// idContext reports whether an identifier's label precedes the number at i.
func idContext(t string, i int) bool { return hasLabel(window(t, i, 24), idLabels) }

// hasLabel reports whether w holds one of labels (lower-case), ASCII case
// folded; an ASCII label must be a word of its own ("tel", not
// "telegram").
func hasLabel(w string, labels []string) bool {
	var buf [64]byte
	lw := buf[:0]
	for k := 0; k < len(w); k++ {
		lw = append(lw, fold(w[k]))
	}
	lower := string(lw)
	for _, l := range labels {
		for k := 0; ; {
			n := strings.Index(lower[k:], l)
			if n < 0 {
				break
			}
			k += n
			if isAlnum(l[0]) && k > 0 && isAlnum(lower[k-1]) || isAlnum(l[len(l)-1]) && k+len(l) < len(lower) && isAlnum(lower[k+len(l)]) {
				k++
				continue
			}
			return true
		}
	}
	return false
}

// ---- street addresses ----

// englishStreetWords end an English street address. "Dr", "St" and "Ct"
// stand for doctor, saint and more often than for a street, but "St" after
// a house number and a name is common enough to keep.
var englishStreetWords = []string{"street", "st", "avenue", "ave", "road", "rd", "boulevard", "blvd",
	"lane", "ln", "drive", "court", "place", "way", "terrace", "parkway", "highway", "square"}

// weakStreetWords are street words that are also everyday words: the
// address must not run on into lower-case prose after them.
var weakStreetWords = map[string]bool{"way": true, "place": true, "court": true, "square": true, "terrace": true, "st": true, "ln": true}

// englishAddress matches "123 Main Street" ending in the street word at
// [at, end).
func englishAddress(s *scanner, at, end int) bool {
	t := s.t
	if !isUpper(t[at]) || at > 0 && isAlnum(t[at-1]) || end < len(t) && isAlnum(t[end]) {
		return false
	}
	e := end
	if e < len(t) && t[e] == '.' && end-at <= 4 {
		e++
	}
	word := strings.ToLower(t[at:end])
	if weakStreetWords[word] || end-at <= 4 {
		// After a weak word only a break or a capital may follow.
		n := skipBlanks(t, e)
		if n > e && n < len(t) && isLower(t[n]) {
			return false
		}
	}
	// Back over one to four capitalised words to the house number.
	j := at
	names := 0
	for names < 5 {
		if j == 0 || t[j-1] != ' ' {
			return false
		}
		j--
		ws := j
		for ws > 0 && (isAlnum(t[ws-1]) || t[ws-1] == '\'' || t[ws-1] == '.' || t[ws-1] == '-') {
			ws--
		}
		w := t[ws:j]
		if w == "" {
			return false
		}
		if allDigits(strings.TrimRight(w, "ABCDEFGHabcdefgh")) && len(w) <= 6 && isDigit(w[0]) {
			if names == 0 || ws > 0 && !phoneStart(t[ws-1]) && t[ws-1] != ' ' {
				return false
			}
			return s.add(ws, e, KindAddress, "street-address")
		}
		if !isUpper(w[0]) {
			return false
		}
		names++
		j = ws
	}
	return false
}

// germanAddress matches "Hauptstraße 5" (and Dutch and Swedish forms):
// a capitalised word ending in the street suffix at [at, end), then a
// house number.
func germanAddress(s *scanner, at, end int) bool {
	t := s.t
	if end < len(t) && (isAlnum(t[end]) || t[end] >= 0x80 && !strings.HasPrefix(t[end:], "\u00a0")) {
		return false
	}
	ws := at
	for ws > 0 {
		r, size := utf8.DecodeLastRuneInString(t[:ws])
		if !unicode.IsLetter(r) && r != '-' {
			break
		}
		ws -= size
	}
	r, _ := utf8.DecodeRuneInString(t[ws:])
	if !unicode.IsUpper(r) && ws != at {
		return false
	}
	if ws == at && !isUpper(t[at]) {
		return false
	}
	if ws == at && end-at < 5 {
		return false // "Weg 5" alone is no street
	}
	n := skipBlanks(t, end)
	if n == end {
		return false
	}
	e := span(t[:min(len(t), n+4)], n, isDigit)
	if e == n || e < len(t) && isDigit(t[e]) {
		return false
	}
	if e < len(t) && isLower(t[e]) && (e+1 >= len(t) || !isAlnum(t[e+1])) {
		e++ // 12a
	}
	if e < len(t) && (isAlnum(t[e]) || t[e] == '.' && e+1 < len(t) && isDigit(t[e+1])) {
		return false
	}
	return s.add(ws, e, KindAddress, "street-address")
}

// frenchAddress matches "12 rue de la Paix": a house number, the street
// word at [at, end) and the street's name up to a comma or the line's end
// (at most six words).
func frenchAddress(s *scanner, at, end int) bool {
	t := s.t
	if at < 2 || t[at-1] != ' ' && t[at-1] != ',' {
		return false
	}
	j := at - 1
	if t[j] == ',' {
		return false
	}
	for _, suffix := range []string{" bis", " ter"} {
		if strings.HasSuffix(t[:j], suffix) {
			j -= len(suffix)
		}
	}
	if j > 0 && t[j-1] == ',' {
		j--
	}
	ns := j
	for ns > 0 && isDigit(t[ns-1]) {
		ns--
	}
	if ns == j || j-ns > 4 || ns > 0 && !phoneStart(t[ns-1]) && t[ns-1] != ' ' {
		return false
	}
	// The name: up to six words, stopping at punctuation.
	e := end
	words := 0
	for words < 6 && e < len(t) {
		we := e
		for we < len(t) {
			r, size := utf8.DecodeRuneInString(t[we:])
			if !unicode.IsLetter(r) && r != '\'' && r != '-' && r != '’' {
				break
			}
			we += size
		}
		if we == e {
			break
		}
		words++
		e = we
		if e+1 < len(t) && t[e] == ' ' && (isAlnum(t[e+1]) || t[e+1] >= 0x80) {
			n := e + 1
			r, _ := utf8.DecodeRuneInString(t[n:])
			if !unicode.IsLetter(r) {
				break
			}
			e = n
			continue
		}
		break
	}
	if words == 0 {
		return false
	}
	return s.add(ns, len(strings.TrimRight(t[:e], " ")), KindAddress, "street-address")
}

// isHan reports a CJK ideograph; isKana a hiragana or katakana letter.
func isHan(r rune) bool { return unicode.Is(unicode.Han, r) }
func isKana(r rune) bool {
	return unicode.In(r, unicode.Hiragana, unicode.Katakana) || r == 'ー' || r == 'ヶ'
}

// cjkDigit is an ASCII, full-width or Chinese numeral digit.
func cjkDigit(r rune) bool {
	return r >= '0' && r <= '9' || r >= '０' && r <= '９' || strings.ContainsRune("〇一二三四五六七八九十百", r)
}

// digitsBefore returns where the run of cjkDigits ending at i starts.
func digitsBefore(t string, i int) int {
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(t[:i])
		if !cjkDigit(r) && r != '-' && r != '－' {
			break
		}
		i -= size
	}
	return i
}

// placeStart returns where the place names before i begin: back over
// ideographs (and kana with kana set) at most 24 of them, then forward
// past the last word that introduces a place (在, 住, 于, は …) before the
// first administrative marker.
func placeStart(t string, i int, kana bool) int {
	j, n := i, 0
	for j > 0 && n < 24 {
		r, size := utf8.DecodeLastRuneInString(t[:j])
		if !isHan(r) && !(kana && isKana(r)) && !cjkDigit(r) {
			break
		}
		j -= size
		n++
	}
	run := t[j:i]
	admin := strings.IndexFunc(run, func(r rune) bool { return strings.ContainsRune("省市区區县縣都道府県州", r) })
	if admin < 0 {
		admin = len(run)
	}
	cut := -1
	for k, r := range run[:admin] {
		if strings.ContainsRune("在住于於到是往はがをにでの、，：", r) {
			cut = k + utf8.RuneLen(r)
		}
	}
	if cut > 0 {
		j += cut
	}
	return j
}

// chineseAddress matches "北京市朝阳区建国路88号": a road (路, 街, 道, 巷,
// 弄, 胡同) and its number before the 号 at [at, end), the place names
// before them, and a building and room after ("3号楼501室").
func chineseAddress(s *scanner, at, end int) bool {
	t := s.t
	ds := digitsBefore(t, at)
	if ds == at {
		return false
	}
	road := false
	for _, r := range [...]string{"路", "街", "道", "巷", "弄", "胡同", "大道"} {
		if strings.HasSuffix(t[:ds], r) {
			road = true
		}
	}
	if !road {
		return false // 5月3号 is a date, 第3号 a number
	}
	start := placeStart(t, ds, false)
	e := end
	for n := 0; n < 4; n++ {
		k := e
		for k < len(t) {
			r, size := utf8.DecodeRuneInString(t[k:])
			if !cjkDigit(r) && !isUpper(t[k]) {
				break
			}
			k += size
		}
		if k == e {
			break
		}
		if m := cjkUnit(t[k:]); m > 0 {
			e = k + m
			continue
		}
		break
	}
	return s.add(start, e, KindAddress, "street-address")
}

// cjkUnit returns the length of a building or room unit s starts with.
func cjkUnit(s string) int {
	for _, u := range [...]string{"号楼", "號樓", "栋", "棟", "幢", "单元", "單元", "楼", "樓", "层", "層", "室", "号", "號"} {
		if strings.HasPrefix(s, u) {
			return len(u)
		}
	}
	return 0
}

// japaneseAddress matches "東京都千代田区丸の内1丁目9-2": a block number
// before the 丁目 at [at, end), place names with a prefecture or city
// marker before it, and the lot and building numbers after.
func japaneseAddress(s *scanner, at, end int) bool {
	t := s.t
	ds := digitsBefore(t, at)
	if ds == at {
		return false
	}
	start := placeStart(t, ds, true)
	if !strings.ContainsAny(t[start:ds], "都道府県区市町村郡") {
		return false
	}
	e := end
	for e < len(t) {
		r, size := utf8.DecodeRuneInString(t[e:])
		if !cjkDigit(r) && !strings.ContainsRune("-－番地号の", r) {
			break
		}
		e += size
	}
	for e > end && (t[e-1] == '-' || strings.HasSuffix(t[:e], "の")) {
		if t[e-1] == '-' {
			e--
		} else {
			e -= len("の")
		}
	}
	return s.add(start, e, KindAddress, "street-address")
}

// koreanAddress matches "서울특별시 강남구 테헤란로 123": a road word
// ending in 로 or 길 (the trigger at [at, end) ends in a blank), its
// number, and the city and district words before it, one of which ends in
// 구, 시 or 군.
func koreanAddress(s *scanner, at, end int) bool {
	t := s.t
	if at == 0 {
		return false
	}
	if r, _ := utf8.DecodeLastRuneInString(t[:at]); !unicode.Is(unicode.Hangul, r) && !isDigit(t[at-1]) {
		return false
	}
	ne := span(t[:min(len(t), end+6)], end, func(c byte) bool { return isDigit(c) || c == '-' })
	if ne == end || ne < len(t) && isAlnum(t[ne]) {
		return false
	}
	// Back over up to three words; one must be a district or a city.
	j, start, district := at, -1, false
	for w := 0; w < 4 && j > 0; w++ {
		ws := j
		for ws > 0 {
			r, size := utf8.DecodeLastRuneInString(t[:ws])
			if !unicode.Is(unicode.Hangul, r) && !isDigit(t[ws-1]) {
				break
			}
			ws -= size
		}
		if ws == j {
			break
		}
		word := t[ws:j]
		if w > 0 && (strings.HasSuffix(word, "구") || strings.HasSuffix(word, "시") || strings.HasSuffix(word, "군") || strings.HasSuffix(word, "도")) {
			district, start = true, ws
		}
		if ws == 0 || t[ws-1] != ' ' {
			break
		}
		j = ws - 1
	}
	if !district {
		return false
	}
	return s.add(start, ne, KindAddress, "street-address")
}
