package memory

import (
	"regexp"
	"strings"
)

// Status is the lifecycle state an entry's own markers give it.
type Status string

// The lifecycle states. Most entries are plain facts with no marker.
const (
	// StatusNone is an entry without lifecycle markers: a fact, not a task.
	StatusNone Status = ""
	// StatusOpen is active work: "[ ]", "TODO", "status: open", "in
	// progress", "WIP", "pending", "blocked", 待办, 进行中, 対応中.
	StatusOpen Status = "open"
	// StatusClosed is finished or dropped work: "[x]", a struck-through
	// entry ("~~…~~"), "(done)", "✅", "status: closed", "DONE:",
	// resolved, cancelled, archived, snoozed, 已完成, 完了.
	StatusClosed Status = "closed"
)

// Lifecycle reads the lifecycle markers of an entry. Closed markers win
// over open ones, so "- [x] TODO: rotate keys" is closed. Negations are not
// markers: "not done" and 未完了 ("not finished") are not closed.
func Lifecycle(text string) Status {
	body := reListMarker.ReplaceAllString(strings.TrimSpace(text), "")
	switch {
	case reCheckedBox.MatchString(body):
		return StatusClosed
	case strings.HasPrefix(body, "~~") && strings.Contains(body[2:], "~~"):
		return StatusClosed // the whole entry is struck through
	}
	lower := strings.ToLower(body)
	if reClosed.match(lower, "") || strings.ContainsAny(body, "✅☑✔") || closedCJK(body) {
		return StatusClosed
	}
	if strings.HasPrefix(body, "[ ]") || reOpen.match(body, "") || reOpenLower.match(lower, "") {
		return StatusOpen
	}
	return StatusNone
}

// Sticky combines an entry's earlier status with a newly read one. Closed
// is sticky: once an item is closed, no later reading reopens it, so a dream
// never resurrects finished work as an active TODO. Otherwise the new
// status wins, and StatusNone (no marker in the new text) keeps the old.
func Sticky(prev, next Status) Status {
	switch {
	case prev == StatusClosed || next == StatusClosed:
		return StatusClosed
	case next == StatusNone:
		return prev
	}
	return next
}

const closedWords = `done|closed|resolved|fixed|cancel(?:l)?ed|archived|completed?|finished|shipped|merged|won'?t[ -]?fix|wontfix|obsolete|abandoned|dropped|snoozed`

var (
	reListMarker = regexp.MustCompile(`^(?:[-*+]|\d+[.)])\s+`)
	reCheckedBox = regexp.MustCompile(`^\[[xX✓✔]\]`)
	// reClosed and reOpenLower read the lower-cased entry. Each guard's
	// literals are read off its pattern (see guarded).
	reClosed = guard(`\((?:`+closedWords+`)\)`+ // (done)
		`|\[(?:`+closedWords+`)\]`+ // [done]
		`|\bstatus\s*[:=：→]\s*(?:\*\*|`+"`"+`)?(?:`+closedWords+`)\b`+ // status: closed
		`|^(?:\*\*)?(?:`+closedWords+`)(?:\*\*)?\s*[:：]`+ // DONE:
		`|#(?:`+closedWords+`)\b`+ // #done
		`|(?:^|\s)[—–-]\s*(?:`+closedWords+`)[.!]?\s*$`, // … — done
		[][]string{
			{"done", "closed", "resolved", "fix", "cancel", "archived", "complete", "finished", "shipped",
				"merged", "obsolete", "abandoned", "dropped", "snoozed"},
			{"(", "[", "status", ":", "：", "#", "—", "–", "-"},
		})
	// reOpen is case-sensitive: "TODO" shouts, "todo" is often prose.
	reOpen = guard(`\b(?:TODO|FIXME|WIP)\b|待办|进行中|未完成|未完了|進行中|対応中|未対応`,
		[][]string{{"TODO", "FIXME", "WIP", "待办", "行中", "未完", "対応"}})
	reOpenLower = guard(`\bstatus\s*[:=：→]\s*(?:\*\*|`+"`"+`)?(?:open|active|in[ -]progress|todo|pending|blocked|wip|ongoing|planned|new)\b`+
		`|\((?:open|in progress|wip|pending|ongoing|todo|blocked)\)|\[(?:open|todo|wip)\]|#(?:todo|open|wip)\b|^todo\s*[:：]`,
		[][]string{{"status", "todo", "(open)", "(in progress)", "(wip)", "(pending)", "(ongoing)",
			"(blocked)", "[open]", "[wip]", "#open", "#wip"}})
	// Completion words where 未 ("not yet") in front negates them.
	reCJKDone = guard(`已完成|已关闭|已解决|已取消|已归档|已结束|完了|解決済|対応済|終了|キャンセル済|クローズ済`,
		[][]string{{"已", "了", "済"}})
)

// closedCJK finds Chinese and Japanese completion markers that are not
// negated by 未 ("not yet"): 完了 is finished, 未完了 is not.
func closedCJK(s string) bool {
	if !reCJKDone.may(s, "") {
		return false
	}
	for _, m := range reCJKDone.re.FindAllStringIndex(s, -1) {
		if !strings.HasSuffix(s[:m[0]], "未") {
			return true
		}
	}
	return false
}
