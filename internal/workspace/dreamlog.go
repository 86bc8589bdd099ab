package workspace

import (
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/mdline"
)

// parseDreamLog reads memory/dream-log.md. Entries are the headings that
// carry a date, at the shallowest level any dated heading uses; each runs
// to the next heading of that level or higher.
func parseDreamLog(f *File) *DreamLog {
	d := &DreamLog{File: f}
	lines := mdline.Split(f.Content)
	start := mdline.FrontMatterEnd(lines)

	type heading struct {
		line, level int
		text        string
		dated       bool
	}
	var hs []heading
	entryLevel := 7
	var code mdline.Fence
	for i := start; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if code.Code(t) {
			continue
		}
		level, text := mdline.Heading(t)
		if level == 0 {
			continue
		}
		_, _, dated := headingDateTime(text)
		hs = append(hs, heading{i, level, headingText(text), dated})
		if dated && level < entryLevel {
			entryLevel = level
		}
	}
	for k, h := range hs {
		if !h.dated || h.level != entryLevel {
			continue
		}
		end := len(lines)
		for _, h2 := range hs[k+1:] {
			if h2.level <= entryLevel {
				end = h2.line
				break
			}
		}
		last := end
		for last > h.line+1 && strings.TrimSpace(lines[last-1]) == "" {
			last--
		}
		e := &DreamLogEntry{Heading: h.text, Line: h.line + 1, EndLine: last}
		e.Date, e.HasTime, _ = headingDateTime(h.text)
		body := lines[h.line+1 : last]
		e.Body = strings.Join(body, "\n")
		for _, l := range body {
			key, value, ok := logField(l)
			if !ok {
				continue
			}
			if e.Fields == nil {
				e.Fields = map[string]string{}
			}
			if _, dup := e.Fields[key]; !dup {
				e.Fields[key] = value
			}
			if throughLabel(key) && e.ConsolidatedThrough.IsZero() {
				if t, i, _ := firstDate(value); i >= 0 {
					e.ConsolidatedThrough = t
				}
			}
		}
		e.Links = entryLinks(body, h.line+2)
		d.Entries = append(d.Entries, e)
	}
	return d
}

// logField reads "Key: value", "- Key: value", "- **Key**: value" and
// "**Key:** value"; the key is lower-cased.
func logField(l string) (key, value string, ok bool) {
	t := strings.TrimSpace(l)
	if li, isList := mdline.ListItem(t); isList {
		t = li.Text
	}
	if name, v, ok := boldField(t); ok {
		return strings.ToLower(name), v, true
	}
	k, isKV := keyValue(t)
	if !isKV {
		return "", "", false
	}
	_, v, _ := splitKV(t)
	v = strings.TrimPrefix(strings.TrimPrefix(v, "**"), "__")
	return strings.ToLower(strings.Trim(k, "*_ ")), strings.TrimSpace(v), true
}

// entryLinks lists the workspace paths and wikilink targets mentioned in
// body (whose first line is line first), in order, without duplicates.
func entryLinks(body []string, first int) []string {
	var out []string
	seen := map[string]bool{}
	for i, l := range body {
		for _, p := range navPointers(l, first+i) {
			if p.Path != "" && !seen[p.Path] {
				seen[p.Path] = true
				out = append(out, p.Path)
			}
		}
	}
	return out
}

// DreamLogLabels are the words of a dream-log entry in one language: a
// dream writes its entry in the language of the log's entries (#23 rule
// 3), and the reader finds the watermark under the label of any of them.
type DreamLogLabels struct {
	Dream, Through, Logs, Promoted, Merged, Superseded, Archived, Duration, Inputs string
	// IntoIndex is the promoted value ("%d (%d into MEMORY.md)"), NothingNew
	// the logs value of a dream that read none ("0 (nothing new since %s)"),
	// Size MEMORY.md's sizes ("%s → %s chars (%d → %d lines), target %s").
	IntoIndex, NothingNew, Size string
	// PromotedTo, Deferred, Skipped and Secret are notes: "%d to %s",
	// "deferred %d logs (%s … %s) to the next dream", "skipped %d",
	// "%s:%d holds a secret (%s); …".
	PromotedTo, Deferred, Skipped, Secret string
}

// DreamLogLanguages are the languages a dream writes its log in, by the
// code its script tells (see the dream's language).
var DreamLogLanguages = map[string]DreamLogLabels{
	"en": {Dream: "dream", Through: "Consolidated through", Logs: "Logs", Promoted: "Promoted", Merged: "Merged", Superseded: "Superseded",
		Archived: "Archived", Duration: "Duration", Inputs: "Inputs",
		IntoIndex: "%d (%d into MEMORY.md)", NothingNew: "0 (nothing new since %s)", Size: "%s → %s chars (%d → %d lines), target %s",
		PromotedTo: "%d to %s", Deferred: "Deferred %d logs (%s … %s) to the next dream.", Skipped: "Skipped %d:",
		Secret: "Secret guard: %s:%d holds a secret (%s); redacted, never written to curated memory."},
	"zh": {Dream: "梦境整理", Through: "整理截至", Logs: "日志", Promoted: "提升", Merged: "合并", Superseded: "取代",
		Archived: "归档", Duration: "耗时", Inputs: "输入",
		IntoIndex: "%d（其中 %d 条写入 MEMORY.md）", NothingNew: "0（自 %s 以来没有新日志）", Size: "%s → %s 字符（%d → %d 行），目标 %s",
		PromotedTo: "%d 条写入 %s", Deferred: "%d 个日志（%s … %s）留给下次整理。", Skipped: "跳过 %d 条：",
		Secret: "密钥保护：%s:%d 含有密钥（%s），已遮盖，不写入长期记忆。"},
	"ja": {Dream: "ドリーム", Through: "整理済み", Logs: "ログ", Promoted: "昇格", Merged: "統合", Superseded: "置き換え",
		Archived: "アーカイブ", Duration: "所要時間", Inputs: "入力",
		IntoIndex: "%d（うち MEMORY.md に %d）", NothingNew: "0（%s 以降の新しいログなし）", Size: "%s → %s 文字（%d → %d 行）、目標 %s",
		PromotedTo: "%[2]s に %[1]d 件", Deferred: "%d 件のログ（%s … %s）は次回のドリームへ。", Skipped: "スキップ %d 件：",
		Secret: "シークレット保護：%s:%d にシークレット（%s）があり、伏せ字にして長期記憶には書いていません。"},
	"ko": {Dream: "드림", Through: "정리 기준일", Logs: "로그", Promoted: "승격", Merged: "병합", Superseded: "대체",
		Archived: "보관", Duration: "소요 시간", Inputs: "입력",
		IntoIndex: "%d (MEMORY.md에 %d)", NothingNew: "0 (%s 이후 새 로그 없음)", Size: "%s → %s자 (%d → %d줄), 목표 %s",
		PromotedTo: "%[2]s에 %[1]d건", Deferred: "로그 %d개(%s … %s)는 다음 드림으로 미룸.", Skipped: "건너뜀 %d건:",
		Secret: "비밀 보호: %s:%d에 비밀(%s)이 있어 가렸고, 장기 기억에 쓰지 않음."},
}

// throughLabel reports the label of the watermark field in any language
// a dream writes its log in (key lower-cased).
func throughLabel(key string) bool {
	for _, l := range DreamLogLanguages {
		if key == strings.ToLower(l.Through) {
			return true
		}
	}
	return false
}
