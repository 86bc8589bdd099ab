package server

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A mark dropped after a write arrives after the write's events: once the
// watcher has seen it, the write is gathered, however late the kernel's
// events reached the watcher. Settle relies on this so that an agent's
// write is in its next search.
func TestWatcher_AMarkArrivesAfterTheWritesBeforeIt(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A long quiet keeps the writes gathering, not yet sent as a batch.
	w, err := newWatcher(root, time.Minute, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if w.marks == "" {
		t.Skip("no folder for marks")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.run(ctx); close(done) }()
	defer func() {
		cancel()
		<-done
		if _, err := os.Stat(w.marks); !os.IsNotExist(err) {
			t.Errorf("the marks folder %s is left behind: %v", w.marks, err)
		}
	}()
	for i := range 20 {
		p := filepath.Join(root, "memory", "2026-11-"+string(rune('a'+i))+".md")
		if err := os.WriteFile(p, []byte("- a line\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		caughtUp, ok := w.sync()
		if !ok {
			t.Fatal("no mark could be dropped")
		}
		deadline := time.Now().Add(10 * time.Second)
		for !caughtUp() {
			if time.Now().After(deadline) {
				t.Fatal("the mark never arrived")
			}
			time.Sleep(time.Millisecond)
		}
		if !w.gathering.Load() {
			t.Fatalf("write %d: the mark arrived before the write was gathered", i)
		}
	}
	if left, _ := os.ReadDir(w.marks); len(left) != 0 {
		t.Errorf("marks are left in the folder: %d", len(left))
	}
}
