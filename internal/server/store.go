package server

import (
	"bytes"
	"sort"
	"strings"
	"sync"

	"github.com/dreamwiki/dreamwiki/site"
)

// store is the site in memory, as served. Updates arrive as batches and
// are applied under one lock, so a reader sees a page and the files it
// loads from the same build.
type store struct {
	mu    sync.RWMutex
	files map[string][]byte
}

func newStore() *store { return &store{files: map[string][]byte{}} }

// get returns a file of the site.
func (s *store) get(name string) ([]byte, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	b, ok := s.files[name]
	return b, ok
}

// len returns the number of files.
func (s *store) len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.files)
}

// batch collects the files of one update before they are applied. It is
// an output.Writer.
type batch struct {
	mu    sync.Mutex
	files map[string][]byte
}

func newBatch() *batch { return &batch{files: map[string][]byte{}} }

// WriteFile keeps a copy of data: writers may reuse their buffers.
func (b *batch) WriteFile(name string, data []byte) error {
	c := append([]byte(nil), data...)
	b.mu.Lock()
	b.files[name] = c
	b.mu.Unlock()
	return nil
}

// commitUpdate applies the files of a site update and returns the names
// whose bytes changed (written, or gone), sorted. A full update replaces
// every file but the deferred ones (site.Deferred), which the next Finish
// writes; another removes the files it says are gone.
func (s *store) commitUpdate(b *batch, st site.UpdateStats) []string {
	if st.Full {
		return s.commit(b, func(name string) bool { return !site.Deferred(name) })
	}
	if len(st.Removed) == 0 {
		return s.commit(b, nil)
	}
	gone := make(map[string]bool, len(st.Removed))
	for _, name := range st.Removed {
		gone[name] = true
	}
	return s.commit(b, func(name string) bool { return gone[name] })
}

// commitFinish applies the files of a Finish: when it wrote the search
// index, the index replaces the earlier one as a whole (its files are
// named by a hash of their contents).
func (s *store) commitFinish(b *batch) []string {
	search := false
	for name := range b.files {
		if strings.HasPrefix(name, "search/") {
			search = true
			break
		}
	}
	if !search {
		return s.commit(b, nil)
	}
	return s.commit(b, func(name string) bool { return strings.HasPrefix(name, "search/") })
}

// commit writes b's files and removes the files that replaced (when not
// nil) says the batch replaces as a whole but did not write.
func (s *store) commit(b *batch, replaced func(name string) bool) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var changed []string
	if replaced != nil {
		for name := range s.files {
			if _, ok := b.files[name]; !ok && replaced(name) {
				delete(s.files, name)
				changed = append(changed, name)
			}
		}
	}
	for name, data := range b.files {
		if old, ok := s.files[name]; !ok || !bytes.Equal(old, data) {
			changed = append(changed, name)
		}
		s.files[name] = data
	}
	sort.Strings(changed)
	return changed
}
