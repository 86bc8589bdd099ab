// Command mcp measures `dreamwiki mcp` over stdio, as an agent meets it: a
// real subprocess and the SDK's client. It reports the start-up time to
// the first memory_search answer and the latency of memory_search
// (median, p95) over a set of queries made of the workspace's own words.
//
//	go build -o /tmp/dreamwiki ./cmd/dreamwiki
//	go run ./bench/mcp -bin /tmp/dreamwiki -ws /tmp/ws10k   # a workspace bench/gen wrote
//	go run ./bench/mcp -bin /tmp/dreamwiki -ws /tmp/ws10k -cold   # without the kept index
//
// dreamwiki mcp keeps its search index in WORKSPACE/.dreamwiki/index; a
// restart re-indexes only what changed. -cold removes it first, to
// measure a first start.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
)

func main() {
	bin := flag.String("bin", "dreamwiki", "the dreamwiki binary")
	ws := flag.String("ws", "", "the workspace (required)")
	n := flag.Int("n", 200, "number of searches")
	cold := flag.Bool("cold", false, "remove WORKSPACE/.dreamwiki/index first: a first start")
	flag.Parse()
	if *ws == "" {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/mcp -bin BIN -ws WORKSPACE [-n 200]")
		os.Exit(2)
	}
	if *cold {
		if err := os.RemoveAll(memsearch.WorkspaceDir(*ws)); err != nil {
			fmt.Fprintln(os.Stderr, "bench/mcp:", err)
			os.Exit(1)
		}
	}
	if err := run(*bin, *ws, *n); err != nil {
		fmt.Fprintln(os.Stderr, "bench/mcp:", err)
		os.Exit(1)
	}
}

// queries mix a word most notes hold, rarer words, a phrase and filters.
var queries = []string{"gateway", "deploy rollback", "\"on-call\"", "backup NAS", "type:project migration",
	"tier:hot", "kubernetes cluster upgrade", "decided", "postgres replica lag", "date:2026-10 review"}

func run(bin, ws string, n int) error {
	ctx := context.Background()
	cmd := exec.Command(bin, "mcp", ws)
	cmd.Stderr = os.Stderr
	start := time.Now()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	search := func(q string) (time.Duration, error) {
		t0 := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "memory_search", Arguments: map[string]any{"query": q}})
		if err == nil && res.IsError {
			err = fmt.Errorf("memory_search %q: %s", q, res.Content[0].(*sdk.TextContent).Text)
		}
		return time.Since(t0), err
	}
	// Tools answer "still reading the workspace" until the first build
	// and index are done: start-up lasts until the first real answer.
	for {
		_, err := search(queries[0])
		if err == nil {
			break
		}
		if !strings.Contains(err.Error(), "still") {
			return err
		}
	}
	fmt.Printf("start-up to the first answer: %s\n", time.Since(start).Round(time.Millisecond))
	var ds []time.Duration
	for i := range n {
		d, err := search(queries[i%len(queries)])
		if err != nil {
			return err
		}
		ds = append(ds, d)
	}
	slices.Sort(ds)
	fmt.Printf("memory_search over stdio, %d calls: median %s, p95 %s, max %s\n", n,
		ds[len(ds)/2].Round(10*time.Microsecond), ds[len(ds)*95/100].Round(10*time.Microsecond), ds[len(ds)-1].Round(10*time.Microsecond))
	return nil
}
