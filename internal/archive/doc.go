// Package archive turns agent session transcripts (OpenClaw's and pi's
// JSONL sessions, Claude Code's project transcripts) into the workspace's
// conversation archive: archives/<channel>/<group>/raw/, per-topic
// summaries, DIGEST.md and INDEX.md, labelled by archives/archive-config.json,
// in the layout package workspace reads.
//
// It only ever reads transcripts. Every file it writes goes through a
// temporary file and a rename, and every message is passed through the
// secret guard before it is written. A small state file,
// archives/.archive-state.json, keeps a watermark per transcript so a
// second run appends only what is new. A run's raw files are written to
// temporary files, then the state with their watermarks and the renames
// still to make is saved, then the renames are made: a run killed at any
// point either archived nothing or is finished by the next run, so every
// message is archived exactly once. Direct messages, cron, hook and
// sub-agent sessions are never archived: an archive is published with the
// wiki, and a private chat must not be.
package archive
