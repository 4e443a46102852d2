package mcp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
	"github.com/forgehq/forge/internal/version"
)

// ServeOptions say what `forge mcp serve` offers and how calls run.
type ServeOptions struct {
	// Context is the template of every call's execution context (working
	// directory, timeout, output cap).
	Context tools.ExecutionContext
	// Tools picks the tools served by name, read-only or not; AllTools
	// among them serves every tool. Empty serves the read-only tools only,
	// so that a client gets nothing that writes files or runs commands
	// unless the user asked for it.
	Tools []string
	// Category, when set, serves only that category's tools.
	Category tools.Category
	// DryRun serves every tool in dry-run mode: calls say what they would do.
	DryRun bool
	// Log receives the line naming the tools served and the SDK's
	// diagnostics (standard error in forge mcp serve: standard output is
	// the protocol). Nil discards them.
	Log io.Writer
	// Call runs one call the way every other caller's calls run (hooks,
	// the approval policy, the sandbox, the executor); nil runs it on the
	// executor alone.
	Call func(ctx context.Context, c Served) tools.Result
	// Rand is the source of the key that signs the approval questions put
	// to clients; nil is crypto/rand.
	Rand io.Reader
}

func (o ServeOptions) rand() io.Reader {
	if o.Rand == nil {
		return rand.Reader
	}
	return o.Rand
}

// Served is one call a client made, for ServeOptions.Call.
type Served struct {
	Name string
	// Exec is the context it runs in: the served one, with the client's
	// progress watchers.
	Exec tools.ExecutionContext
	// Args are the arguments as the client sent them; nil for none.
	Args json.RawMessage
	// Confirm asks the person at the client whether the call may run;
	// nil when the client cannot be asked (it offers no elicitation).
	Confirm Confirm
}

// Confirm puts a yes-or-no question about a call to the person at the
// client (MCP elicitation) and reports their yes.
type Confirm func(ctx context.Context, question string) (bool, error)

// stopTimes say how Serve ends when its client closes its input.
type stopTimes struct {
	// grace is how long calls still running may finish after the input
	// ended, so that a script piping its requests in gets its answers;
	// then they are cancelled.
	grace time.Duration
	// cancelled bounds the wait for cancelled calls to answer. The
	// executor answers a cancelled call at once, even when its tool
	// ignores the cancellation, so this is only a backstop.
	cancelled time.Duration
}

var defaultStopTimes = stopTimes{grace: time.Second, cancelled: 5 * time.Second}

// newServer returns an MCP server whose tools are the selected tools of
// ex's registry, and the descriptors it serves. tools/list answers with each
// tool's mcp schema export; tools/call runs through ex (validation, timeout,
// cancellation, history, logs), and a failed result is a tool error
// (isError), not a protocol error, so that the model reads it. Every call is
// also cancelled when calls is done.
func newServer(ex *tools.Executor, opts ServeOptions, calls context.Context) (*mcp.Server, []tools.Descriptor, error) {
	descs, err := selectTools(ex.Registry(), opts)
	if err != nil {
		return nil, nil, err
	}
	logger := slog.New(slog.NewTextHandler(logWriter(opts), &slog.HandlerOptions{Level: slog.LevelWarn}))
	// The served set is fixed when serving starts: no list_changed.
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Logging: &mcp.LoggingCapabilities{}}
	s := mcp.NewServer(&mcp.Implementation{Name: "forge", Version: version.Version}, &mcp.ServerOptions{Logger: logger, Capabilities: caps})
	// The key signs the questions put to clients, for this server's life.
	key := make([]byte, 32)
	if _, err := opts.rand().Read(key); err != nil {
		return nil, nil, fmt.Errorf("a key for the approval questions: %w", err)
	}
	ec := opts.Context
	if opts.DryRun {
		ec.DryRun = true
	}
	for _, d := range descs {
		tool, err := mcpTool(d)
		if err != nil {
			return nil, nil, err
		}
		name := d.Name
		s.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ctx, cancel := context.WithCancelCause(ctx)
			defer cancel(nil)
			stop := context.AfterFunc(calls, func() { cancel(context.Cause(calls)) })
			defer stop()
			var raw json.RawMessage
			if req.Params != nil {
				raw = req.Params.Arguments
			}
			if string(raw) == "null" {
				raw = nil
			}
			c := Served{Name: name, Exec: callContext(ctx, ec, req), Args: raw}
			ask := newAsking(key, req)
			if ask != nil {
				c.Confirm = ask.confirm
			}
			res := serveCall(ctx, ex, opts, c)
			if q := ask.inputRequest(); q != nil {
				return q, nil
			}
			logCall(ctx, req.Session, name, res)
			return fromResult(res), nil
		})
	}
	return s, descs, nil
}

// logCall tells the client, at the level it asked for (logging/setLevel),
// how a call ended: info for a success, a warning for a failure.
func logCall(ctx context.Context, ss *mcp.ServerSession, name string, r tools.Result) {
	if ss == nil {
		return
	}
	l := slog.New(mcp.NewLoggingHandler(ss, &mcp.LoggingHandlerOptions{LoggerName: "forge"}))
	if r.Success {
		l.InfoContext(ctx, "Tool "+name+" succeeded", "duration_ms", r.DurationMS)
		return
	}
	l.WarnContext(ctx, "Tool "+name+" failed: "+r.Error, "status", string(r.Status), "duration_ms", r.DurationMS)
}

// serveCall runs one call through opts.Call, or the executor alone.
func serveCall(ctx context.Context, ex *tools.Executor, opts ServeOptions, c Served) tools.Result {
	if opts.Call == nil {
		return ex.ExecuteJSON(ctx, c.Name, c.Exec, c.Args)
	}
	return opts.Call(ctx, c)
}

func logWriter(opts ServeOptions) io.Writer {
	if opts.Log == nil {
		return io.Discard
	}
	return opts.Log
}

// mcpTool is d in the mcp export format, as the SDK's Tool, with the
// annotations forge knows: a read-only tool says so (and that it is
// idempotent), any other that it may destroy; every one says whether its
// calls reach other hosts (openWorldHint).
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
	t := &mcp.Tool{Name: def.Name, Description: def.Description, InputSchema: def.InputSchema}
	// A tool that runs commands can reach any host, whatever sandbox its
	// calls run in here: the client cannot know that one.
	openWorld := d.Networked || d.Confined || d.Category == tools.CategoryExecution
	a := &mcp.ToolAnnotations{Title: d.Name, ReadOnlyHint: d.ReadOnly, OpenWorldHint: &openWorld}
	if d.ReadOnly {
		a.IdempotentHint = true
	} else {
		destructive := true
		a.DestructiveHint = &destructive
	}
	t.Annotations = a
	return t, nil
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
// output in forge mcp serve), after naming them on opts.Log. Lines that are
// not JSON-RPC get a JSON-RPC error and the session goes on. A request the
// client cancels (notifications/cancelled) is stopped and gets no answer.
//
// Serve returns when ctx is done or when in ends. The end of the input is
// the client's way to stop the server: calls still running get a moment to
// answer (a script that pipes its requests in gets its answers), then are
// cancelled (a Bash command's process group is killed), and Serve returns
// within seconds, even if a tool ignores its cancellation.
func Serve(ctx context.Context, ex *tools.Executor, opts ServeOptions, in io.Reader, out io.Writer) error {
	return serve(ctx, ex, opts, in, out, defaultStopTimes)
}

func serve(ctx context.Context, ex *tools.Executor, opts ServeOptions, in io.Reader, out io.Writer, times stopTimes) error {
	calls, stopCalls := context.WithCancelCause(ctx)
	defer stopCalls(nil)
	s, descs, err := newServer(ex, opts, calls)
	if err != nil {
		return err
	}
	announce(opts, descs, "")
	owed := newPending()
	w := &lockedWriter{w: out, owed: owed}
	pr, pw := io.Pipe()
	defer pr.Close()
	inputEnded := make(chan struct{})
	go func() {
		guard(in, pw, w, owed)
		close(inputEnded)
	}()
	ran := make(chan error, 1)
	go func() { ran <- s.Run(ctx, &mcp.IOTransport{Reader: pr, Writer: w}) }()

	select {
	case err := <-ran:
		return sessionEnd(err)
	case <-inputEnded:
	}
	owed.wait(times.grace)
	stopCalls(errors.New("the client closed its input"))
	owed.wait(times.cancelled)
	pw.Close() // the SDK sees the end of the input and ends the session
	return sessionEnd(<-ran)
}

// sessionEnd is Serve's result for the SDK's: the client going away is a
// normal end.
func sessionEnd(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
