// Package dates reads the calendar dates written in memory files (ISO,
// "October 21", "21 Oct", "10月21日", year-less "10-21") and timestamps
// of state files, and resolves a date written without a year against the
// date of the file it is in, in one way for every package: the claim and
// the log line that supports it must land on the same day. It imports
// nothing of dreamwiki's.
//
// A date is a calendar day, UTC midnight: a date in a memory file names a
// day, not an instant in some machine's zone.
package dates
