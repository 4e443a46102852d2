package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestExecuteCalls(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, r, echo())
	done := &rtTool{name: "task_completion", loop: true}
	mustRegister(t, r, done)
	e := NewExecutor(r)
	calls := []ToolCall{
		{ID: "1", Server: "local", Name: "Echo", Arguments: json.RawMessage(`{"message":"one"}`)},
		{ID: "2", Name: "task_completion", Arguments: json.RawMessage(`null`)},
		{ID: "3", Server: "remote", Name: "Echo", Arguments: json.RawMessage(`{"message":"x"}`)},
		{ID: "4", Name: "Echo", Arguments: json.RawMessage(`{"message":`)},
		{ID: "5", Name: "Nope"},
		{ID: "6", Name: "Echo", Arguments: json.RawMessage(`{"message":"six"}`)},
	}
	got := e.ExecuteCalls(context.Background(), NewExecutionContext("/"), calls)
	if len(got) != len(calls) {
		t.Fatalf("%d results for %d calls", len(got), len(calls))
	}
	for i, cr := range got {
		if cr.Call.ID != calls[i].ID {
			t.Errorf("result %d is for call %s: out of order", i, cr.Call.ID)
		}
	}
	check := func(i int, ok bool, kind ErrorKind, text string, loop bool) {
		t.Helper()
		cr := got[i]
		s := cr.Result.Error
		if ok {
			s = cr.Result.Display()
		}
		if cr.Result.Success != ok || cr.Result.ErrorKind != kind || !strings.Contains(s, text) || cr.LoopBreaking != loop {
			t.Errorf("call %s: %+v (loop %v)", cr.Call.ID, cr.Result, cr.LoopBreaking)
		}
	}
	check(0, true, KindNone, "one", false)
	check(1, true, KindNone, "", true)
	check(2, false, KindUnknownTool, `Server "remote" is not supported: only "local"`, false)
	check(3, false, KindValidation, "Invalid JSON arguments: ", false)
	check(4, false, KindUnknownTool, "Unknown tool: Nope", false)
	check(5, true, KindNone, "six", false)
	if got := e.TotalExecutions(); got != 6 {
		t.Errorf("TotalExecutions = %d, want every call recorded", got)
	}
	if got := e.ExecuteCalls(context.Background(), ExecutionContext{}, nil); len(got) != 0 {
		t.Errorf("empty batch = %v", got)
	}
	if got := e.ExecuteCalls(context.Background(), ExecutionContext{}, calls[:1]); got[0].Result.Output != "one" {
		t.Errorf("single call = %+v", got)
	}
}

func TestExecuteCallsIsConcurrentAndBounded(t *testing.T) {
	r := NewRegistry()
	var running, peak atomic.Int32
	slow := newTool("Slow", CategoryOther)
	slow.run = func(context.Context, ExecutionContext, Args) Result {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		running.Add(-1)
		return OK("")
	}
	mustRegister(t, r, slow)
	calls := make([]ToolCall, 12)
	for i := range calls {
		calls[i] = ToolCall{ID: fmt.Sprint(i), Name: "Slow"}
	}
	e := NewExecutor(r, WithConcurrency(4))
	for _, cr := range e.ExecuteCalls(context.Background(), ExecutionContext{}, calls) {
		if !cr.Result.Success {
			t.Fatal(cr.Result.Error)
		}
	}
	if p := peak.Load(); p < 2 || p > 4 {
		t.Errorf("peak concurrency = %d, want between 2 and the bound 4", p)
	}
	if DefaultConcurrency() < 16 {
		t.Errorf("DefaultConcurrency() = %d", DefaultConcurrency())
	}
}

func TestIsLoopBreakingSafe(t *testing.T) {
	if isLoopBreakingSafe(&panicLoop{rtTool{name: "P"}}) {
		t.Error("a panicking IsLoopBreaking counted as loop-breaking")
	}
}

type panicLoop struct{ rtTool }

func (*panicLoop) IsLoopBreaking() bool { panic("no") }
