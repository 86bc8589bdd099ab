// Package dream runs the dream cycle: it consolidates an agent's daily logs
// into curated memory (L2 topic files and the MEMORY.md index), and owns
// every write to curated memory and its state files (recall, supersede,
// decay).
//
// A dream has three phases (DESIGN 5.3). Sense is read-only: the gates
// (time, new days, lock), the watermark from memory/dream-log.md, the
// batch of logs (oldest first, 32 days of logs or 192 KiB, cut on dates;
// what a daily log is the reader decides, workspace.IsDailyLog) with the
// messages of its days that public conversation digests cite
// (conversations.go), and the candidate facts: lines whose shape is no
// fact (status, counters, cron and health-check output, paths, hashes,
// transcripts, questions; see shapes.go) are left out, relative dates
// made absolute, types, promotion scores (DESIGN 5.2) and the secret
// guard. Consolidate is conservative. Three ways lead into curated
// memory, and only three (durable.go): a line whose recall signals (the
// recall store and events, as OpenClaw writes them) pass the Deep gates
// (DESIGN 5.2: six weighted signals, minScore, minRecall, minUnique; the
// signals propose, the gates dispose); a distiller's answer that passes
// llm.go's checks; and a choice by a person or an agent (choice.go: the
// ids of a plan's proposals, or a line rewritten from cited lines and
// checked as a distiller's answer is). Everything else worth a look (a
// decision, preference, rule, change, role, location, schedule or
// milestone, a line stated on several days; never an open to-do) is a
// proposal: it goes to the plan and the DREAMS.md diary with its score,
// signals, cues, source and id, never into MEMORY.md or a topic file. No
// class of text cue is written without a choice: none reached the 0.90
// precision an unattended write needs on real workspaces
// (bench/realeval). A dream that writes no line says "nothing passed the
// gates; N proposals in DREAMS.md" and writes only its diary entry, its
// dream-log entry (journal and watermark) and the heartbeat's lastDreamAt.
// Of what is written, near-duplicates and restatements merge
// into one entry with all their sources, and a fact replaces a curated one
// only when the log names the old value or changes its labelled subject
// (supersede.go). Curated memory belongs to its author (#23 rule 2): only
// lines the dream wrote (curated.dreams: its Source footer) get evidence,
// a "(done …)" or a supersede marker, or go to the archive; a fact that
// would repeat, close or replace an author's line is reported as a
// proposal and the line is left as it is. A fact goes to the L2 file that names its subject and
// wins clearly (never a dated file: workspace.DatedPath), else to the
// index (found where the workspace keeps it:
// MEMORY.md or memory/**/MEMORY.md; index.go), written as it was (Markdown
// and code spans verbatim, Rule/Why/How when it gives a reason, a date, a
// Source pointer), at the end of an open list of a section about it or in
// a section the dream owns, never inside a numbered or counted list, a
// table or code (place.go). Optionally the distil step runs through an
// LLM, every answer checked (llm.go). Settle keeps the dream's own index
// lines within the index's character budget (the lowest-scored go first;
// an index over its budget already gets none and a report: the budget is
// the window the agent sees, never a reason to move an author's line),
// archives the dream's own decayed entries (DESIGN 5.1), updates
// memory-meta.json (undated entries stay undated), the recall store, the
// event log (each record with the keys the file's records of its type
// carry, or none) and the heartbeat, and appends a Markdown entry to the
// dream log in the language and heading level of its entries (none, and a
// diagnostic, when their script is one it has no labels for).
//
// A plan (NewPlan, PlanWorkspace) is the whole dream worked out, with the
// reason and scores of every action and the new bytes of every file; it
// writes nothing, and everything it shows (actions, diagnostics, diffs) is
// redacted. Apply (or Run) writes a plan in one journaled transaction.
// PlanWorkspace reads as the dream does, phase by phase, and each phase is
// a function of the values it needs: the workspace and clock (env), the
// files it opened (fileSet), curated memory (curatedMemory, which the
// consolidate and settle phases edit), the promotion scores (scorer), and
// a ledger it reports every decision to; so each phase can be run alone
// on a small workspace (phases_test.go).
//
// A dream never modifies, moves or deletes a daily log or any dated file
// (a date in its name or folder, diary/, archives/; its own
// memory/archive/YYYY-MM.md aside), never writes
// outside MEMORY.md and memory/ (daily logs, memory/dreaming/ excluded),
// never creates a second index beside the one the workspace keeps,
// never writes a new secret into curated memory and never rewrites a line
// that holds one (it reports it; published outputs redact it), and never
// deletes a fact: each one is still present, superseded with a link to its
// successor, or (a line it wrote) in memory/archive/. It never reads or writes a private
// note (DESIGN 5.7): a private log is no source, a private topic file no
// target, and a private index stops it (private.go says why this rule and
// not "private facts go to private files").
//
// # Crash safety
//
// Every write of a dream, recall, supersede or decay is one transaction
// under the workspace lock, and no step of it can destroy an edit made
// by someone else, before, during or after a crash:
//
//  1. Lock: the holder keeps .dreamwiki/dream.lock open with the
//     kernel's advisory lock on it (flock; LockFileEx on Windows) for its
//     whole run, and the kernel drops it when the holder exits or dies, in
//     whatever pid namespace it runs. A kernel-held lock is never broken.
//     The file's record names the holder for messages (pid, host, start)
//     and its modification time is refreshed every 10 s. A file whose
//     kernel lock is free is replaced unless its record says a holder
//     without one may still be there: one on another host (whose file
//     system may not pass locks on) refreshed within the lock timeout, a
//     live dreamwiki of an older version on this host, or a record that
//     is not JSON and was written in the last 30 s. Ages are wall-clock;
//     --now never ages a lock, and a live holder, stopped or sleeping,
//     keeps it.
//  2. Check: every file still holds the bytes the plan read.
//  3. Back up: the old bytes of each changed file go whole into
//     .backup/memory-dreams/<run>/<path>.bak (staged, then renamed), or
//     into staging for state files that keep no backup.
//  4. Stage: the new bytes go into .dreamwiki/staging/<run>/ twice,
//     synced: one copy to rename into place, one kept until the end.
//  5. Journal: .dreamwiki/journal.json lists each file's old and new
//     hash and where its copies are. This is the commit point.
//  6. Rename, file by file: first the lock is checked (a dream whose lock
//     was taken over stops here and touches nothing more: the new holder
//     owns the journal), then the file is hashed again; a file that
//     changed since the plan stops the run (step 8). Editors take no lock,
//     so the rename checks too: on Linux the new file is exchanged with
//     the old (renameat2 RENAME_EXCHANGE) and the file it replaced hashed;
//     one edited since the last hash is exchanged back, and the run stops
//     as for any changed file. Elsewhere the old file is hard-linked aside
//     before the rename and hashed after it, which sees edits made in
//     place (a file renamed over it in between is not seen).
//  7. Done: the lock is checked once more; a replaced file written since
//     (by an editor that had it open) is kept as
//     .backup/memory-dreams/<run>/<path>.edited and the run reports it;
//     then the journal and staging go.
//  8. Rollback (after a failed or refused rename, or by Recover after a
//     crash, under the lock, before anything else): a file holding exactly
//     the run's new bytes is put back (hashed once more right before), a
//     file holding its old bytes is done with, and any other file is
//     someone's edit: it is left as it is, the run's version is kept as
//     .backup/memory-dreams/<run>/<path>.dream beside its .bak (a run
//     without backups uses a folder of its own there), and both paths
//     are reported (Recovery.Kept).
//
// A crash before 5 leaves the workspace untouched (staging is in the cache
// folder, which nothing reads; backups are whole copies). The fault suite
// (faults_linux_test.go) kills a dream at each of its writes, fsyncs,
// renames, links and unlinks and checks that no edit is lost.
package dream
