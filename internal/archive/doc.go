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
// second run appends only what is new. The raw files are renamed into
// place before the watermarks are saved: a run cut off between the two
// appends some messages again on the next run, and never loses one.
// Direct messages, cron, hook and
// sub-agent sessions are never archived: an archive is published with the
// wiki, and a private chat must not be.
package archive
