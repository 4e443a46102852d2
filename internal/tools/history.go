package tools

import "time"

// ring is a bounded history: once full, each new execution overwrites the
// oldest, so a long-lived process keeps at most capacity records.
type ring struct {
	buf      []Execution
	head     int // index of the oldest record once buf is full
	capacity int
}

func (h *ring) add(x Execution) {
	if h.capacity <= 0 {
		return
	}
	if len(h.buf) < h.capacity {
		h.buf = append(h.buf, x)
		return
	}
	h.buf[h.head] = x
	h.head++
	if h.head == h.capacity {
		h.head = 0
	}
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
func (e *Executor) record(known bool, x Execution, d time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.total++
	e.seq++
	x.Seq = e.seq
	e.hist.add(x)
	if !known {
		return
	}
	m := e.metrics[x.ToolName]
	if m == nil {
		m = &Metrics{}
		e.metrics[x.ToolName] = m
	}
	m.Calls++
	if !x.Result.Success {
		m.Failures++
	}
	if x.Result.Status == StatusTimedOut {
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
