package site

import (
	"github.com/dreamwiki/dreamwiki/internal/changes"
	"github.com/dreamwiki/dreamwiki/internal/health"
)

// History is the memory at earlier points of its life, read by the build
// from the workspace's git history, dream backups or dates (package
// history) and handed to the site as values: the site never reads a past
// workspace itself. It feeds the dream pages' diffs, the changes page,
// each claim's history, the dated snapshot pages and the time slider.
type History struct {
	// Points are the points, oldest first: one per dream (memory at the
	// end of its day), or, without dreams, one per week of git history.
	Points []HistoryPoint
}

// HistoryPoint is the memory at one point.
type HistoryPoint struct {
	// ID names the point: the dream's slug ("2026-10-30-0700") or the
	// week ("2026-W14"). Its snapshot page is history/<ID>/memory.html.
	ID string
	// Label says the point in words ("Dream 2026-10-30 07:00").
	Label string
	// Date is the point's day, YYYY-MM-DD.
	Date string
	// Dream is the slug of the dream the point follows, "" for a week.
	Dream string
	// Source says where the memory was read from (Snapshot.Describe).
	Source string
	// Memory is MEMORY.md as it stood at the point, secrets redacted; ""
	// when there was none.
	Memory string
	// Before is MEMORY.md just before the dream, and BeforeSource where
	// that was read from; both "" for a week.
	Before, BeforeSource string
	// Changes are what the dream changed (just before it to the end of
	// its day); nil for a week.
	Changes []changes.Change
	// Since are the changes since the previous point (for the first, the
	// claims in memory by then, as added): for a dream, those made before
	// it, then Changes.
	Since []changes.Change
	// Health is the memory's health at the point.
	Health health.Health
	// Tiers and Types count the point's claims by decay tier and memory
	// type.
	Tiers, Types map[string]int
	// Claims is the number of claims at the point.
	Claims int
}
