package tools

import (
	"context"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// BenchmarkExecuteNoop is a whole Execute of a tool that does nothing, with
// history on and logging at info level into a discarded writer, timeout
// machinery included (target: <= 1.5 µs).
func BenchmarkExecuteNoop(b *testing.B) {
	r := NewRegistry()
	noop := newTool("Noop", CategoryOther, Parameter{Name: "message", Type: TypeString, Description: "d"})
	res := OK("done")
	noop.run = func(context.Context, ExecutionContext, Args) Result { return res }
	mustRegister(b, r, noop)
	e := NewExecutor(r, WithLogger(zerolog.New(io.Discard).Level(zerolog.InfoLevel)))
	ctx := context.Background()
	ec := NewExecutionContext("/work")
	args := Args{"message": "hi"}
	b.ReportAllocs()
	c0 := processCPU()
	for b.Loop() {
		if r := e.Execute(ctx, "Noop", ec, args); !r.Success {
			b.Fatal(r.Error)
		}
	}
	b.ReportMetric(float64(processCPU()-c0)/float64(b.N), "cpu-ns/op")
}

// sleepTool sleeps 1 ms. It implements Tool itself, as the built-in tools
// do, rather than through rtTool's function field, whose extra frame (it
// passes the context and result by value once more) is a test helper's
// cost, not a tool's.
type sleepTool struct{}

func (sleepTool) Name() string            { return "Sleep" }
func (sleepTool) Description() string     { return "Sleep 1 ms" }
func (sleepTool) Category() Category      { return CategoryOther }
func (sleepTool) Parameters() []Parameter { return nil }
func (sleepTool) Execute(context.Context, ExecutionContext, Args) Result {
	time.Sleep(time.Millisecond)
	return Result{Success: true}
}

// BenchmarkExecuteConcurrent10k runs 10,000 executions of a tool that
// sleeps 1 ms, all at once, and reports the wall time of a batch (target:
// <= 50 ms on 2 cores).
func BenchmarkExecuteConcurrent10k(b *testing.B) {
	r := NewRegistry()
	mustRegister(b, r, sleepTool{})
	e := NewExecutor(r, WithLogger(zerolog.New(io.Discard).Level(zerolog.InfoLevel)))
	ec := NewExecutionContext("/work")
	const n = 10000
	var total time.Duration
	b.ReportAllocs()
	c0 := processCPU()
	for b.Loop() {
		start := time.Now()
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				if r := e.Execute(context.Background(), "Sleep", ec, nil); !r.Success {
					b.Error(r.Error)
				}
			})
		}
		wg.Wait()
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/batch")
	b.ReportMetric(float64((processCPU()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/batch")
}

// BenchmarkGoroutines10kBaseline is the floor under
// BenchmarkExecuteConcurrent10k: 10,000 bare goroutines sleeping 1 ms, no
// executor. The difference between the two is what forge adds.
func BenchmarkGoroutines10kBaseline(b *testing.B) {
	var total time.Duration
	c0 := processCPU()
	for b.Loop() {
		start := time.Now()
		var wg sync.WaitGroup
		for range 10000 {
			wg.Go(func() { time.Sleep(time.Millisecond) })
		}
		wg.Wait()
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/batch")
	b.ReportMetric(float64((processCPU()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/batch")
}
