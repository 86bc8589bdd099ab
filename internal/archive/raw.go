package archive

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dreamwiki/dreamwiki/internal/atomicfile"
	"github.com/dreamwiki/dreamwiki/internal/secrets"
)

// rawPath is a topic's raw file for a day, relative to its group folder.
func rawPath(topic, day string) string { return path.Join("raw", "topic-"+topic, day+".md") }

// rawLine is the Markdown of one message: a list item with the time,
// sender and text, ending in a block id (^L<line>) so that summaries can
// link to the very line in Obsidian and on the site. Lines after the
// first are indented into the item.
func rawLine(m message, line int) string {
	text := strings.ReplaceAll(m.Text, "\r", "")
	var b strings.Builder
	hhmm := m.Time.Format("15:04")
	sender := senderCleaner.Replace(m.Sender)
	if m.Tool {
		fmt.Fprintf(&b, "- *[%s] %s:* ", hhmm, sender)
	} else {
		fmt.Fprintf(&b, "- **[%s] %s:** ", hhmm, sender)
	}
	first, rest, _ := strings.Cut(text, "\n")
	fmt.Fprintf(&b, "%s ^L%d\n", strings.TrimRight(first, " \t"), line)
	for l := range strings.SplitSeq(rest, "\n") {
		if strings.TrimSpace(l) != "" {
			b.WriteString("  " + strings.TrimRight(l, " \t") + "\n")
		}
	}
	return b.String()
}

// senderCleaner keeps a sender's name from closing the bold or the
// brackets of its line.
var senderCleaner = strings.NewReplacer("*", "", "\n", " ", "[", "(", "]", ")")

// rawFiles holds the raw files a run appends to. Each is a temporary
// copy of the old file plus the new lines, renamed over it once the state
// listing the renames is saved (see state.Renames), so a crash or a
// failed run leaves every raw file as it was, or finished with its
// watermark. At most maxOpen are open at once; the others are reopened to
// append.
type rawFiles struct {
	files map[string]*rawFile // by absolute target path
	open  []*rawFile
}

const maxOpen = 32

type rawFile struct {
	tmp *atomicfile.File
	w   *bufio.Writer
}

func newRawFiles() *rawFiles { return &rawFiles{files: map[string]*rawFile{}} }

// appendTo appends text to target, starting the file with heading when
// it does not exist yet.
func (r *rawFiles) appendTo(target, heading, text string) error {
	f := r.files[target]
	if f == nil {
		tmp, err := atomicfile.Create(target)
		if err != nil {
			return err
		}
		f = &rawFile{tmp: tmp}
		r.files[target] = f
		if err := r.opened(f); err != nil {
			return err
		}
		old, err := os.Open(target)
		switch {
		case err == nil:
			_, err = io.Copy(f.w, old)
			old.Close()
			if err != nil {
				return err
			}
		case os.IsNotExist(err):
			if _, err := f.w.WriteString(heading); err != nil {
				return err
			}
		default:
			return err
		}
	} else if f.w == nil {
		h, err := os.OpenFile(f.tmp.Name(), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		f.tmp.File = h
		if err := r.opened(f); err != nil {
			return err
		}
	}
	_, err := f.w.WriteString(text)
	return err
}

// opened gives f a writer, closing the oldest open file past maxOpen.
func (r *rawFiles) opened(f *rawFile) error {
	f.w = bufio.NewWriterSize(f.tmp, 64<<10)
	r.open = append(r.open, f)
	if len(r.open) <= maxOpen {
		return nil
	}
	old := r.open[0]
	r.open = r.open[1:]
	if err := old.w.Flush(); err != nil {
		return err
	}
	old.w = nil
	return old.tmp.Close()
}

// finish writes out and closes every temporary file, and returns the
// renames that put them in place, in path order, workspace-relative. Until
// the state that lists them is saved, abort still undoes the run.
func (r *rawFiles) finish(ws string) ([]rename, error) {
	targets := make([]string, 0, len(r.files))
	for t := range r.files {
		targets = append(targets, t)
	}
	sort.Strings(targets)
	renames := make([]rename, 0, len(targets))
	for _, t := range targets {
		f := r.files[t]
		if f.w == nil {
			h, err := os.OpenFile(f.tmp.Name(), os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				return nil, err
			}
			f.tmp.File = h
		} else if err := f.w.Flush(); err != nil {
			return nil, err
		}
		if err := f.tmp.Finish(); err != nil {
			return nil, fmt.Errorf("writing %s: %w", t, err)
		}
		temp, err1 := filepath.Rel(ws, f.tmp.Name())
		target, err2 := filepath.Rel(ws, t)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		renames = append(renames, rename{Temp: filepath.ToSlash(temp), Target: filepath.ToSlash(target)})
	}
	return renames, nil
}

// abort removes every temporary file; the raw files stay as they were.
func (r *rawFiles) abort() {
	for _, f := range r.files {
		f.tmp.Abort()
	}
}

// redacted is text with every secret replaced by its placeholder.
func redacted(text string) string {
	out, _ := secrets.Redact(text)
	return out
}

func groupDir(ws, channel, folder string) string {
	return filepath.Join(ws, "archives", safeName(channel), folder)
}
