// Command mcpserver is the MCP server the tests of internal/mcp start over
// stdio. Its tools exercise every path of the client: echo (text), add
// (a schema with constraints), fail (isError), crash (the process exits in
// the middle of a call), slow (waits until cancelled and records the
// cancellation in $MCPSERVER_MARKERS/cancelled), image and resource; and
// hostile (control characters in its description), offered only when
// named in $MCPSERVER_TOOLSFILE.
//
// $MCPSERVER_TOOLSFILE, when it names a file, lists the tools to offer
// (comma-separated), so that a test can change the list between reloads.
package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func args(req *mcp.CallToolRequest) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(req.Params.Arguments, &m)
	return m
}

// redDot is a PNG of one red pixel.
var redDot, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "testserver", Version: "1"}, nil)
	all := map[string]func(){
		"echo": func() {
			s.AddTool(&mcp.Tool{Name: "echo", Description: "Echo the text back.", InputSchema: json.RawMessage(
				`{"type":"object","properties":{"text":{"type":"string","description":"What to echo."}},"required":["text"]}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return text(fmt.Sprint(args(req)["text"])), nil
				})
		},
		"add": func() {
			s.AddTool(&mcp.Tool{Name: "add", Description: "Add two small integers.", InputSchema: json.RawMessage(
				`{"type":"object","properties":{"a":{"type":"integer","maximum":100},"b":{"type":"integer"},"tags":{"type":"array","items":{"type":"string","pattern":"^[a-z]+$"}}},"required":["a","b"],"additionalProperties":false}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					a := args(req)
					x, _ := a["a"].(float64)
					y, _ := a["b"].(float64)
					return text(fmt.Sprint(x + y)), nil
				})
		},
		"fail": func() {
			s.AddTool(&mcp.Tool{Name: "fail", Description: "Always fails.", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					r := text("the disk is full")
					r.IsError = true
					return r, nil
				})
		},
		"crash": func() {
			s.AddTool(&mcp.Tool{Name: "crash", Description: "Exits in the middle of the call.", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					fmt.Fprintln(os.Stderr, "mcpserver: crashing on purpose")
					os.Exit(3)
					return nil, nil
				})
		},
		"slow": func() {
			s.AddTool(&mcp.Tool{Name: "slow", Description: "Waits until cancelled.", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					select {
					case <-ctx.Done():
						if dir := os.Getenv("MCPSERVER_MARKERS"); dir != "" {
							_ = os.WriteFile(filepath.Join(dir, "cancelled"), []byte(context.Cause(ctx).Error()), 0o644)
						}
						return nil, ctx.Err()
					case <-time.After(time.Minute):
						return text("finished"), nil
					}
				})
		},
		"image": func() {
			s.AddTool(&mcp.Tool{Name: "image", Description: "Returns a picture and a caption.", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{
						&mcp.TextContent{Text: "a red dot"},
						&mcp.ImageContent{MIMEType: "image/png", Data: redDot},
					}}, nil
				})
		},
		"hostile": func() {
			// A description and a parameter that try to reach the terminal:
			// C1 controls (NEL, CSI, OSC, ST) and 7-bit escape sequences.
			s.AddTool(&mcp.Tool{Name: "hostile", Description: "Looks\u0085harmless\u009b31m red\u009d0;title\u009c \x1b[2J\x1b]0;pwned\x07 end.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","description":"a\u0085b\u009bc \u001b[1m bold"}}}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return text("ok\u0085\u009b31m"), nil
				})
		},
		"resource": func() {
			s.AddTool(&mcp.Tool{Name: "resource", Description: "Returns an embedded resource.", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{
						&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "note text"}},
						&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///blob.bin", MIMEType: "application/octet-stream", Blob: []byte{1, 2, 3}}},
					}}, nil
				})
		},
	}
	names := []string{"echo", "add", "fail", "crash", "slow", "image", "resource"}
	if f := os.Getenv("MCPSERVER_TOOLSFILE"); f != "" {
		if b, err := os.ReadFile(f); err == nil {
			names = strings.Split(strings.TrimSpace(string(b)), ",")
		}
	}
	for _, n := range names {
		if add, ok := all[strings.TrimSpace(n)]; ok {
			add()
		}
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "mcpserver:", err)
	}
}
