package tools

import "time"

// Execution records one call: the tool, its arguments and context, its
// result and when it ran.
type Execution struct {
	Seq         int64            `json:"seq"` // 1 for the first call of this executor, never reused
	ToolName    string           `json:"tool"`
	Parameters  Args             `json:"parameters"`
	Context     ExecutionContext `json:"context"`
	Result      Result           `json:"result"`
	StartedAt   time.Time        `json:"started_at"`
	CompletedAt time.Time        `json:"completed_at"`
	DurationMS  float64          `json:"duration_ms"`
}

// Metrics are the running totals of one tool since the executor started.
type Metrics struct {
	Calls    int64         `json:"calls"`
	Failures int64         `json:"failures"`
	Timeouts int64         `json:"timeouts"`
	Total    time.Duration `json:"total"`
	Max      time.Duration `json:"max"`
}
