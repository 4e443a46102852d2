package tools

import "time"

// ring is a bounded history: once full, each new execution overwrites the
// oldest, so a long-lived process keeps at most capacity records.
type ring struct {
	buf      []Execution
	head     int // index of the oldest record once buf is full
	capacity int
}

// slot returns where the next record goes, overwriting the oldest once
// the ring is full, or nil when the history is off. Records are written in
// place: an Execution is large, and copying it twice per call shows.
func (h *ring) slot() *Execution {
	if h.capacity <= 0 {
		return nil
	}
	if len(h.buf) < h.capacity {
		h.buf = append(h.buf, Execution{})
		return &h.buf[len(h.buf)-1]
	}
	x := &h.buf[h.head]
	h.head++
	if h.head == h.capacity {
		h.head = 0
	}
	return x
}

// list returns the records oldest first, in a new slice.
func (h *ring) list() []Execution {
	out := make([]Execution, len(h.buf))
	n := copy(out, h.buf[h.head:])
	copy(out[n:], h.buf[:h.head])
	return out
}

func (h *ring) reset() {
	h.buf, h.head = nil, 0
}

// record adds one execution to the history, the running total and, for a
// registered tool, its metrics. Unknown names get no metrics entry, so a
// model inventing tool names cannot grow the map without bound.
func (e *Executor) record(name string, known bool, args Args, ec *ExecutionContext, r *Result, start, end time.Time) {
	d := end.Sub(start)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.total++
	e.seq++
	if x := e.hist.slot(); x != nil {
		x.Seq, x.ToolName, x.Parameters, x.Context, x.Result = e.seq, name, args, *ec, *r
		x.Context.LiveOutput, x.Context.Progress = nil, nil // the call's own, and over: the history must not keep its watchers alive
		x.StartedAt, x.CompletedAt, x.DurationMS = start, end, r.DurationMS
	}
	if !known {
		return
	}
	m := e.metrics[name]
	if m == nil {
		m = &Metrics{}
		e.metrics[name] = m
	}
	m.Calls++
	if !r.Success {
		m.Failures++
	}
	if r.Status == StatusTimedOut {
		m.Timeouts++
	}
	m.Total += d
	if d > m.Max {
		m.Max = d
	}
}

// Executions returns the recorded executions, oldest first: at most the
// history capacity, the newest kept.
func (e *Executor) Executions() []Execution {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.hist.list()
}

// TotalExecutions counts every execution since the executor was made or
// last cleared, including those the bounded history has dropped.
func (e *Executor) TotalExecutions() int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.total
}

// ClearExecutions forgets the history and the running total. Sequence
// numbers go on from where they were (they are never reused), and the
// per-tool metrics are kept.
func (e *Executor) ClearExecutions() {
	e.mu.Lock()
	e.hist.reset()
	e.total = 0
	e.mu.Unlock()
}

// Metrics returns a copy of the per-tool metrics, by tool name.
func (e *Executor) Metrics() map[string]Metrics {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]Metrics, len(e.metrics))
	for k, v := range e.metrics {
		out[k] = *v
	}
	return out
}

// ToolMetrics returns the metrics of one tool, and whether it has any.
func (e *Executor) ToolMetrics(name string) (Metrics, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if m, ok := e.metrics[name]; ok {
		return *m, true
	}
	return Metrics{}, false
}
