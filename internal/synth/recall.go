package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"time"
)

// recallEntry is an entry of OpenClaw's memory/.dreams/short-term-recall.json,
// its fields in the order OpenClaw writes them.
type recallEntry struct {
	Key             string   `json:"key"`
	Path            string   `json:"path"`
	StartLine       int      `json:"startLine"`
	EndLine         int      `json:"endLine"`
	Source          string   `json:"source"`
	Snippet         string   `json:"snippet"`
	RecallCount     int      `json:"recallCount"`
	DailyCount      int      `json:"dailyCount"`
	GroundedCount   int      `json:"groundedCount"`
	TotalScore      float64  `json:"totalScore"`
	MaxScore        float64  `json:"maxScore"`
	FirstRecalledAt string   `json:"firstRecalledAt"`
	LastRecalledAt  string   `json:"lastRecalledAt"`
	QueryHashes     []string `json:"queryHashes"`
	RecallDays      []string `json:"recallDays"`
	ConceptTags     []string `json:"conceptTags"`
	PromotedAt      string   `json:"promotedAt,omitempty"`
}

// RecallStore returns a recall store in OpenClaw's shape and layout (two-space
// indentation, entries keyed "memory:PATH:START:END" in the order they were
// first recalled) of at least size bytes, whose entries point at lines of
// the daily logs Write names for days days from start. Snippets read as
// OpenClaw's do: a hunk header, Markdown, an em dash, now and then a quote
// or a line break to escape. The same seed gives the same bytes.
func RecallStore(size int, seed int64, start time.Time, days int) []byte {
	if start.IsZero() {
		start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	days = max(days, 1)
	r := rand.New(rand.NewSource(seed))
	var b bytes.Buffer
	at := start.Add(9 * time.Hour)
	fmt.Fprintf(&b, "{\n  \"version\": 1,\n  \"updatedAt\": %q,\n  \"entries\": {", stamp(at.AddDate(0, 0, days+33)))
	seen := map[string]bool{}
	for n := 0; b.Len() < size; {
		day := r.Intn(days)
		path := "memory/" + dailyLogName(start, day) + ".md"
		// Ranges reach further down the logs as the store fills, so that
		// free keys remain for a store of any size.
		first := 2 + r.Intn(8+n/days)
		last := first + r.Intn(4)
		key := fmt.Sprintf("memory:%s:%d:%d", path, first, last)
		if seen[key] {
			continue
		}
		seen[key] = true
		recalled := start.AddDate(0, 0, day+r.Intn(30)).Add(time.Duration(r.Intn(86400000)) * time.Millisecond)
		e := recallEntry{Key: key, Path: path, StartLine: first, EndLine: last, Source: "memory",
			Snippet:         snippet(r, first, last),
			RecallCount:     1 + r.Intn(4),
			DailyCount:      r.Intn(3),
			GroundedCount:   r.Intn(2),
			FirstRecalledAt: stamp(recalled),
			LastRecalledAt:  stamp(recalled.Add(time.Duration(r.Intn(72)) * time.Hour)),
		}
		e.MaxScore = float64(600+r.Intn(400)) / 1000
		e.TotalScore = float64(int(e.MaxScore*float64(e.RecallCount)*1000+0.5)) / 1000
		for range 1 + r.Intn(2) {
			e.QueryHashes = append(e.QueryHashes, fmt.Sprintf("%012x", r.Int63()&(1<<48-1)))
		}
		e.RecallDays = []string{recalled.Format(time.DateOnly)}
		if r.Intn(3) == 0 {
			e.RecallDays = append(e.RecallDays, recalled.AddDate(0, 0, 1).Format(time.DateOnly))
		}
		for range 4 + r.Intn(5) {
			e.ConceptTags = append(e.ConceptTags, words[r.Intn(len(words))])
		}
		if r.Intn(10) == 0 {
			e.PromotedAt = stamp(recalled.AddDate(0, 0, 2))
		}
		if n > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n    %q: ", key)
		var v bytes.Buffer
		enc := json.NewEncoder(&v)
		enc.SetEscapeHTML(false)
		enc.SetIndent("    ", "  ")
		if err := enc.Encode(e); err != nil {
			panic(err) // a struct of strings and numbers always encodes
		}
		b.Write(bytes.TrimRight(v.Bytes(), "\n"))
		n++
	}
	b.WriteString("\n  }\n}\n")
	return b.Bytes()
}

// dailyLogName is the name (without ".md") Write gives the i-th daily log:
// several logs a day once there are more than a year's worth.
func dailyLogName(start time.Time, i int) string {
	name := start.AddDate(0, 0, i%365).Format(time.DateOnly)
	if i >= 365 {
		name += fmt.Sprintf("-%04d", i/365)
	}
	return name
}

func snippet(r *rand.Rand, first, last int) string {
	var s strings.Builder
	fmt.Fprintf(&s, "@@ -%d,%d @@ (%d before, %d after) ", first, last-first+1, first-1, 20+r.Intn(200))
	fmt.Fprintf(&s, "### %s — %s - **%s** `%s`", sentence(r, 3), sentence(r, 6), sentence(r, 4), words[r.Intn(len(words))])
	for range 1 + r.Intn(3) {
		switch r.Intn(6) {
		case 0:
			fmt.Fprintf(&s, "\n- %q said the %s.", words[r.Intn(len(words))], sentence(r, 5))
		case 1:
			fmt.Fprintf(&s, " → %s (%d%%)", sentence(r, 4), r.Intn(100))
		default:
			fmt.Fprintf(&s, " - %s.", sentence(r, 8+r.Intn(8)))
		}
	}
	return s.String()
}

// stamp is a time as OpenClaw writes it: UTC with milliseconds.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
