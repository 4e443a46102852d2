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
