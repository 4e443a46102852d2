package agent

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/forgehq/forge/internal/tools"
)

// callContext is the context p runs in: the run's, with what the call
// prints sent on as tool_output events (through w), and its questions to
// the person announced (tool_question), so that a view drawing over the
// terminal stops before the question is asked. w.close ends the events:
// what a finished call's leftover children print is no longer the call's.
func (r *run) callContext(p *pending) (ec tools.ExecutionContext, w *liveWriter) {
	ec = r.a.cfg.Exec
	ec.CallID = p.call.ID
	// A caller's own watchers (an MCP client's progress) still get what
	// the call prints and reports, besides the events.
	w = &liveWriter{emit: r.emit, call: &p.call, also: ec.LiveOutput, alsoProgress: ec.Progress}
	ec.LiveOutput = w
	ec.Progress = w.progress
	if ec.Asker != nil {
		ec.Asker = announcedAsker{asker: ec.Asker, announce: func() { r.emit(Event{Type: EventToolQuestion, Call: &p.call}) }}
	}
	return ec, w
}

// keepPrinted adds to a cancelled call's result what the call printed
// until then, so that the model knows how far it got.
func keepPrinted(res *CallResult, w *liveWriter) {
	if res.Status != StatusCancelled {
		return
	}
	if out := strings.TrimRight(w.printed(), "\n"); out != "" {
		res.Output += "\n\nWhat it printed before it was cancelled:\n" + out
	}
}

// liveWriter turns what a running call prints into tool_output events,
// and keeps it (its head and tail) for the model should the call be
// cancelled: a cancelled call's result is the executor's, which does not
// wait for the tool's own. It never fails: the call's own output does
// not depend on anyone watching it.
type liveWriter struct {
	mu     sync.Mutex
	closed bool
	emit   func(Event)
	call   *Call
	kept   headTail
	// also and alsoProgress, when set, get the output and progress too.
	also         io.Writer
	alsoProgress func(tools.Progress)
}

func (w *liveWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed && len(p) > 0 {
		w.kept.write(p)
		w.emit(Event{Type: EventToolOutput, Call: w.call, Text: string(p)})
		if w.also != nil {
			_, _ = w.also.Write(p)
		}
	}
	return len(p), nil
}

// progress turns a report of how far the call has got into a progress
// event, until the call ends.
func (w *liveWriter) progress(p tools.Progress) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.emit(Event{Type: EventToolProgress, Call: w.call, Progress: &p})
		if w.alsoProgress != nil {
			w.alsoProgress(p)
		}
	}
}

// printed is what the call printed, its middle cut when long; "" when
// nothing.
func (w *liveWriter) printed() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.kept.String()
}

// keptHalf is how much of the start, and of the end, of a call's output
// the agent keeps: together the most of one result the model reads.
const keptHalf = maxResultBytes / 2

// headTail keeps the first and the last keptHalf bytes of what is
// written, and counts what it drops between them.
type headTail struct {
	head    []byte
	tail    []byte // a ring once full; start is its oldest byte
	start   int
	dropped int64
}

func (h *headTail) write(p []byte) {
	if n := min(keptHalf-len(h.head), len(p)); n > 0 {
		h.head = append(h.head, p[:n]...)
		p = p[n:]
	}
	for len(p) > 0 {
		if len(h.tail) < keptHalf {
			n := min(keptHalf-len(h.tail), len(p))
			h.tail = append(h.tail, p[:n]...)
			p = p[n:]
			continue
		}
		if len(p) >= keptHalf {
			h.dropped += int64(len(h.tail) + len(p) - keptHalf)
			h.tail, h.start = append(h.tail[:0], p[len(p)-keptHalf:]...), 0
			return
		}
		n := min(keptHalf-h.start, len(p))
		copy(h.tail[h.start:], p[:n])
		h.dropped += int64(n)
		h.start = (h.start + n) % keptHalf
		p = p[n:]
	}
}

func (h *headTail) String() string {
	tail := string(h.tail[h.start:]) + string(h.tail[:h.start])
	if h.dropped == 0 {
		return string(h.head) + tail
	}
	return string(h.head) + fmt.Sprintf("\n[... %d bytes not kept ...]\n", h.dropped) + tail
}

// close ends the events, waiting for one under way.
func (w *liveWriter) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
}

// announcedAsker is an Asker that says it is about to ask.
type announcedAsker struct {
	asker    tools.Asker
	announce func()
}

func (a announcedAsker) Ask(ctx context.Context, question string) (string, error) {
	a.announce()
	return a.asker.Ask(ctx, question)
}

// changeToShow is the change p is about to make, worked out before it
// runs by the same code that will apply it: a file edit in a run whose
// view shows changes (ShowChanges), so that what it did can be looked at
// afterwards whether or not the question showed it first. nil otherwise,
// and when the change cannot be worked out (the call will report why).
func (r *run) changeToShow(p *pending) *tools.Change {
	if !r.a.cfg.ShowChanges || r.a.cfg.Exec.DryRun || p.tool == nil || p.call.Args == nil || !editsFiles(p.tool) {
		return nil
	}
	c, err := tools.PreviewChange(p.tool, r.a.cfg.Exec, p.call.Args)
	if err != nil {
		return nil
	}
	return &c
}
