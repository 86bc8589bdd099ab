package memory

import (
	"strings"
	"time"
)

// TierRow is one line of the tier table: an entry's decay after Recompute.
type TierRow struct {
	ID         string    `json:"id"`
	Text       string    `json:"text"`
	File       string    `json:"file,omitempty"`
	Was        Tier      `json:"was,omitempty"`
	Tier       Tier      `json:"tier"`
	Score      float64   `json:"score"`
	Recalls    int       `json:"recalls"`
	Created    time.Time `json:"created,omitzero"`
	Structural bool      `json:"structural,omitempty"`
	// Parts are the three parts of the score, so a table can show why.
	Parts Result `json:"parts"`
}

// Recompute evaluates every entry's decay at now (DESIGN 5.1), stores the
// tier and the score (rounded to three decimals) on the record, and returns
// one row per entry in file order. An entry is structural when its record
// says so or IsStructural recognises its text; the record is updated to
// say so. Entries already moved to memory/archive/ stay archived.
func (d *MetaDoc) Recompute(now time.Time, p Params) []TierRow {
	rows := make([]TierRow, 0, len(d.Entries))
	for _, r := range d.Entries {
		was := Tier(r.Tier)
		if strings.HasPrefix(r.File, "memory/archive/") {
			rows = append(rows, TierRow{ID: r.ID, Text: r.Text, File: r.File, Was: was, Tier: TierArchived,
				Score: r.Score, Recalls: r.RecallCount, Created: r.Created, Structural: r.Structural})
			continue
		}
		if !r.Structural && IsStructural(r.Text) {
			r.Structural = true
		}
		res := Evaluate(Input{Created: r.Since(), LastRecalled: r.LastRecalled, RecallCount: r.RecallCount, Structural: r.Structural}, now, p)
		r.Tier = string(res.Tier)
		r.Score = round3(res.Score)
		rows = append(rows, TierRow{ID: r.ID, Text: r.Text, File: r.File, Was: was, Tier: res.Tier,
			Score: r.Score, Recalls: r.RecallCount, Created: r.Created, Structural: r.Structural, Parts: res})
	}
	return rows
}
