package dream

import (
	"fmt"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/workspace"
)

// conversationItems are the messages the digests of archived conversations
// cite (the decisions `dreamwiki archive` lists in DIGEST.md), dated within
// the batch: after the watermark and up to the last day it reads. Each is
// an item of its raw transcript, so a fact promoted from it cites the very
// message line (the digest line says which message; the transcript line,
// unlike the digest's, never moves), and provenance links both.
//
// A conversation whose digest or transcript is private is not read, as a
// private daily log is not (see private.go).
func conversationItems(ws *workspace.Workspace, sel *selection) []convItem {
	if len(sel.inputs) == 0 {
		return nil
	}
	var out []convItem
	seen := map[string]bool{}
	for _, c := range ws.Conversations {
		if c.Digest == nil || privateFile(ws, c.Digest.Path) {
			continue
		}
		for _, cite := range c.Cites {
			day, err := time.Parse(time.DateOnly, cite.Day.Day)
			if err != nil || !sel.watermark.IsZero() && !day.After(sel.watermark) || day.After(sel.through) {
				continue
			}
			key := fmt.Sprintf("%s#%d", cite.Day.File.Path, cite.Message.Line)
			if seen[key] || privateFile(ws, cite.Day.File.Path) {
				continue
			}
			seen[key] = true
			label := c.Label
			if cite.Topic != nil {
				label += " / " + cite.Topic.Name
			}
			m := cite.Message
			// The sender comes after the words, not as "Name: ...", which
			// would read as a labelled fact about the sender.
			text := fmt.Sprintf("“%s” (%s, %s)", m.Text, m.Sender, label)
			out = append(out, convItem{
				log: &workspace.DailyLog{File: cite.Day.File, Date: day},
				it:  workspace.LogItem{Line: m.Line, EndLine: m.Line, Section: label, Raw: "- " + text, Text: text},
			})
		}
	}
	return out
}

// convItem is a cited message as the dream reads a daily log's item.
type convItem struct {
	log *workspace.DailyLog
	it  workspace.LogItem
}
