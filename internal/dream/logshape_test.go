package dream

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/diag"
)

// A dream writes in the workspace's shape and language (#23 rule 3): its
// dream-log entry like the log's entries, its events with the keys the
// file's records use, and nothing where it cannot tell the shape.

func TestDream_AKoreanDreamLogGetsAKoreanEntry(t *testing.T) {
	dir := workspaceFrom(t, `
-- memory/dream-log.md --
# 드림 기록

### 2026-03-31 07:00 — 드림

- **정리 기준일**: 2026-03-31
- **로그**: 2개, 온실 관련 메모를 정리함
- **승격**: 1건
-- memory/2026-04-02.md --
# 2026-04-02

- 결정: 온실 히터 온도는 밤에 12도로 맞춘다.
`)
	dream(t, dir, "2026-04-05T07:00:00Z")
	entry := newestEntry(t, read(t, dir, dreamLogPath), "### 2026-04-05 07:00")
	for _, want := range []string{"### 2026-04-05 07:00 — 드림", "- **정리 기준일**: 2026-04-02", "- **로그**: 1 (2026-04-02 … 2026-04-02)", "- **승격**:", "- **입력**:"} {
		if !strings.Contains(entry, want) {
			t.Errorf("entry lacks %q:\n%s", want, entry)
		}
	}
	assertNoEnglishLabels(t, entry)
	// The reader reads the watermark back under the Korean label.
	if wm := load(t, dir).DreamLog.Watermark(); wm.Format("2006-01-02") != "2026-04-02" {
		t.Errorf("watermark %s, want 2026-04-02", wm)
	}
}

func TestDream_AChineseDreamLogGetsAChineseEntry(t *testing.T) {
	dir := workspaceFrom(t, `
-- memory/dream-log.md --
# 梦境日志

## 2026-03-31 07:00 — 梦境整理

- **整理截至**: 2026-03-31
- **日志**: 两份，关于温室的记录
-- memory/2026-04-02.md --
# 2026-04-02

- 决定：温室加热器夜间温度设为十二度。
`)
	dream(t, dir, "2026-04-05T07:00:00Z")
	entry := newestEntry(t, read(t, dir, dreamLogPath), "## 2026-04-05 07:00")
	for _, want := range []string{"## 2026-04-05 07:00 — 梦境整理", "- **整理截至**: 2026-04-02", "- **日志**: 1", "- **输入**:"} {
		if !strings.Contains(entry, want) {
			t.Errorf("entry lacks %q:\n%s", want, entry)
		}
	}
	assertNoEnglishLabels(t, entry)
	if wm := load(t, dir).DreamLog.Watermark(); wm.Format("2006-01-02") != "2026-04-02" {
		t.Errorf("watermark %s, want 2026-04-02", wm)
	}
}

// TestDream_ADreamLogInAnotherScriptGetsNoEntry: a log whose entries are in
// a script a dream writes no labels for is left alone, and the plan says so.
func TestDream_ADreamLogInAnotherScriptGetsNoEntry(t *testing.T) {
	log := "# Журнал снов\n\n## 2026-03-31 07:00 — сон\n\n- **Обработано до**: 2026-03-31\n"
	dir := workspaceFrom(t, "-- memory/dream-log.md --\n"+log+`-- memory/2026-04-02.md --
# 2026-04-02

- Decision: the greenhouse heater is set to 12 degrees at night.
`)
	res := dream(t, dir, "2026-04-05T07:00:00Z")
	if got := read(t, dir, dreamLogPath); got != log {
		t.Errorf("the dream log was written:\n%s", got)
	}
	if !strings.Contains(diagText(res.Plan.Diagnostics), "memory/dream-log.md") {
		t.Errorf("no diagnostic says why:\n%s", diagText(res.Plan.Diagnostics))
	}
}

// newestEntry is the dream-log text from the heading that starts with
// heading to the end.
func newestEntry(t *testing.T, log, heading string) string {
	t.Helper()
	i := strings.Index(log, heading)
	if i < 0 {
		t.Fatalf("no entry %q:\n%s", heading, log)
	}
	return log[i:]
}

func assertNoEnglishLabels(t *testing.T, entry string) {
	t.Helper()
	for _, en := range []string{"Consolidated through", "Logs", "Promoted", "Merged", "Duration", "Inputs", "Skipped", "— dream"} {
		if strings.Contains(entry, en) {
			t.Errorf("entry has the English %q:\n%s", en, entry)
		}
	}
}

// TestDream_AnEventsFileKeepsItsKeys: an events.jsonl whose promotion
// records carry applied/candidates/memoryPath gets no promotion record of
// another shape (before #23: path/startLine/target); the plan says why.
// A type it holds records of in a shape the dream can fill still gets one.
func TestDream_AnEventsFileKeepsItsKeys(t *testing.T) {
	dir := workspaceFrom(t, `
-- memory/.dreams/events.jsonl --
{"type":"memory.recall.recorded","timestamp":"2026-03-30T10:00:00.000Z","query":"greenhouse heater","resultCount":0,"results":[]}
{"type":"memory.promotion.applied","timestamp":"2026-03-31T07:00:00.000Z","memoryPath":"MEMORY.md","applied":1,"candidates":[{"key":"k1","path":"memory/2026-03-20.md","startLine":3,"endLine":3}]}
{"type":"memory.dream.completed","timestamp":"2026-03-31T07:00:01.000Z","promoted":1,"merged":0}
-- memory/2026-04-02.md --
# 2026-04-02

- Decision: the greenhouse heater thermostat is set to 12 degrees at night.
`)
	res := dream(t, dir, "2026-04-05T07:00:00Z")
	if res.Plan.Counts.Indexed == 0 {
		t.Fatalf("nothing promoted into MEMORY.md: %+v", res.Plan.Counts)
	}
	lines := strings.Split(strings.TrimSpace(read(t, dir, eventsPath)), "\n")
	completed := 0
	for _, l := range lines[3:] {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		switch rec["type"] {
		case "memory.promotion.applied":
			for _, k := range []string{"memoryPath", "applied", "candidates"} {
				if _, ok := rec[k]; !ok {
					t.Errorf("a promotion record without %q: %s", k, l)
				}
			}
		case "memory.dream.completed":
			completed++
			if _, ok := rec["merged"]; !ok {
				t.Errorf("a dream record without \"merged\": %s", l)
			}
		}
	}
	if completed != 1 {
		t.Errorf("%d dream records added, want 1:\n%s", completed, strings.Join(lines, "\n"))
	}
	if !slices.ContainsFunc(res.Plan.Diagnostics, func(d diag.Diagnostic) bool {
		return d.File == eventsPath && strings.Contains(d.Message, "memory.promotion.applied")
	}) {
		t.Errorf("no diagnostic about the promotion record:\n%s", diagText(res.Plan.Diagnostics))
	}
}
