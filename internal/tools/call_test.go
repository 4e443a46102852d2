package tools

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// Calls whose deadline or cancellation lands as their tool answers must
// never see another call's result: a job is reused only when nothing but
// its own result was sent on its channel.
func TestCallsRacingTheirDeadlineKeepTheirOwnResults(t *testing.T) {
	r := NewRegistry()
	tool := newTool("Echo", CategoryOther, Parameter{Name: "message", Type: TypeString, Description: "d", Required: true})
	tool.run = func(ctx context.Context, _ ExecutionContext, args Args) Result {
		time.Sleep(time.Duration(len(args["message"].(string))%3) * 100 * time.Microsecond)
		return OK(args["message"])
	}
	mustRegister(t, r, tool)
	e := NewExecutor(r, WithHistoryCapacity(0))
	dir := t.TempDir()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				msg := fmt.Sprintf("g%d-%d%s", g, i, "xx"[:i%3])
				ec := NewExecutionContext(dir)
				ec.Timeout = time.Duration(50+i%4*50) * time.Microsecond
				ctx, cancel := context.WithCancel(context.Background())
				if i%5 == 0 {
					time.AfterFunc(100*time.Microsecond, cancel)
				}
				res := e.Execute(ctx, "Echo", ec, Args{"message": msg})
				cancel()
				switch res.Status {
				case StatusSuccess:
					if res.Output != msg {
						t.Errorf("call %s got %v", msg, res.Output)
					}
				case StatusTimedOut, StatusCancelled:
					if res.Output != nil && res.Output != msg {
						t.Errorf("call %s ended with output %v", msg, res.Output)
					}
					// A stale wake-up from an earlier call would end this
					// one at once, long before its own deadline.
					if res.Status == StatusTimedOut && res.DurationMS < float64(ec.Timeout)/float64(time.Millisecond) {
						t.Errorf("call %s timed out after %.3f ms, before its deadline %v", msg, res.DurationMS, ec.Timeout)
					}
					if res.Status == StatusCancelled && i%5 != 0 {
						t.Errorf("call %s cancelled, but nobody cancelled it", msg)
					}
				default:
					t.Errorf("call %s: %+v", msg, res)
				}
			}
		}()
	}
	wg.Wait()
}

// cancelledOnLook is a caller's context that the caller cancels at the
// first look after a moment: it pins the window in which a deadline has
// fired and the caller cancels before the executor writes the result.
type cancelledOnLook struct {
	context.Context
	cancel context.CancelFunc
	after  time.Time
}

func (c cancelledOnLook) Err() error {
	if !time.Now().Before(c.after) {
		c.cancel()
	}
	return c.Context.Err()
}

// A deadline that fires first is a timeout even when the caller cancels
// before the result is written: the call's context remembers the first cause.
func TestDeadlineFirstStaysTimeoutWhenTheCallerCancelsLater(t *testing.T) {
	r := NewRegistry()
	slow := newTool("SlowTool", CategoryOther)
	slow.run = blocker(t)
	mustRegister(t, r, slow)
	e := NewExecutor(r)
	ec := NewExecutionContext("/")
	ec.Timeout = 20 * time.Millisecond
	inner, cancel := context.WithCancel(context.Background())
	defer cancel()
	parent := cancelledOnLook{Context: inner, cancel: cancel, after: time.Now().Add(ec.Timeout)}
	res := e.Execute(parent, "SlowTool", ec, nil)
	if res.Status != StatusTimedOut || res.Error != "Tool timed out after 0.02s" {
		t.Errorf("deadline, then the caller's cancel: %+v", res)
	}
	// Reading the caller's context after the deadline, as the executor once
	// did to tell a timeout from a cancellation, would have cancelled it and
	// said "Tool execution cancelled".
}
