package workspace

import (
	"reflect"
	"testing"
	"time"
)

func TestDaily_FileNameFormsAndOrder(t *testing.T) {
	ws := loadTxtar(t, `
-- memory/2026-04-07.md --
- plain
-- memory/2026-04-07-0810.md --
- hhmm
-- memory/2026-04-06-gateway-move.md --
- slug
-- memory/daily/2026-04-05.md --
- under daily/
-- memory/daily/readme.md --
not a log
-- memory/2026-13-45.md --
- impossible date: a topic file
-- memory/research/2026-04-01-notes.md --
- research folder: a note
`)
	type got struct{ path, date, suffix string }
	var logs []got
	for _, d := range ws.Daily {
		logs = append(logs, got{d.File.Path, d.Date.Format("2006-01-02"), d.Suffix})
		if d.File.Kind != KindDaily {
			t.Errorf("%s has kind %s", d.File.Path, d.File.Kind)
		}
	}
	want := []got{
		{"memory/daily/2026-04-05.md", "2026-04-05", ""},
		{"memory/2026-04-06-gateway-move.md", "2026-04-06", "gateway-move"},
		{"memory/2026-04-07-0810.md", "2026-04-07", "0810"},
		{"memory/2026-04-07.md", "2026-04-07", ""},
	}
	if !reflect.DeepEqual(logs, want) {
		t.Errorf("Daily = %v\nwant %v", logs, want)
	}
	if got := paths(ws.Notes); !equalStrings(got, []string{"memory/daily/readme.md", "memory/research/2026-04-01-notes.md"}) {
		t.Errorf("Notes = %v", got)
	}
	if len(ws.Topics) != 1 || ws.Topics[0].File.Path != "memory/2026-13-45.md" {
		t.Errorf("Topics = %v", ws.Topics)
	}
}

func TestDaily_SessionHeaderIsMetadataNotItems(t *testing.T) {
	ws := loadTxtar(t, `
-- memory/2026-04-07-0810.md --
# Session: 2026-04-07 08:10:37 UTC

- **Session Key**: agent:main:telegram:direct:48213377
- **Session ID**: 5b0f3c7e
- **Source**: telegram

## Conversation Summary

user: can you move the gateway to the mac mini
assistant: Yes, after the cutover on 2026-04-15.
`)
	d := ws.Daily[0]
	want := &SessionHeader{
		Started: time.Date(2026, 4, 7, 8, 10, 37, 0, time.UTC),
		Key:     "agent:main:telegram:direct:48213377",
		Fields:  map[string]string{"Session ID": "5b0f3c7e", "Source": "telegram"},
		EndLine: 5,
	}
	if d.Session == nil || !d.Session.Started.Equal(want.Started) || d.Session.Key != want.Key ||
		!reflect.DeepEqual(d.Session.Fields, want.Fields) || d.Session.EndLine != want.EndLine {
		t.Errorf("Session = %+v\nwant %+v", d.Session, want)
	}
	var texts []string
	for _, it := range d.Items {
		texts = append(texts, it.Text)
		if it.Section != "Conversation Summary" {
			t.Errorf("item %q in section %q", it.Text, it.Section)
		}
	}
	wantTexts := []string{"user: can you move the gateway to the mac mini", "assistant: Yes, after the cutover on 2026-04-15."}
	if !equalStrings(texts, wantTexts) {
		t.Errorf("Items = %q", texts)
	}
}

func TestDaily_SleepBlocksAreKeptApartFromItems(t *testing.T) {
	ws := loadTxtar(t, `
-- memory/2026-09-17.md --
# 2026-09-17

## Work
- Kickoff for the Kubernetes migration.

## Light Sleep
- candidate: Sam is tech lead
### details
- nested under light sleep

## REM Sleep
- theme: migrations

## Evening
- Went running.
`)
	d := ws.Daily[0]
	want := []Block{
		{Name: "light", StartLine: 6, EndLine: 9, Content: "- candidate: Sam is tech lead\n### details\n- nested under light sleep"},
		{Name: "rem", StartLine: 11, EndLine: 12, Content: "- theme: migrations"},
	}
	if !reflect.DeepEqual(d.Sleep, want) {
		t.Errorf("Sleep = %+v\nwant %+v", d.Sleep, want)
	}
	var texts, sections []string
	for _, it := range d.Items {
		texts = append(texts, it.Text)
		sections = append(sections, it.Section)
	}
	if !equalStrings(texts, []string{"Kickoff for the Kubernetes migration.", "Went running."}) ||
		!equalStrings(sections, []string{"Work", "Evening"}) {
		t.Errorf("Items %q in sections %q", texts, sections)
	}
}

func TestDaily_ItemsAreListItemsAndShortParagraphs(t *testing.T) {
	long := ""
	for i := 0; i < 60; i++ {
		long += "narrative "
	}
	ws := loadTxtar(t, `
-- memory/2026-04-01.md --
A short paragraph about the day. #health

`+long+`

- first item
  continued on the next line
  - a nested item stays with its parent
1. numbered item
`+"```"+`
- code is not an item
`+"```"+`
`)
	var got []LogItem
	for _, it := range ws.Daily[0].Items {
		it.Raw = ""
		got = append(got, it)
	}
	want := []LogItem{
		{Line: 1, EndLine: 1, Text: "A short paragraph about the day. #health", Tags: []string{"health"}},
		{Line: 5, EndLine: 7, Text: "first item continued on the next line; a nested item stays with its parent"},
		{Line: 8, EndLine: 8, Text: "numbered item"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Items = %+v\nwant %+v", got, want)
	}
}

func TestDailyLogPath(t *testing.T) {
	for _, tc := range []struct {
		path, date, suffix string // date "" for no daily log
	}{
		{"memory/2026-04-07.md", "2026-04-07", ""},
		{"memory/2026-04-07-0810.md", "2026-04-07", "0810"},
		{"memory/2026-04-07-gateway-move.md", "2026-04-07", "gateway-move"},
		{"memory/daily/2026-04-07.markdown", "2026-04-07", ""},
		{"memory/daily/2026/2026-04-07.md", "2026-04-07", ""},
		{"memory/2026-04-07.json", "", ""},
		{"memory/notes/2026-04-07.md", "", ""},
		{"memory/2026-04-37.md", "", ""},
		{"2026-04-07.md", "", ""},
		{"memory/gateway.md", "", ""},
	} {
		d, suffix, ok := DailyLogPath(tc.path)
		got := ""
		if ok {
			got = d.Format("2006-01-02")
		}
		if got != tc.date || suffix != tc.suffix {
			t.Errorf("DailyLogPath(%q) = %q %q, want %q %q", tc.path, got, suffix, tc.date, tc.suffix)
		}
	}
}

// TestDaily_ADatedTopicFileIsJudgedByItsContent: a file named for a day
// with words after the date is a daily log when it reads as one (a session
// header, a dated or timed heading, no headings at all) and a topic file
// when it has a topic's shape (a title and sections, no dated heading):
// #23 rule 4. One rule (IsDailyLog) decides, and the reader's kinds follow.
func TestDaily_ADatedTopicFileIsJudgedByItsContent(t *testing.T) {
	ws := loadTxtar(t, `
-- memory/2026-04-06-greenhouse-plan.md --
# Greenhouse plan

## Heating
- The heater runs on a thermostat plug.

## Watering
- Drip lines on a timer at 06:00.
-- memory/2026-04-06-vendor-call.md --
# Session: 2026-04-06 14:30:00 UTC

- **Session Key**: agent:main:direct:1

## Summary
- Talked through the pump quote.
-- memory/2026-04-07-standup.md --
# Standup

## 09:30
- Rack cabling done.
-- memory/2026-04-07-scratch.md --
- nothing but a bullet
-- memory/2026-04-08-0810.md --
# Pump notes

## Parts
- A time after the date: a log whatever it holds.
`)
	kinds := map[string]Kind{}
	for _, f := range ws.Files {
		kinds[f.Path] = f.Kind
	}
	want := map[string]Kind{
		"memory/2026-04-06-greenhouse-plan.md": KindTopic,
		"memory/2026-04-06-vendor-call.md":     KindDaily,
		"memory/2026-04-07-standup.md":         KindDaily,
		"memory/2026-04-07-scratch.md":         KindDaily,
		"memory/2026-04-08-0810.md":            KindDaily,
	}
	for p, k := range want {
		if kinds[p] != k {
			t.Errorf("%s is %s, want %s", p, kinds[p], k)
		}
		f := ws.FileByPath(p)
		if _, _, daily := IsDailyLog(p, f.Content); daily != (k == KindDaily) {
			t.Errorf("IsDailyLog(%s) = %v, the reader says %s", p, daily, kinds[p])
		}
	}
	if len(ws.Daily) != 4 || len(ws.Topics) != 1 || ws.Topics[0].Title != "Greenhouse plan" {
		t.Errorf("%d logs, topics %+v", len(ws.Daily), ws.Topics)
	}
}
