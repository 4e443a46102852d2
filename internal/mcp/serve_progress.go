package mcp

import (
	"bytes"
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
)

// progressEvery bounds how often a call's output becomes a progress
// notification: a command that prints fast must not flood the client.
const progressEvery = 200 * time.Millisecond

// callContext is ec for one served call: when the client asked for
// progress (a progress token), what the call prints (Bash's output) and
// the progress its tool reports reach the client as notifications.
func callContext(ctx context.Context, ec tools.ExecutionContext, req *mcp.CallToolRequest) tools.ExecutionContext {
	if req.Params == nil || req.Params.GetProgressToken() == nil {
		return ec
	}
	n := &notifier{ctx: ctx, session: req.Session, token: req.Params.GetProgressToken()}
	ec.LiveOutput = n
	ec.Progress = n.progress
	return ec
}

// notifier sends a served call's progress to its client.
type notifier struct {
	ctx     context.Context
	session *mcp.ServerSession
	token   any

	mu    sync.Mutex
	last  float64   // the last progress sent: it must grow
	sent  time.Time // when
	lines float64   // lines printed so far
}

// Write turns printed output into progress: the lines printed so far,
// with the last one as the message, at most every progressEvery.
func (n *notifier) Write(p []byte) (int, error) {
	n.mu.Lock()
	n.lines += float64(bytes.Count(p, []byte{'\n'}))
	if time.Since(n.sent) < progressEvery {
		n.mu.Unlock()
		return len(p), nil
	}
	msg := string(bytes.TrimSpace(lastLine(p)))
	progress := max(n.lines, n.last+1)
	n.last, n.sent = progress, time.Now()
	n.mu.Unlock()
	n.send(&mcp.ProgressNotificationParams{ProgressToken: n.token, Progress: progress, Message: oneLine(msg)})
	return len(p), nil
}

// progress passes a tool's own report on, kept growing.
func (n *notifier) progress(p tools.Progress) {
	n.mu.Lock()
	progress := max(p.Progress, n.last+1)
	total := p.Total
	if total != 0 && total < progress {
		total = 0
	}
	n.last, n.sent = progress, time.Now()
	n.mu.Unlock()
	n.send(&mcp.ProgressNotificationParams{ProgressToken: n.token, Progress: progress, Total: total, Message: p.Message})
}

// send never blocks the call on a slow client for long.
func (n *notifier) send(p *mcp.ProgressNotificationParams) {
	ctx, cancel := context.WithTimeout(n.ctx, time.Second)
	defer cancel()
	_ = n.session.NotifyProgress(ctx, p)
}

// lastLine is the last non-empty line of p.
func lastLine(p []byte) []byte {
	p = bytes.TrimRight(p, "\r\n")
	if i := bytes.LastIndexByte(p, '\n'); i >= 0 {
		return p[i+1:]
	}
	return p
}
