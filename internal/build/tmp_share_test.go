package build

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/output"
)

func TestTmpShare(t *testing.T) {
	dir := os.Getenv("TMP_WS")
	if dir == "" {
		dir = demoDir(t)
	}
	s, _, err := Open(context.Background(), Options{Workspace: dir}, output.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	target := s.ws.Topics[0].File.Path
	full := filepath.Join(dir, target)
	orig, _ := os.ReadFile(full)
	defer os.WriteFile(full, orig, 0o644)
	for i := 0; i < 10; i++ {
		os.WriteFile(full, append(orig, []byte("\n- Another entry about the gateway "+time.Now().String()+".\n")...), 0o644)
		t0 := time.Now()
		ch, err := s.Update(context.Background(), []string{target}, output.NewMemory())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("update %s prov %s site %s", time.Since(t0), ch.ProvenanceTook, ch.Site)
	}
}
