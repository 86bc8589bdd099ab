// Package dream runs the dream cycle: it consolidates an agent's daily logs
// into curated memory (L2 topic files and the MEMORY.md index), and owns
// every write to curated memory and its state files (recall, supersede,
// decay).
//
// A dream has three phases (DESIGN 5.3). Sense is read-only: the gates
// (time, new days, lock), the watermark from memory/dream-log.md, the
// batch of logs (oldest first, 32 logs or 192 KiB, cut on dates), and the
// candidate facts with relative dates made absolute, types, topics,
// promotion scores (DESIGN 5.2) and the secret guard. Consolidate writes
// distilled lines into L2 files: one line per fact, a date, a Source
// pointer; near-duplicates merge their evidence, contradictions become
// supersessions with both dates, closed work stays closed. Settle keeps
// MEMORY.md an index within its character budget (detail sinks into L2
// files behind pointers), archives decayed entries (DESIGN 5.1), updates
// memory-meta.json, the recall store and the heartbeat, and appends a
// Markdown entry to the dream log.
//
// A plan (NewPlan, PlanWorkspace) is the whole dream worked out, with the
// reason and scores of every action and the new bytes of every file; it
// writes nothing. Apply (or Run) writes a plan in one journaled
// transaction: the lock, a check that nothing changed since the plan, a
// backup of every file it changes in .backup/memory-dreams/, all new files
// staged, then renamed into place; a crash at any point leaves the
// workspace as it was, or recoverable to it (Recover).
//
// A dream never modifies, moves or deletes a daily log, never writes
// outside MEMORY.md and memory/ (daily logs, memory/dreaming/ excluded),
// never writes a secret into curated memory, and never deletes a fact: each
// one is still present, superseded with a link to its successor, or in
// memory/archive/.
package dream
