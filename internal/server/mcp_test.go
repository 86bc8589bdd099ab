package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/search/memsearch"
)

func TestServe_MountsTheMCPToolsAtSlashMCP(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{ReadOnly: true})
	ctx := context.Background()
	tr := &sdk.StreamableClientTransport{Endpoint: ts.base + "/mcp", HTTPClient: ts.client}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "memory_why", Arguments: map[string]any{"claim": "gateway host mac mini"}})
	if err != nil || res.IsError {
		t.Fatalf("memory_why over HTTP: %v %+v", err, res)
	}
	if text := res.Content[0].(*sdk.TextContent).Text; !strings.Contains(text, "memory/2026-10-29.md#L3-L3") {
		t.Errorf("memory_why does not cite the evidence: %s", text)
	}
	for tool, err := range cs.Tools(ctx, nil) {
		if err == nil && tool.Name == "memory_recall" {
			t.Error("a read-only server offers memory_recall")
		}
	}
}

func TestServe_MCPRefusesOtherSitesAndHosts(t *testing.T) {
	ts := start(t, smallWorkspace(t), Options{})
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, h := range []map[string]string{
		{"Origin": "http://evil.example"},
		{"Host": "evil.example"},
	} {
		req, _ := http.NewRequest("POST", ts.base+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range h {
			req.Header.Set(k, v)
			if k == "Host" {
				req.Host = v
			}
		}
		res, err := ts.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode < 400 {
			t.Errorf("/mcp answered %d to a request with %v", res.StatusCode, h)
		}
	}
}

// TestIndexDir_KeptBetweenRunsAndInMemoryWhenHeld: a server keeps the
// search index in IndexDir, so the next one finds it current; a second
// server on the same workspace (a second agent) searches from an index in
// memory rather than failing.
func TestIndexDir_KeptBetweenRunsAndInMemoryWhenHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the index lock to time out")
	}
	dir := smallWorkspace(t)
	idx := memsearch.WorkspaceDir(dir)
	search := func(s *Server) []memsearch.Result {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.Settle(ctx); err != nil {
			t.Fatal(err)
		}
		res, err := s.Search(ctx, memsearch.Query{Text: "backups"})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first, err := New(context.Background(), Options{Workspace: dir, IndexDir: idx, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(search(first)) == 0 {
		t.Fatal("the first server found nothing")
	}
	second, err := New(context.Background(), Options{Workspace: dir, IndexDir: idx, ReadOnly: true})
	if err != nil {
		t.Fatalf("a second server on a held index: %v", err)
	}
	if len(search(second)) == 0 {
		t.Error("the second server, searching in memory, found nothing")
	}
	second.Close()
	first.Close()
	// The index the first left is current: nothing is indexed again.
	ix, err := memsearch.OpenIndex(idx)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	m, err := build.Load(context.Background(), build.Options{Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	st, err := ix.Update(context.Background(), m.Workspace, m.Vault)
	if err != nil || st.Changed+st.Removed != 0 {
		t.Errorf("the kept index was not current: %+v %v", st, err)
	}
}
