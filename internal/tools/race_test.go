package tools

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// TestRaceEverythingAtOnce runs registration, deregistration, execution,
// listing, lazy builds and schema export from sixteen goroutines at once;
// under -race it proves the registry and executor share no unguarded state.
func TestRaceEverythingAtOnce(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, r, echo())
	if err := r.RegisterLazy(lazyDesc, func(context.Context, Deps) (Tool, error) { return &rtTool{name: "Lazy"}, nil }, Singleton); err != nil {
		t.Fatal(err)
	}
	e := NewExecutor(r, WithHistoryCapacity(50))
	const rounds = 40
	var wg sync.WaitGroup
	for g := range 4 { // registering and deregistering their own tools
		wg.Go(func() {
			for i := range rounds {
				name := fmt.Sprintf("t%d_%d", g, i%5)
				_ = r.Register(newTool(name, CategoryOther))
				if i%3 == 0 {
					r.Deregister(name)
				}
			}
		})
	}
	for g := range 4 { // executing, plain and lazy
		wg.Go(func() {
			for i := range rounds {
				e.Execute(context.Background(), "Echo", ExecutionContext{}, Args{"message": fmt.Sprint(g, i)})
				e.Execute(context.Background(), "Lazy", ExecutionContext{}, Args{"message": "x"})
				e.Execute(context.Background(), fmt.Sprintf("t%d_%d", g, i%5), ExecutionContext{}, nil)
			}
		})
	}
	for range 3 { // listing
		wg.Go(func() {
			for range rounds {
				_ = r.ListAll()
				_ = r.ListNames()
				_ = r.ListByCategory(CategoryOther)
				_ = r.Stats()
				_ = r.Count()
				_ = r.Version()
				_, _ = r.GetOrError("Echo")
			}
		})
	}
	for range 3 { // exporting
		wg.Go(func() {
			for range rounds {
				if _, err := e.Schemas(FormatOpenAI); err != nil {
					t.Error(err)
				}
				if _, err := e.SchemasByCategory(CategoryOther, FormatAnthropic); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Go(func() { // reading history and metrics
		for range rounds {
			_ = e.Executions()
			_ = e.Metrics()
			_ = e.TotalExecutions()
		}
	})
	wg.Go(func() { // clearing and closing
		for i := range rounds {
			if i%10 == 0 {
				e.ClearExecutions()
				_ = r.Close()
			}
		}
	})
	wg.Wait()
	if !r.Exists("Echo") || !r.Exists("Lazy") {
		t.Error("a tool nobody deregistered went missing")
	}
	if n := len(e.Executions()); n > 50 {
		t.Errorf("history holds %d records beyond its capacity 50", n)
	}
}
