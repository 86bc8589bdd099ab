package markdown

import (
	"path"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Embeds: ![[note]], ![[note#Heading]], ![[note#^block]],
// ![[image.png]], ![[image.png|300]], ![[image.png|300x200]],
// ![[image.png|alt text|300]].
//
// A note embed is transcluded at render time (renderEmbed in render.go):
// the target Doc's own AST, rendered with its own Source, inside the
// page. An embed of a file with a known attachment extension (images,
// audio, video, PDF) renders as that file.

// KindEmbed is the node kind of Embed.
var KindEmbed = ast.NewNodeKind("Embed")

// Embed is an Obsidian embed, ![[target#fragment|display]].
type Embed struct {
	ast.BaseInline
	// Target and Fragment as for Link; Display is the non-size part after
	// '|' ("" when absent).
	Target, Fragment, Display string
	Width, Height             int
	// File is true for attachments (by extension) rather than notes.
	File bool
	// Segment spans the whole "![[…]]" in Source.
	Segment text.Segment
}

// Kind implements ast.Node.
func (n *Embed) Kind() ast.NodeKind { return KindEmbed }

// Dump implements ast.Node.
func (n *Embed) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{
		"Target": n.Target, "Fragment": n.Fragment, "Display": n.Display,
		"Width": strconv.Itoa(n.Width), "Height": strconv.Itoa(n.Height),
	}, nil)
}

type embedParser struct{}

var _ parser.InlineParser = embedParser{}

func (embedParser) Trigger() []byte { return []byte{'!'} }

func (embedParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if len(line) < 5 || line[1] != '[' || line[2] != '[' {
		return nil
	}
	stop := closingBrackets(line, 3) - 3
	if stop < 0 {
		return nil // must close on the same line, as wikilinks do
	}
	inner := string(line[3 : 3+stop])
	target, rest, hasRest := strings.Cut(inner, "|")
	target = strings.TrimSuffix(target, `\`) // "\|" in a table cell
	n := &Embed{}
	n.Target, n.Fragment, _ = strings.Cut(target, "#")
	n.Target = strings.TrimSpace(n.Target)
	n.Fragment = strings.TrimSpace(n.Fragment)
	if n.Target == "" && n.Fragment == "" {
		return nil
	}
	if hasRest {
		for part := range strings.SplitSeq(rest, "|") {
			part = strings.TrimSpace(part)
			if w, h, ok := parseSize(part); ok && n.Width == 0 {
				n.Width, n.Height = w, h
			} else if n.Display == "" {
				n.Display = part
			}
		}
	}
	n.File = isAttachment(n.Target)
	n.Segment = text.NewSegment(seg.Start, seg.Start+3+stop+2)
	block.Advance(3 + stop + 2)
	return n
}

// parseSize reads "300" or "300x200".
func parseSize(s string) (w, h int, ok bool) {
	ws, hs, two := strings.Cut(s, "x")
	w, err := strconv.Atoi(ws)
	if err != nil || w <= 0 || ws[0] == '+' {
		return 0, 0, false
	}
	if two {
		h, err = strconv.Atoi(hs)
		if err != nil || h <= 0 || hs[0] == '+' {
			return 0, 0, false
		}
	}
	return w, h, true
}

// attachmentKind classifies a file by extension: "image", "audio",
// "video", "pdf", or "" for notes and unknown extensions.
func attachmentKind(name string) string {
	ext := strings.ToLower(path.Ext(name))
	switch ext {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".bmp", ".avif", ".ico", ".tif", ".tiff":
		return "image"
	case ".mp3", ".wav", ".m4a", ".ogg", ".flac", ".opus":
		return "audio"
	case ".mp4", ".webm", ".ogv", ".mov", ".mkv":
		return "video"
	case ".pdf":
		return "pdf"
	}
	return ""
}

func isAttachment(name string) bool { return attachmentKind(name) != "" }
