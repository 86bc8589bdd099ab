// Package memory holds the pure rules behind an agent's memory life cycle:
// decay scores and tiers (DESIGN 5.1), deep-phase promotion signals and gates
// (5.2), permission expiry (5.5), lifecycle markers that keep closed work
// closed, and the subject/value reading used to spot a fact that replaces
// an older one.
//
// It also holds the formats of the memory state files as editable values:
// MetaDoc (memory-meta.json), RecallDoc (short-term-recall.json), recall
// and dream events (events.jsonl lines) and UpdateObject (small JSON state
// files such as heartbeat-state.json). They read bytes and give bytes
// back, keeping key order and unknown fields, so a rewrite shows only what
// changed. ReadMeta and ReadRecall are the same readings for a reader that
// only looks (the workspace), which leave out an entry they cannot read
// instead of failing the file. MatchRecall finds the lines a recall refers to, and Recompute
// applies decay to a whole MetaDoc. The texts they write (entry texts,
// snippets, queries) never hold a secret: each encoder redacts them, so
// every writer is covered.
//
// Every function is pure: it takes the text, bytes or numbers it judges
// and, where time matters, the current time as an argument, and returns a
// value. The package never reads or writes files, never looks at the wall
// clock and keeps no state, so the dream cycle, the site and the tests all
// get the same answer for the same input. Reading the workspace is the
// workspace package's job; writing files is the dream package's.
package memory
