package workspace

import (
	"crypto/sha256"
	"slices"
	"strings"
	"sync"

	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/memory"
)

// Parses remembers the recall store as read, by the text read, across
// loads of one workspace at several points of its history (a build's
// history points each load the workspace again): a store of megabytes
// that no point changed is read once per build. A nil *Parses reads the
// store at every load. It is safe for concurrent use.
type Parses struct {
	mu     sync.Mutex
	recall map[[sha256.Size]byte]recallRead
}

type recallRead struct {
	entries []*memory.RecallRecord
	diags   diag.List
}

// recallStore reads the recall store f, once per distinct text. The entries
// are shared by every load that reads that text: no one changes them.
func (p *Parses) recallStore(f *File, diags *diag.List) *RecallStore {
	if p == nil {
		return &RecallStore{File: f, Entries: readRecallEntries(f, diags)}
	}
	key := sha256.Sum256([]byte(f.Content))
	p.mu.Lock()
	r, ok := p.recall[key]
	p.mu.Unlock()
	if !ok {
		var d diag.List
		r = recallRead{entries: readRecallEntries(f, &d), diags: d}
		p.mu.Lock()
		if p.recall == nil {
			p.recall = map[[sha256.Size]byte]recallRead{}
		}
		p.recall[key] = r
		p.mu.Unlock()
	}
	*diags = append(*diags, r.diags...)
	return &RecallStore{File: f, Entries: r.entries}
}

// readRecallEntries reads the entries of the recall store, sorted by key,
// so that which entry credits a line does not depend on the order the
// file lists them in.
func readRecallEntries(f *File, diags *diag.List) []*memory.RecallRecord {
	entries := readStateFile(f, diags, "the recall store", memory.ReadRecall)
	slices.SortStableFunc(entries, func(a, b *memory.RecallRecord) int { return strings.Compare(a.Key, b.Key) })
	return entries
}
