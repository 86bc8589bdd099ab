package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// snapshot is a workspace's files at one moment: every file's hash, and
// the lines of its text files.
type snapshot struct {
	hash  map[string]string   // slash path -> hex SHA-256 of the content
	lines map[string][]string // text files only: lines, "\r" trimmed
}

// skipDir says which folders a snapshot leaves out: version control, and
// the dream's own backups (copies of files it changed, not writes into the
// workspace's memory).
func skipDir(rel string) bool {
	return rel == ".git" || rel == ".backup" || strings.HasPrefix(rel, ".backup/")
}

func isText(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".jsonl", ".txt":
		return true
	}
	return false
}

func isMarkdown(p string) bool {
	e := strings.ToLower(path.Ext(p))
	return e == ".md" || e == ".markdown"
}

func takeSnapshot(root string) (*snapshot, error) {
	s := &snapshot{hash: map[string]string{}, lines: map[string][]string{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && skipDir(rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		h := sha256.Sum256(b)
		s.hash[rel] = hex.EncodeToString(h[:])
		if isText(rel) {
			ls := strings.Split(string(b), "\n")
			for i, l := range ls {
				ls[i] = strings.TrimRight(l, "\r")
			}
			s.lines[rel] = ls
		}
		return nil
	})
	return s, err
}

// copyTree copies a workspace into dst, leaving out what takeSnapshot
// leaves out. Symbolic links are not followed.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if rel != "." && skipDir(filepath.ToSlash(rel)) {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(filepath.Join(dst, rel))
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

// datedRe finds a calendar date in a path segment: 2026-03-23, 2026-3-7,
// 2026_03_23, 20260323.
var datedRe = regexp.MustCompile(`(^|[^0-9])(19|20)[0-9]{2}([-_.][01]?[0-9][-_.][0-3]?[0-9]|[01][0-9][0-3][0-9])([^0-9]|$)`)

// isDated says whether a path is a dated file in the sense of issue #23: a
// date in its name or in a folder's, or a diary or archive folder. Daily
// logs are dated files. This is the harness's own rule, kept apart from
// the workspace reader's on purpose: the measure must not move when the
// rules it measures do.
func isDated(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		low := strings.ToLower(seg)
		if datedRe.MatchString(seg) || low == "diary" || low == "diaries" || strings.Contains(low, "archive") {
			return true
		}
	}
	return false
}

// isOwnLog says whether a path is one of the logs a dream appends its own
// entries to (the dream log and the DREAMS.md diary); lines added there
// are not promotions into curated memory.
func isOwnLog(p string) bool {
	low := strings.ToLower(p)
	return low == "dreams.md" || low == "memory/dream-log.md" || strings.HasPrefix(low, "memory/dreaming/")
}

// isCurated says whether a Markdown file is curated memory for this
// measure: MEMORY.md (or memory/MEMORY.md) and every other Markdown file
// under memory/ that is neither dated nor a dream's own log.
func isCurated(p string) bool {
	if !isMarkdown(p) || isDated(p) || isOwnLog(p) {
		return false
	}
	low := strings.ToLower(p)
	return low == "memory.md" || strings.HasPrefix(low, "memory/")
}
