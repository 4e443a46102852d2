package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
	"github.com/forgehq/forge/internal/version"
)

// ServeOptions say what `forge mcp serve` offers and how calls run.
type ServeOptions struct {
	// Context is the template of every call's execution context (working
	// directory, timeout, output cap).
	Context tools.ExecutionContext
	// Tools, when not empty, are the only tools served (by name).
	Tools []string
	// Category, when set, serves only that category's tools.
	Category tools.Category
	// DryRun serves every tool in dry-run mode: calls say what they would do.
	DryRun bool
	// Log receives the SDK's diagnostics (standard error in forge mcp
	// serve: standard output is the protocol). Nil discards them.
	Log io.Writer
}

// selectTools returns the descriptors to serve, sorted by name, or an error
// naming an unknown tool or category.
func selectTools(reg *tools.Registry, opts ServeOptions) ([]tools.Descriptor, error) {
	if opts.Category != "" && !opts.Category.Valid() {
		names := make([]string, 0, 7)
		for _, c := range tools.Categories() {
			names = append(names, string(c))
		}
		return nil, fmt.Errorf("Unknown category: %s (known: %s)", opts.Category, strings.Join(names, ", "))
	}
	var out []tools.Descriptor
	if len(opts.Tools) > 0 {
		for _, name := range opts.Tools {
			t, ok := reg.Get(name)
			if !ok {
				return nil, fmt.Errorf("Unknown tool: %s", name)
			}
			if opts.Category == "" || t.Category() == opts.Category {
				out = append(out, tools.Describe(t))
			}
		}
		slices.SortFunc(out, func(a, b tools.Descriptor) int { return strings.Compare(a.Name, b.Name) })
		return slices.CompactFunc(out, func(a, b tools.Descriptor) bool { return a.Name == b.Name }), nil
	}
	for _, t := range reg.ListAll() {
		if opts.Category == "" || t.Category() == opts.Category {
			out = append(out, tools.Describe(t))
		}
	}
	return out, nil
}

// NewMCPServer returns an MCP server whose tools are the selected tools of
// ex's registry. tools/list answers with each tool's mcp schema export;
// tools/call runs through ex (validation, timeout, cancellation, history,
// logs), and a failed result is a tool error (isError), not a protocol
// error, so that the model reads it.
func NewMCPServer(ex *tools.Executor, opts ServeOptions) (*mcp.Server, error) {
	descs, err := selectTools(ex.Registry(), opts)
	if err != nil {
		return nil, err
	}
	logw := opts.Log
	if logw == nil {
		logw = io.Discard
	}
	logger := slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s := mcp.NewServer(&mcp.Implementation{Name: "forge", Version: version.Version}, &mcp.ServerOptions{Logger: logger})
	ec := opts.Context
	if opts.DryRun {
		ec.DryRun = true
	}
	for _, d := range descs {
		tool, err := mcpTool(d)
		if err != nil {
			return nil, err
		}
		name := d.Name
		s.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var raw json.RawMessage
			if req.Params != nil {
				raw = req.Params.Arguments
			}
			if string(raw) == "null" {
				raw = nil
			}
			return fromResult(ex.ExecuteJSON(ctx, name, ec, raw)), nil
		})
	}
	return s, nil
}

// mcpTool is d in the mcp export format, as the SDK's Tool.
func mcpTool(d tools.Descriptor) (*mcp.Tool, error) {
	raw, err := tools.ExportSchema(d, tools.FormatMCP)
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", d.Name, err)
	}
	var def struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(raw, &def); err != nil {
		return nil, fmt.Errorf("tool %s: %w", d.Name, err)
	}
	return &mcp.Tool{Name: def.Name, Description: def.Description, InputSchema: def.InputSchema}, nil
}

// fromResult is a forge Result as an MCP tool result: the output (or the
// error) as text, isError on failure, and forge's status, error kind,
// duration and metadata under _meta.forge.
func fromResult(r tools.Result) *mcp.CallToolResult {
	text := r.Error
	if r.Success {
		switch out := r.Output.(type) {
		case string:
			text = out
		case nil:
			text = ""
		default:
			text = jsonText(out)
		}
	}
	meta := map[string]any{"status": r.Status, "duration_ms": r.DurationMS}
	if r.ErrorKind != "" {
		meta["error_kind"] = r.ErrorKind
	}
	if len(r.Metadata) > 0 {
		meta["metadata"] = r.Metadata
	}
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: text}},
		IsError: !r.Success,
		Meta:    mcp.Meta{"forge": meta},
	}
}

// Serve serves the selected tools of ex's registry to one MCP client
// speaking newline-delimited JSON-RPC on in and out (standard input and
// output in forge mcp serve). It returns when in ends or ctx is done.
// Lines that are not JSON-RPC get a JSON-RPC error and the session goes on.
func Serve(ctx context.Context, ex *tools.Executor, opts ServeOptions, in io.Reader, out io.Writer) error {
	s, err := NewMCPServer(ex, opts)
	if err != nil {
		return err
	}
	owed := newPending()
	w := &lockedWriter{w: out, owed: owed}
	pr, pw := io.Pipe()
	go guard(in, pw, w, owed)
	err = s.Run(ctx, &mcp.IOTransport{Reader: pr, Writer: w})
	_ = pr.Close()
	if errors.Is(err, io.EOF) {
		return nil // the client went away: a normal end
	}
	return err
}
