package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// defaultMaxTotal bounds a call whose timeout progress resets, when the
// configuration sets no total.
const defaultMaxTotal = time.Hour

// errSilent is the cause of a call ended for want of progress.
var errSilent = errors.New("no progress")

// callWatch passes a call's progress on to the person and, when the
// server's timeout is reset by progress, ends the call once the server
// has been silent for that long.
type callWatch struct {
	show   func(tools.Progress)
	limit  time.Duration // the silence allowed
	cancel context.CancelCauseFunc
	mu     sync.Mutex
	timer  *time.Timer // nil unless progress resets the timeout
}

// watch returns the call's context and its watch.
func (t *remoteTool) watch(ctx context.Context, ec tools.ExecutionContext) (context.Context, *callWatch) {
	w := &callWatch{show: ec.Progress}
	if !t.srv.cfg.ResetTimeoutOnProgress {
		return ctx, w
	}
	w.limit = t.srv.cfg.Timeout
	if w.limit <= 0 {
		w.limit = ec.Timeout
	}
	if w.limit <= 0 {
		w.limit = tools.DefaultTimeout
	}
	ctx, w.cancel = context.WithCancelCause(ctx)
	w.timer = time.AfterFunc(w.limit, func() { w.cancel(errSilent) })
	return ctx, w
}

// progress takes one notification.
func (w *callWatch) progress(p tools.Progress) {
	if w.show != nil {
		w.show(p)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Reset(w.limit)
	}
}

func (w *callWatch) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
		w.cancel(nil)
	}
}

// ended is the result of a call whose context ended before its answer.
func ended(ctx context.Context, silence time.Duration) tools.Result {
	r := tools.Fail("Tool execution cancelled")
	r.Status, r.ErrorKind = tools.StatusCancelled, tools.KindCancelled
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errSilent):
		r.Error = fmt.Sprintf("Tool timed out: the MCP server sent no progress for %s", silence)
		r.Status, r.ErrorKind = tools.StatusTimedOut, tools.KindTimeout
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		r.Status, r.ErrorKind = tools.StatusTimedOut, tools.KindTimeout
	}
	return r
}
