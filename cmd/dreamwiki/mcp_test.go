package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCP_OverStdio runs `dreamwiki mcp --demo` as a subprocess (this test
// binary, named dreamwiki, which testscript.Main runs as the command) and
// talks to it with the SDK's client over stdin and stdout.
func TestMCP_OverStdio(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "dreamwiki")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cmd := exec.Command(bin, "mcp", "--demo", "--as-of", "2026-11-30")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	if info := cs.InitializeResult(); info.ServerInfo.Name != "dreamwiki" || info.Instructions == "" {
		t.Errorf("server info %+v", info.ServerInfo)
	}
	// The handshake is answered before the workspace is read; under load
	// the first calls may say so.
	var res *sdk.CallToolResult
	for deadline := time.Now().Add(2 * time.Minute); ; {
		res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "memory_search", Arguments: map[string]any{"query": "gateway host", "limit": 3}})
		if err != nil || !res.IsError || time.Now().After(deadline) || !strings.Contains(fmt.Sprint(res.Content[0]), "still") {
			break
		}
	}
	if err != nil || res.IsError {
		t.Fatalf("memory_search: %v %+v\n%s", err, res, stderr.String())
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if !strings.Contains(text, `"citation"`) || !strings.Contains(text, `"claim"`) {
		t.Errorf("memory_search over stdio: %s", text)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "memory_recall", Arguments: map[string]any{"query": "q", "matched": "m"}})
	if err == nil && !res.IsError {
		t.Error("memory_recall answered without --writable")
	}
}
