package tools

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// rtTool is a configurable tool for the runtime tests (registry, lazy
// tools, executor). run defaults to echoing the "message" argument.
type rtTool struct {
	name   string
	desc   string
	cat    Category
	params []Parameter
	run    func(ctx context.Context, ec ExecutionContext, args Args) Result
	loop   bool

	closed   atomic.Int32
	closeErr error
	inits    atomic.Int32
	initErr  error
}

func (t *rtTool) Name() string { return t.name }
func (t *rtTool) Description() string {
	if t.desc == "" {
		return "The " + t.name + " test tool"
	}
	return t.desc
}
func (t *rtTool) Category() Category {
	if t.cat == "" {
		return CategoryOther
	}
	return t.cat
}
func (t *rtTool) Parameters() []Parameter { return t.params }
func (t *rtTool) IsLoopBreaking() bool    { return t.loop }
func (t *rtTool) Execute(ctx context.Context, ec ExecutionContext, args Args) Result {
	if t.run != nil {
		return t.run(ctx, ec, args)
	}
	return OK(args.String("message"))
}

// closableTool is an rtTool that is an io.Closer and an Initializer.
type closableTool struct{ rtTool }

func (t *closableTool) Close() error {
	t.closed.Add(1)
	return t.closeErr
}

func (t *closableTool) Init(context.Context) error {
	t.inits.Add(1)
	return t.initErr
}

func newTool(name string, cat Category, params ...Parameter) *rtTool {
	return &rtTool{name: name, cat: cat, params: params}
}

// echo is the Echo tool: it returns its required "message".
func echo() *rtTool {
	return &rtTool{name: "Echo", desc: "Echo the message back", params: []Parameter{
		{Name: "message", Type: TypeString, Description: "Message to echo", Required: true},
	}}
}

// fileTools are Read, Write and Bash, each with its required parameters.
func fileTools() []Tool {
	return []Tool{
		newTool("Read", CategoryFile, Parameter{Name: "file_path", Type: TypeString, Description: "Absolute path to the file", Required: true}),
		newTool("Write", CategoryFile,
			Parameter{Name: "file_path", Type: TypeString, Description: "Absolute path to the file", Required: true},
			Parameter{Name: "content", Type: TypeString, Description: "Content to write", Required: true}),
		newTool("Bash", CategoryExecution, Parameter{Name: "command", Type: TypeString, Description: "Command to run", Required: true}),
	}
}

func mustRegister(t testing.TB, r *Registry, ts ...Tool) {
	t.Helper()
	if err := r.RegisterMany(ts...); err != nil {
		t.Fatalf("RegisterMany: %v", err)
	}
}

// blocker returns a run function that ignores its context and blocks until
// the test ends, like a tool stuck in a system call.
func blocker(t testing.TB) func(context.Context, ExecutionContext, Args) Result {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	return func(context.Context, ExecutionContext, Args) Result {
		<-release
		return OK("too late")
	}
}

// waitFor polls cond for up to two seconds; for effects that happen on an
// abandoned goroutine.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

var errBoom = errors.New("boom")
