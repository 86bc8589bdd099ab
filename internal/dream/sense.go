package dream

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// Gate is one trigger condition of a dream (DESIGN 5.3): time since the
// last dream, new days of daily logs, and the lock.
type Gate struct {
	Name   string `json:"name"` // "time", "session", "lock"
	Passed bool   `json:"passed"`
	// Forced is set when --force skipped a gate that did not pass.
	Forced bool   `json:"forced,omitempty"`
	Detail string `json:"detail"`
}

// Input is one daily log a dream reads.
type Input struct {
	Path  string `json:"path"`
	Date  string `json:"date"`
	Bytes int64  `json:"bytes"`
	// Hash is the first 12 hex digits of the file's SHA-256, recorded in the
	// dream log so the next dream knows whether the log changed since.
	Hash string `json:"hash"`
	// Why it was selected ("new", "changed since the last dream") or, for a
	// deferred log, why it waits ("batch limit: 32 days of logs / 192 KiB").
	Reason string `json:"reason"`
}

// selection is the outcome of the sense phase's log selection.
type selection struct {
	watermark time.Time
	lastDream time.Time // newest dream-log heading, else heartbeat
	inputs    []*workspace.DailyLog
	deferred  []*workspace.DailyLog
	reasons   map[*workspace.DailyLog]string
	newDays   int
	oversized string // a date taken whole although over the byte cap
	through   time.Time
}

// reInputHash reads the inputs a dream-log entry recorded:
// "- memory/2026-11-18.md (1.2 KiB, sha256 1a2b3c4d5e6f)".
var reInputHash = regexp.MustCompile(`(memory/[^\s()]+\.md)\S*\s*\([^)]*?sha256[: ]([0-9a-f]{8,64})`)

// recordedInputs maps each daily log named in the dream log to the hash it
// had when a dream read it (the newest entry wins).
func recordedInputs(dl *workspace.DreamLog) map[string]string {
	out := map[string]string{}
	if dl == nil {
		return out
	}
	for _, e := range dl.Entries {
		for _, m := range reInputHash.FindAllStringSubmatch(e.Body, -1) {
			out[m[1]] = m[2]
		}
	}
	return out
}

// lastDreamTime is when the last dream ran: the newest dream-log heading
// with a time, or the heartbeat's lastDreamAt, whichever is later.
func lastDreamTime(ws *workspace.Workspace) time.Time {
	var t time.Time
	if ws.DreamLog != nil {
		for _, e := range ws.DreamLog.Entries {
			if e.Date.After(t) {
				t = e.Date
			}
		}
	}
	if ws.Heartbeat != nil && ws.Heartbeat.LastDreamAt.After(t) {
		t = ws.Heartbeat.LastDreamAt
	}
	return t
}

// selectLogs picks the daily logs a dream reads: dated on or after the
// watermark and changed since the last dream (a log dated after the
// watermark is new; one dated on it counts when its hash differs from the
// one recorded, or, for logs no dream recorded, when it was modified after
// the last dream), oldest first, cut on date boundaries at maxDays days
// of logs (dream.max_logs: a batch is counted in days, not files, so the
// session files of one busy day count once; #23 rule 4) or maxBytes bytes.
// A single date over the byte cap is taken whole.
func selectLogs(ws *workspace.Workspace, maxDays, maxBytes int) *selection {
	sel := &selection{reasons: map[*workspace.DailyLog]string{}, lastDream: lastDreamTime(ws)}
	if ws.DreamLog != nil {
		sel.watermark = ws.DreamLog.Watermark()
	}
	seen := recordedInputs(ws.DreamLog)
	var picked []*workspace.DailyLog
	days := map[time.Time]bool{}
	for _, d := range dailyLogs(ws) {
		if !sel.watermark.IsZero() && d.Date.Before(sel.watermark) {
			continue
		}
		switch h, ok := seen[d.File.Path]; {
		case ok && strings.HasPrefix(d.File.Hash, h):
			continue // read by an earlier dream, unchanged since
		case ok:
			sel.reasons[d] = "changed since the last dream read it"
		case sel.watermark.IsZero() || d.Date.After(sel.watermark):
			sel.reasons[d] = "new"
		case d.File.ModTime.After(sel.lastDream) && !sel.lastDream.IsZero():
			sel.reasons[d] = "modified after the last dream"
		default:
			continue
		}
		picked = append(picked, d)
		if sel.watermark.IsZero() || d.Date.After(sel.watermark) {
			days[d.Date] = true
		}
	}
	sel.newDays = len(days)
	if maxDays <= 0 {
		maxDays = 1 << 30
	}
	if maxBytes <= 0 {
		maxBytes = 1 << 62
	}
	// Cut on date boundaries.
	n, size := 0, int64(0)
	for i := 0; i < len(picked); {
		j := i
		var dsize int64
		for j < len(picked) && picked[j].Date.Equal(picked[i].Date) {
			dsize += picked[j].File.Size
			j++
		}
		if n > 0 && (n+1 > maxDays || size+dsize > int64(maxBytes)) {
			sel.deferred = picked[i:]
			break
		}
		if n == 0 && dsize > int64(maxBytes) {
			sel.oversized = fmt.Sprintf("%s alone is %d logs, %s: over the batch limit, taken whole",
				picked[i].Date.Format(time.DateOnly), j-i, kib(dsize))
		}
		sel.inputs = append(sel.inputs, picked[i:j]...)
		sel.through = picked[i].Date
		n++
		size += dsize
		i = j
	}
	if len(sel.inputs) == 0 {
		sel.through = sel.watermark
	}
	return sel
}

// gates evaluates the time and session gates.
func gates(sel *selection, now time.Time, cfg workspace.DreamConfig) []Gate {
	var out []Gate
	tg := Gate{Name: "time"}
	if sel.lastDream.IsZero() {
		tg.Passed, tg.Detail = true, "no dream has run yet"
	} else {
		days := now.Sub(sel.lastDream).Hours() / 24
		tg.Passed = days >= float64(cfg.MinDaysBetween)
		days = math.Floor(days*100) / 100 // never show 3.00 for a gate that 2.997 failed
		tg.Detail = fmt.Sprintf("%.2f days since the last dream (%s), need %d", days,
			sel.lastDream.UTC().Format("2006-01-02 15:04"), cfg.MinDaysBetween)
	}
	out = append(out, tg)
	sg := Gate{Name: "session", Passed: sel.newDays >= cfg.MinNewDays}
	sg.Detail = fmt.Sprintf("%d new %s of daily logs since %s, need %d", sel.newDays, plural(sel.newDays, "day", "days"), dateOr(sel.watermark, "the start"), cfg.MinNewDays)
	out = append(out, sg)
	return out
}

func dateOr(t time.Time, s string) string {
	if t.IsZero() {
		return s
	}
	return t.Format(time.DateOnly)
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// kib formats a byte count the way the dream log does: "1.9 KiB".
func kib(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/1024/1024)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
