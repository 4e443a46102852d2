package tools

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// lazyTool stands in the registry for a tool that is built on first use.
// Its descriptor answers every question asked for listing and export, so
// those never build it.
type lazyTool struct {
	d   Descriptor
	f   Factory
	how Instancing
	reg *Registry

	inst atomic.Pointer[builtTool] // the singleton, once built

	mu       sync.Mutex // guards inflight and swaps of inst
	inflight *buildCall // the singleton build under way, if any
}

// builtTool boxes a Tool so that it fits an atomic.Pointer.
type builtTool struct{ t Tool }

// buildCall is one run of the factory, shared by every caller that asked
// while it ran (so a hundred goroutines asking at once build once).
type buildCall struct {
	done chan struct{}
	t    Tool
	err  error
}

func newLazy(d Descriptor, f Factory, how Instancing, reg *Registry) *lazyTool {
	return &lazyTool{d: d, f: f, how: how, reg: reg}
}

// Name returns the descriptor's name.
func (l *lazyTool) Name() string { return l.d.Name }

// Description returns the descriptor's description.
func (l *lazyTool) Description() string { return l.d.Description }

// Category returns the descriptor's category.
func (l *lazyTool) Category() Category { return l.d.Category }

// Parameters returns the descriptor's parameters.
func (l *lazyTool) Parameters() []Parameter { return l.d.Parameters }

// IsLoopBreaking returns the descriptor's LoopBreaking.
func (l *lazyTool) IsLoopBreaking() bool { return l.d.LoopBreaking }

// IsReadOnly returns the descriptor's ReadOnly.
func (l *lazyTool) IsReadOnly() bool { return l.d.ReadOnly }

// RunsConfined returns the descriptor's Confined.
func (l *lazyTool) RunsConfined() bool { return l.d.Confined }

// Present forwards to the descriptor's Presenter, so that a result can be
// shown as its tool wants without building the tool.
func (l *lazyTool) Present(args Args, res Result) Presentation {
	if l.d.Presenter == nil {
		return Presentation{}
	}
	return l.d.Presenter.Present(args, res)
}

// AdoptArgs forwards to the descriptor's Adopt, so that a call's
// arguments are adopted before the tool is built (and decided on).
func (l *lazyTool) AdoptArgs(args Args) Args {
	if l.d.Adopt == nil {
		return args
	}
	return l.d.Adopt.AdoptArgs(args)
}

// build runs the factory and Init. A panic in either is an error, never a
// crash: a broken tool must not take the process down.
func (l *lazyTool) build(ctx context.Context) (t Tool, err error) {
	defer func() {
		if p := recover(); p != nil {
			t, err = nil, fmt.Errorf("factory panicked: %v", p)
		}
	}()
	var deps Deps
	if l.reg != nil {
		deps = l.reg.depsFor(l.d.Name)
	}
	t, err = l.f(ctx, deps)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, errors.New("factory returned no tool")
	}
	if t.Name() != l.d.Name {
		closeTool(t)
		return nil, fmt.Errorf("factory built tool %q instead", t.Name())
	}
	if in, ok := t.(Initializer); ok {
		if err := in.Init(ctx); err != nil {
			closeTool(t)
			return nil, fmt.Errorf("init: %w", err)
		}
	}
	return t, nil
}

// start runs the factory in its own goroutine, so that callers can stop
// waiting at their deadline even when the factory ignores its context.
func (l *lazyTool) start(ctx context.Context, after func(*buildCall)) *buildCall {
	c := &buildCall{done: make(chan struct{})}
	go func() {
		c.t, c.err = l.build(ctx)
		if after != nil {
			after(c)
		}
		close(c.done)
	}()
	return c
}

// get returns the instance to run, building it if needed. Errors are
// *ToolError naming the tool, or the context's error when the caller gave up
// waiting. Callers of a PerCall tool must hand the instance back to put.
func (l *lazyTool) get(ctx context.Context) (Tool, error) {
	if l.how == PerCall {
		c := l.start(ctx, nil)
		select {
		case <-c.done:
			return c.t, l.wrap(c.err)
		case <-ctx.Done():
			// Nobody will use what the factory builds: close it once built.
			go func() {
				<-c.done
				if c.t != nil {
					closeTool(c.t)
				}
			}()
			return nil, ctx.Err()
		}
	}
	if t := l.ready(); t != nil {
		return t, nil
	}
	l.mu.Lock()
	if t := l.ready(); t != nil {
		l.mu.Unlock()
		return t, nil
	}
	c := l.inflight
	if c == nil {
		// A failure is shared by the callers waiting for this build only;
		// the next caller tries again, so a passing fault is not fatal.
		c = l.start(ctx, func(c *buildCall) {
			l.mu.Lock()
			if c.err == nil {
				l.inst.Store(&builtTool{t: c.t})
			}
			l.inflight = nil
			l.mu.Unlock()
		})
		l.inflight = c
	}
	l.mu.Unlock()
	select {
	case <-c.done:
		return c.t, l.wrap(c.err)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// ready returns the built singleton, or nil when there is none yet (always
// for a PerCall tool). It is one atomic load.
func (l *lazyTool) ready() Tool {
	if b := l.inst.Load(); b != nil {
		return b.t
	}
	return nil
}

// put releases an instance returned by get: a PerCall instance is closed.
func (l *lazyTool) put(t Tool) error {
	if l.how != PerCall || t == nil {
		return nil
	}
	return closeTool(t)
}

func (l *lazyTool) wrap(err error) error {
	if err == nil {
		return nil
	}
	return &ToolError{ToolName: l.d.Name, Message: "could not be created: " + err.Error(), Err: err}
}

// factoryResult is the failed result for a tool that could not be built.
func factoryResult(name string, err error) Result {
	var te *ToolError
	msg := err.Error()
	if errors.As(err, &te) {
		msg = te.Message
	}
	r := Fail(fmt.Sprintf("Tool %s %s", name, msg))
	r.ErrorKind = KindFactory
	return r
}

// Execute builds the tool if needed and runs it. The executor does not call
// it (it resolves the instance itself, to apply its deadline to the build
// and to ask the instance about dry runs and timeouts); it serves callers
// that hold the Tool directly.
func (l *lazyTool) Execute(ctx context.Context, ec ExecutionContext, args Args) Result {
	t, err := l.get(ctx)
	if err != nil {
		if cause := ctx.Err(); cause != nil {
			return deadlineResult(cause, ec.withDefaults().Timeout)
		}
		return factoryResult(l.d.Name, err)
	}
	defer l.put(t)
	return t.Execute(ctx, ec, args)
}

// DryRun forwards to the built tool when it describes its dry runs, and
// otherwise gives the executor's generic description.
func (l *lazyTool) DryRun(ec ExecutionContext, args Args) string {
	t, err := l.getFor(ec)
	if err == nil {
		defer l.put(t)
		if dr, ok := t.(DryRunner); ok {
			return dr.DryRun(ec, args)
		}
	}
	return genericDryRun(l.d.Name, args)
}

// ChangedFiles forwards to the built tool when it names the files it
// changes; none otherwise.
func (l *lazyTool) ChangedFiles(ec ExecutionContext, args Args) []string {
	t, err := l.getFor(ec)
	if err != nil {
		return nil
	}
	defer l.put(t)
	if fc, ok := t.(FileChanger); ok {
		return fc.ChangedFiles(ec, args)
	}
	return nil
}

// PreviewChange forwards to the built tool when it previews its changes;
// ErrNoPreview otherwise. A tool that cannot be built would fail the call.
func (l *lazyTool) PreviewChange(ec ExecutionContext, args Args) (Change, error) {
	t, err := l.getFor(ec)
	if err != nil {
		return Change{}, errors.New(factoryResult(l.d.Name, err).Error)
	}
	defer l.put(t)
	if cp, ok := t.(ChangePreviewer); ok {
		return cp.PreviewChange(ec, args)
	}
	return Change{}, ErrNoPreview
}

// Egress forwards to the built tool when the descriptor declares it
// Networked; other tools are not built to be asked. A tool that cannot be
// built to say where it sends is taken to send anywhere, so the question
// is asked rather than skipped.
func (l *lazyTool) Egress(ec ExecutionContext, args Args) Egress {
	if !l.d.Networked {
		return Egress{}
	}
	t, err := l.getFor(ec)
	if err != nil {
		return Egress{OpenWorld: true}
	}
	defer l.put(t)
	return EgressOf(t, ec, args)
}

// CallTimeout forwards to the built tool when it chooses its deadline, and
// otherwise returns 0 ("use the context's timeout").
func (l *lazyTool) CallTimeout(ec ExecutionContext, raw Args) time.Duration {
	t, err := l.getFor(ec)
	if err != nil {
		return 0
	}
	defer l.put(t)
	if d, ok := t.(Deadliner); ok {
		return d.CallTimeout(ec, raw)
	}
	return 0
}

// getFor builds the tool for a method that has no context, bounded by the
// execution context's timeout.
func (l *lazyTool) getFor(ec ExecutionContext) (Tool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ec.withDefaults().Timeout)
	defer cancel()
	return l.get(ctx)
}

// Close closes the built singleton, if any, and forgets it, so a later call
// builds a fresh one.
func (l *lazyTool) Close() error {
	l.mu.Lock()
	b := l.inst.Swap(nil)
	l.mu.Unlock()
	if b == nil {
		return nil
	}
	return closeTool(b.t)
}
