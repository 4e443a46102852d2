package tools

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

var lazyDesc = Descriptor{Name: "Lazy", Description: "A lazily built tool", Category: CategoryOther,
	Parameters: []Parameter{{Name: "message", Type: TypeString, Description: "Message", Required: true}}}

func TestLazyListingAndExportNeverBuild(t *testing.T) {
	r := NewRegistry()
	var builds atomic.Int32
	err := r.RegisterLazy(lazyDesc, func(context.Context, Deps) (Tool, error) {
		builds.Add(1)
		return &rtTool{name: "Lazy"}, nil
	}, Singleton)
	if err != nil {
		t.Fatal(err)
	}
	e := NewExecutor(r)
	_ = r.ListAll()
	_ = r.ListNames()
	_ = r.ListByCategory(CategoryOther)
	_ = r.Stats()
	tl, _ := r.Get("Lazy")
	if d := Describe(tl); d.Name != "Lazy" || len(d.Parameters) != 1 || d.Description != lazyDesc.Description {
		t.Errorf("Describe(lazy) = %+v", d)
	}
	for _, f := range []Format{FormatOpenAI, FormatAnthropic} {
		if _, err := e.Schemas(f); err != nil {
			t.Fatalf("Schemas(%s): %v", f, err)
		}
	}
	if n := builds.Load(); n != 0 {
		t.Fatalf("listing and export built the tool %d times", n)
	}
	if r := e.Execute(context.Background(), "Lazy", ExecutionContext{}, Args{"message": "hi"}); !r.Success || r.Output != "hi" {
		t.Fatalf("Execute = %+v", r)
	}
	if n := builds.Load(); n != 1 {
		t.Errorf("builds after one call = %d, want 1", n)
	}
}

func TestLazySingletonBuiltOnceUnderContention(t *testing.T) {
	r := NewRegistry()
	var builds, inits atomic.Int32
	gate := make(chan struct{})
	err := r.RegisterLazy(lazyDesc, func(context.Context, Deps) (Tool, error) {
		builds.Add(1)
		<-gate // keep every caller waiting on the same build
		ct := &closableTool{rtTool{name: "Lazy"}}
		ct.inits.Store(0)
		return &countingInit{closableTool: ct, n: &inits}, nil
	}, Singleton)
	if err != nil {
		t.Fatal(err)
	}
	e := NewExecutor(r)
	var wg sync.WaitGroup
	var ok atomic.Int32
	start := make(chan struct{})
	for range 100 {
		wg.Go(func() {
			<-start
			if res := e.Execute(context.Background(), "Lazy", ExecutionContext{}, Args{"message": "x"}); res.Success {
				ok.Add(1)
			}
		})
	}
	close(start)
	time.Sleep(10 * time.Millisecond) // let the callers pile up on the build
	close(gate)
	wg.Wait()
	if builds.Load() != 1 || inits.Load() != 1 {
		t.Errorf("factory ran %d times, Init %d times; want 1 and 1", builds.Load(), inits.Load())
	}
	if ok.Load() != 100 {
		t.Errorf("%d of 100 calls succeeded", ok.Load())
	}
}

// countingInit counts Init calls in a shared counter.
type countingInit struct {
	*closableTool
	n *atomic.Int32
}

func (c *countingInit) Init(context.Context) error { c.n.Add(1); return nil }

func TestLazyFactoryFailures(t *testing.T) {
	tests := []struct {
		name    string
		factory Factory
		want    string
	}{
		{"error", func(context.Context, Deps) (Tool, error) { return nil, errBoom }, "Tool Lazy could not be created: boom"},
		{"panic", func(context.Context, Deps) (Tool, error) { panic("kaboom") }, "Tool Lazy could not be created: factory panicked: kaboom"},
		{"nil tool", func(context.Context, Deps) (Tool, error) { return nil, nil }, "Tool Lazy could not be created: factory returned no tool"},
		{"wrong name", func(context.Context, Deps) (Tool, error) { return &rtTool{name: "Other"}, nil }, `Tool Lazy could not be created: factory built tool "Other" instead`},
		{"init fails", func(context.Context, Deps) (Tool, error) {
			return &closableTool{rtTool{name: "Lazy", initErr: errBoom}}, nil
		}, "Tool Lazy could not be created: init: boom"},
	}
	for _, tc := range tests {
		for _, how := range []Instancing{Singleton, PerCall} {
			t.Run(tc.name, func(t *testing.T) {
				r := NewRegistry()
				if err := r.RegisterLazy(lazyDesc, tc.factory, how); err != nil {
					t.Fatal(err)
				}
				res := NewExecutor(r).Execute(context.Background(), "Lazy", ExecutionContext{}, Args{"message": "x"})
				if res.Success || res.ErrorKind != KindFactory || res.Status != StatusFailed || res.Error != tc.want {
					t.Errorf("result = %+v, want a failed %s result %q", res, KindFactory, tc.want)
				}
			})
		}
	}
}

func TestLazyFailureIsNotCachedForever(t *testing.T) {
	r := NewRegistry()
	var calls atomic.Int32
	err := r.RegisterLazy(lazyDesc, func(context.Context, Deps) (Tool, error) {
		if calls.Add(1) == 1 {
			return nil, errBoom
		}
		return &rtTool{name: "Lazy"}, nil
	}, Singleton)
	if err != nil {
		t.Fatal(err)
	}
	e := NewExecutor(r)
	if res := e.Execute(context.Background(), "Lazy", ExecutionContext{}, Args{"message": "a"}); res.ErrorKind != KindFactory {
		t.Fatalf("first call = %+v, want a factory failure", res)
	}
	if res := e.Execute(context.Background(), "Lazy", ExecutionContext{}, Args{"message": "b"}); !res.Success || res.Output != "b" {
		t.Fatalf("second call = %+v, want the retried build to run", res)
	}
	e.Execute(context.Background(), "Lazy", ExecutionContext{}, Args{"message": "c"})
	if calls.Load() != 2 {
		t.Errorf("factory ran %d times, want 2 (a success is kept)", calls.Load())
	}
}

func TestLazyPerCallBuildsAndClosesEachCall(t *testing.T) {
	r := NewRegistry()
	var mu sync.Mutex
	var built []*closableTool
	err := r.RegisterLazy(lazyDesc, func(context.Context, Deps) (Tool, error) {
		ct := &closableTool{rtTool{name: "Lazy"}}
		mu.Lock()
		built = append(built, ct)
		mu.Unlock()
		return ct, nil
	}, PerCall)
	if err != nil {
		t.Fatal(err)
	}
	e := NewExecutor(r)
	for range 3 {
		if res := e.Execute(context.Background(), "Lazy", ExecutionContext{}, Args{"message": "x"}); !res.Success {
			t.Fatalf("Execute = %+v", res)
		}
	}
	// A dry run builds too (to ask the instance) and closes as well.
	if res := e.Execute(context.Background(), "Lazy", ExecutionContext{DryRun: true}, Args{"message": "x"}); res.Status != StatusDryRun {
		t.Fatalf("dry run = %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(built) != 4 {
		t.Fatalf("built %d instances, want 4", len(built))
	}
	for i, ct := range built {
		if ct.inits.Load() != 1 || ct.closed.Load() != 1 {
			t.Errorf("instance %d: Init %d times, Close %d times; want 1 and 1", i, ct.inits.Load(), ct.closed.Load())
		}
	}
}

func TestLazyDeps(t *testing.T) {
	type svc struct{ name string }
	shared := &svc{"http"}
	var got Deps
	var asked []string
	deps := func(name string) Deps {
		asked = append(asked, name)
		return Deps{Config: map[string]any{"root": "/srv/" + name}, Services: map[string]any{"http": shared}}
	}
	factory := func(_ context.Context, d Deps) (Tool, error) {
		got = d
		return &rtTool{name: "Lazy"}, nil
	}
	for _, how := range []string{"WithDeps", "SetDeps", "none"} {
		t.Run(how, func(t *testing.T) {
			got, asked = Deps{}, nil
			var r *Registry
			switch how {
			case "WithDeps":
				r = NewRegistry(WithDeps(deps))
			case "SetDeps":
				r = NewRegistry()
				r.SetDeps(deps)
			default:
				r = NewRegistry()
			}
			if err := r.RegisterLazy(lazyDesc, factory, Singleton); err != nil {
				t.Fatal(err)
			}
			NewExecutor(r).Execute(context.Background(), "Lazy", ExecutionContext{}, Args{"message": "x"})
			if how == "none" {
				if got.Config != nil || got.Services != nil {
					t.Errorf("deps without DepsFunc = %+v", got)
				}
				got.Logger.Info().Msg("a Nop logger must be usable")
				return
			}
			if len(asked) != 1 || asked[0] != "Lazy" {
				t.Errorf("DepsFunc asked for %v, want [Lazy]", asked)
			}
			if got.Config["root"] != "/srv/Lazy" || got.Services["http"] != shared {
				t.Errorf("factory got %+v", got)
			}
		})
	}
}

func TestLazyForwardsDryRunAndCallTimeout(t *testing.T) {
	r := NewRegistry()
	err := r.RegisterLazy(lazyDesc, func(context.Context, Deps) (Tool, error) {
		return &dryTool{rtTool: rtTool{name: "Lazy"}, timeout: 20 * time.Millisecond}, nil
	}, Singleton)
	if err != nil {
		t.Fatal(err)
	}
	plainDesc := lazyDesc
	plainDesc.Name = "Plain"
	if err := r.RegisterLazy(plainDesc, func(context.Context, Deps) (Tool, error) { return &rtTool{name: "Plain"}, nil }, PerCall); err != nil {
		t.Fatal(err)
	}
	brokenDesc := lazyDesc
	brokenDesc.Name = "Broken"
	if err := r.RegisterLazy(brokenDesc, func(context.Context, Deps) (Tool, error) { return nil, errBoom }, Singleton); err != nil {
		t.Fatal(err)
	}
	args := Args{"message": "x"}
	ec := NewExecutionContext("/w")

	lazy, _ := r.Get("Lazy")
	if got := lazy.(DryRunner).DryRun(ec, args); got != "Would say x" {
		t.Errorf("lazy DryRun = %q", got)
	}
	if got := lazy.(Deadliner).CallTimeout(ec, args); got != 20*time.Millisecond {
		t.Errorf("lazy CallTimeout = %v", got)
	}
	for _, name := range []string{"Plain", "Broken"} {
		tl, _ := r.Get(name)
		if got := tl.(DryRunner).DryRun(ec, args); got != `Would run `+name+` with {"message":"x"}` {
			t.Errorf("%s DryRun = %q, want the generic text", name, got)
		}
		if got := tl.(Deadliner).CallTimeout(ec, args); got != 0 {
			t.Errorf("%s CallTimeout = %v, want 0", name, got)
		}
	}

	// Through the executor: the instance's own deadline and dry run apply.
	e := NewExecutor(r)
	res := e.Execute(context.Background(), "Lazy", NewExecutionContext("/w"), Args{"message": "slow"})
	if res.Status != StatusTimedOut || res.Error != "Tool timed out after 0.02s" {
		t.Errorf("Execute with CallTimeout = %+v", res)
	}
	ec.DryRun = true
	if res := e.Execute(context.Background(), "Lazy", ec, args); res.Output != "[Dry Run] Would say x" {
		t.Errorf("dry run = %+v", res)
	}
}

// dryTool describes its dry runs and chooses its deadline; "slow" blocks
// until its context ends.
type dryTool struct {
	rtTool
	timeout time.Duration
}

func (d *dryTool) DryRun(_ ExecutionContext, args Args) string {
	return "Would say " + args.String("message")
}
func (d *dryTool) CallTimeout(ExecutionContext, Args) time.Duration {
	return d.timeout
}
func (d *dryTool) Execute(ctx context.Context, ec ExecutionContext, args Args) Result {
	if args.String("message") == "slow" {
		<-ctx.Done()
		return Fail(ctx.Err().Error())
	}
	return OK(args.String("message"))
}

func TestLazyDirectExecute(t *testing.T) {
	r := NewRegistry()
	if err := r.RegisterLazy(lazyDesc, func(context.Context, Deps) (Tool, error) { return &rtTool{name: "Lazy"}, nil }, PerCall); err != nil {
		t.Fatal(err)
	}
	bad := lazyDesc
	bad.Name = "Bad"
	if err := r.RegisterLazy(bad, func(context.Context, Deps) (Tool, error) { return nil, errBoom }, Singleton); err != nil {
		t.Fatal(err)
	}
	lz, _ := r.Get("Lazy")
	if res := lz.Execute(context.Background(), ExecutionContext{}, Args{"message": "direct"}); res.Output != "direct" {
		t.Errorf("direct Execute = %+v", res)
	}
	b, _ := r.Get("Bad")
	if res := b.Execute(context.Background(), ExecutionContext{}, nil); res.ErrorKind != KindFactory || !strings.Contains(res.Error, "Bad") {
		t.Errorf("direct Execute of a broken factory = %+v", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	blocked := lazyDesc
	blocked.Name = "Blocked"
	if err := r.RegisterLazy(blocked, func(ctx context.Context, _ Deps) (Tool, error) { <-ctx.Done(); return nil, ctx.Err() }, Singleton); err != nil {
		t.Fatal(err)
	}
	bl, _ := r.Get("Blocked")
	if res := bl.Execute(ctx, ExecutionContext{}, nil); res.Status != StatusCancelled {
		t.Errorf("direct Execute with a cancelled context = %+v", res)
	}
}

func TestLazyFactoryIgnoringContextMeetsDeadline(t *testing.T) {
	for _, how := range []Instancing{Singleton, PerCall} {
		r := NewRegistry()
		release := make(chan struct{})
		var closed atomic.Int32
		err := r.RegisterLazy(lazyDesc, func(context.Context, Deps) (Tool, error) {
			<-release // ignores its context
			ct := &closableTool{rtTool{name: "Lazy"}}
			return &closeCounter{ct, &closed}, nil
		}, how)
		if err != nil {
			t.Fatal(err)
		}
		res := NewExecutor(r).Execute(context.Background(), "Lazy", ExecutionContext{Timeout: 20 * time.Millisecond}, Args{"message": "x"})
		if res.Status != StatusTimedOut || res.Error != "Tool timed out after 0.02s" {
			t.Errorf("how %d: result = %+v", how, res)
		}
		close(release)
		if how == PerCall {
			// Nobody used the late instance: it is closed once built.
			waitFor(t, "the abandoned per-call instance to be closed", func() bool { return closed.Load() == 1 })
		}
	}
}

type closeCounter struct {
	*closableTool
	n *atomic.Int32
}

func (c *closeCounter) Close() error { c.n.Add(1); return nil }

func TestRegistryClose(t *testing.T) {
	r := NewRegistry()
	plain := &closableTool{rtTool{name: "Plain"}}
	failing := &closableTool{rtTool{name: "Failing", closeErr: errBoom}}
	notCloser := newTool("NotCloser", CategoryOther)
	mustRegister(t, r, plain, failing, notCloser)

	var lazies []*closableTool
	var mu sync.Mutex
	mk := func(name string) Factory {
		return func(context.Context, Deps) (Tool, error) {
			ct := &closableTool{rtTool{name: name}}
			mu.Lock()
			lazies = append(lazies, ct)
			mu.Unlock()
			return ct, nil
		}
	}
	for _, name := range []string{"Built", "Unbuilt", "Removed"} {
		d := lazyDesc
		d.Name = name
		if err := r.RegisterLazy(d, mk(name), Singleton); err != nil {
			t.Fatal(err)
		}
	}
	e := NewExecutor(r)
	for _, name := range []string{"Built", "Removed"} {
		if res := e.Execute(context.Background(), name, ExecutionContext{}, Args{"message": "x"}); !res.Success {
			t.Fatal(res.Error)
		}
	}
	r.Deregister("Removed")

	err := r.Close()
	if !errors.Is(err, errBoom) || !strings.Contains(err.Error(), "close tool Failing: boom") {
		t.Errorf("Close = %v, want the Failing tool's error", err)
	}
	if plain.closed.Load() != 1 || failing.closed.Load() != 1 {
		t.Errorf("plain tools closed %d and %d times", plain.closed.Load(), failing.closed.Load())
	}
	if len(lazies) != 2 {
		t.Fatalf("built %d lazy tools, want 2 (Unbuilt must stay unbuilt)", len(lazies))
	}
	for _, ct := range lazies {
		if ct.closed.Load() != 1 {
			t.Errorf("lazy %s closed %d times, want 1", ct.name, ct.closed.Load())
		}
	}
	// A closed singleton is built afresh on its next use.
	if res := e.Execute(context.Background(), "Built", ExecutionContext{}, Args{"message": "x"}); !res.Success || len(lazies) != 3 {
		t.Errorf("after Close: %+v, %d builds", res, len(lazies))
	}
	r.Clear()
	if err := r.Close(); err != nil {
		t.Errorf("Close after Clear = %v", err)
	}
	if lazies[2].closed.Load() != 1 {
		t.Error("the rebuilt singleton, removed by Clear, was not closed by Close")
	}
}

func TestCloseToolRecoversPanic(t *testing.T) {
	err := closeTool(&panicCloser{rtTool{name: "P"}})
	if err == nil || !strings.Contains(err.Error(), "close tool P: panic: no close") {
		t.Errorf("closeTool = %v", err)
	}
	if got := safeName((*rtTool)(nil)); got != "?" {
		t.Errorf("safeName(nil) = %q", got)
	}
}

type panicCloser struct{ rtTool }

func (*panicCloser) Close() error { panic("no close") }

func TestRegisterLazyRefusesBadArguments(t *testing.T) {
	r := NewRegistry()
	if err := r.RegisterLazy(lazyDesc, nil, Singleton); !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), "no factory") {
		t.Errorf("nil factory: %v", err)
	}
	f := func(context.Context, Deps) (Tool, error) { return nil, nil }
	if err := r.RegisterLazy(lazyDesc, f, Instancing(7)); !errors.Is(err, ErrInvalidTool) {
		t.Errorf("bad instancing: %v", err)
	}
}

func TestPerCallCloseFailureIsLogged(t *testing.T) {
	var buf bytes.Buffer
	r := NewRegistry()
	err := r.RegisterLazy(lazyDesc, func(context.Context, Deps) (Tool, error) {
		return &closableTool{rtTool{name: "Lazy", closeErr: errBoom}}, nil
	}, PerCall)
	if err != nil {
		t.Fatal(err)
	}
	e := NewExecutor(r, WithLogger(zerolog.New(&buf)))
	if res := e.Execute(context.Background(), "Lazy", ExecutionContext{}, Args{"message": "x"}); !res.Success {
		t.Fatalf("a failing Close spoiled the result: %+v", res)
	}
	if !strings.Contains(buf.String(), `"level":"warn","component":"tools","message":"Tool Lazy could not be closed: close tool Lazy: boom"`) {
		t.Errorf("log = %s", buf.String())
	}
}
