package mcp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestForgeMCPServeProcess drives the real `forge mcp serve` with the
// go-sdk's client over stdio: the built-in tools and the example plugin,
// listed and called, and garbage-proof framing end to end.
func TestForgeMCPServeProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the forge binary")
	}
	forge := filepath.Join(filepath.Dir(serverBin), "forge")
	if out, err := exec.Command("go", "build", "-o", forge, "../../cmd/forge").CombinedOutput(); err != nil {
		t.Fatalf("building forge: %v\n%s", err, out)
	}
	home := t.TempDir()
	cmd := exec.Command(forge, "mcp", "serve", "--tools", "wordcount,Read", "--plugins-dir", "../../examples/plugins", "-C", home)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+home, "HOME="+home)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if names := toolNames(list); names != "Read,wordcount" {
		t.Fatalf("tools = %s", names)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wordcount", Arguments: map[string]any{"text": "one two three"}})
	if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "3 words" {
		t.Fatalf("wordcount = %+v, %v\nstderr: %s", res, err, stderr.String())
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "wordcount", Arguments: map[string]any{"text": ""}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "shorter than minimum length") {
		t.Errorf("invalid = %+v, %v", res, err)
	}
}
