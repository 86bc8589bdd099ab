package dream

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

func TestZZLines(t *testing.T) {
	name := os.Getenv("WS")
	src, _ := os.ReadFile("testdata/quality/" + name + ".txtar")
	lsrc, _ := os.ReadFile("testdata/quality/" + name + ".labels")
	labels, _ := parseQLabels(name, string(lsrc), txtar.Parse(src))
	dir := workspaceFrom(t, string(src))
	url, _ := fakeModel(t, func(lines []llmLine) (int, string) {
		for _, l := range lines {
			fmt.Printf("%s | %s\n", l.Ref, l.Text)
		}
		return http.StatusOK, `{"facts":[]}`
	})
	o := llmOptions(url)
	o.Now = func() time.Time { return labels.now }
	_, err := Run(context.Background(), dir, o, true, nil)
	if err != nil {
		t.Fatal(err)
	}
}
