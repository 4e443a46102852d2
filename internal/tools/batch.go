package tools

import (
	"context"
	"fmt"
	"runtime"
	"sync"
)

// WithConcurrency bounds how many calls of one ExecuteCalls batch run at
// once; n <= 0 means the default, DefaultConcurrency().
func WithConcurrency(n int) ExecutorOption {
	return func(e *Executor) { e.concurrency = n }
}

// DefaultConcurrency is the default bound of ExecuteCalls: four calls per
// processor, at least 16, since most tools wait on I/O rather than compute.
func DefaultConcurrency() int {
	return max(runtime.GOMAXPROCS(0)*4, 16)
}

// ExecuteCalls runs a batch of independent calls, as a model asks for them
// in one turn, concurrently (at most the executor's concurrency at once), and
// returns their results in call order. Each result says whether its tool
// breaks the agent loop. A call for another server than "local", or with
// malformed arguments, is a failed result like any other.
func (e *Executor) ExecuteCalls(ctx context.Context, ec ExecutionContext, calls []ToolCall) []CallResult {
	out := make([]CallResult, len(calls))
	if len(calls) == 1 {
		out[0] = e.executeCall(ctx, ec, calls[0])
		return out
	}
	limit := e.concurrency
	if limit <= 0 {
		limit = DefaultConcurrency()
	}
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for i, c := range calls {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			out[i] = e.executeCall(ctx, ec, c)
		})
	}
	wg.Wait()
	return out
}

// executeCall runs one call of a batch.
func (e *Executor) executeCall(ctx context.Context, ec ExecutionContext, c ToolCall) CallResult {
	cr := CallResult{Call: c}
	if c.Server != "" && c.Server != LocalServer {
		cr.Result = e.reject(c.Name, nil, ec, Result{Status: StatusFailed,
			Error:     fmt.Sprintf("Server %q is not supported: only %q", c.Server, LocalServer),
			ErrorKind: KindUnknownTool, Metadata: map[string]any{"server_name": c.Server}})
		return cr
	}
	cr.Result = e.ExecuteJSON(ctx, c.Name, ec, c.Arguments)
	if t, ok := e.reg.Get(c.Name); ok {
		cr.LoopBreaking = isLoopBreakingSafe(t)
	}
	return cr
}

// isLoopBreakingSafe is IsLoopBreaking, with a panicking tool taken as not
// loop-breaking.
func isLoopBreakingSafe(t Tool) (b bool) {
	defer func() {
		if recover() != nil {
			b = false
		}
	}()
	return IsLoopBreaking(t)
}
