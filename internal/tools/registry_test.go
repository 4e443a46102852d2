package tools

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Scenario: Register a tool
func TestRegistryRegister(t *testing.T) {
	r := NewRegistry()
	read := newTool("Read", CategoryFile)
	if err := r.Register(read); err != nil {
		t.Fatalf("Register: %v", err)
	}
	if !r.Exists("Read") {
		t.Error(`Exists("Read") = false`)
	}
	if got := r.Count(); got != 1 {
		t.Errorf("Count() = %d, want 1", got)
	}
}

// Scenario: Register multiple tools
// Scenario: List tool names
func TestRegistryRegisterMany(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, r, fileTools()...)
	if got := r.Count(); got != 3 {
		t.Errorf("Count() = %d, want 3", got)
	}
	// Registered as Read, Write, Bash; listed sorted alphabetically.
	if got, want := r.ListNames(), []string{"Bash", "Read", "Write"}; !slices.Equal(got, want) {
		t.Errorf("ListNames() = %v, want %v", got, want)
	}
}

func TestRegistryRegisterManyIsAllOrNothing(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, r, newTool("Read", CategoryFile))
	v := r.Version()
	tests := []struct {
		name  string
		tools []Tool
		want  error
		msg   string
	}{
		{"duplicate of registered", []Tool{newTool("Grep", CategoryFile), newTool("Read", CategoryFile)}, ErrAlreadyRegistered, "Tool 'Read' error: Tool already registered"},
		{"duplicate within batch", []Tool{newTool("Glob", CategoryFile), newTool("Glob", CategoryFile)}, ErrAlreadyRegistered, "already registered"},
		{"malformed", []Tool{newTool("Glob", CategoryFile), newTool("bad name", CategoryFile)}, ErrInvalidTool, "Invalid tool name"},
		{"nil", []Tool{newTool("Glob", CategoryFile), nil}, ErrInvalidTool, "Cannot register a nil tool"},
		{"typed nil", []Tool{(*rtTool)(nil)}, ErrInvalidTool, "panicked while describing itself"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := r.RegisterMany(tc.tools...)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			var te *ToolError
			if !errors.As(err, &te) {
				t.Fatalf("err %T is not a *ToolError", err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("err = %q, want it to contain %q", err, tc.msg)
			}
			if got := r.ListNames(); !slices.Equal(got, []string{"Read"}) {
				t.Errorf("after a refused batch ListNames() = %v, want [Read]", got)
			}
			if r.Version() != v {
				t.Errorf("a refused batch changed the version")
			}
		})
	}
}

// Scenario: Prevent duplicate registration
func TestRegistryDuplicate(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, r, newTool("Read", CategoryFile))
	err := r.Register(newTool("Read", CategoryFile))
	var te *ToolError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v (%T), want a *ToolError", err, err)
	}
	if !strings.Contains(err.Error(), "already registered") || te.ToolName != "Read" {
		t.Errorf("err = %q (tool %q)", err, te.ToolName)
	}
	if !errors.Is(err, ErrAlreadyRegistered) {
		t.Error("err does not wrap ErrAlreadyRegistered")
	}
}

// Scenario: Get tool by name - exists
// Scenario: Get tool by name - not found
// Scenario: Get tool or raise - exists
// Scenario: Get tool or raise - not found
func TestRegistryGet(t *testing.T) {
	r := NewRegistry()
	read := newTool("Read", CategoryFile)
	mustRegister(t, r, read)

	if got, ok := r.Get("Read"); !ok || got != Tool(read) {
		t.Errorf(`Get("Read") = %v, %v; want the ReadTool instance`, got, ok)
	}
	if got, ok := r.Get("Unknown"); ok || got != nil {
		t.Errorf(`Get("Unknown") = %v, %v; want nil, false`, got, ok)
	}
	if got, err := r.GetOrError("Read"); err != nil || got != Tool(read) {
		t.Errorf(`GetOrError("Read") = %v, %v`, got, err)
	}
	_, err := r.GetOrError("Unknown")
	var te *ToolError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "not found") || !errors.Is(err, ErrNotFound) {
		t.Errorf(`GetOrError("Unknown") err = %v, want a *ToolError containing "not found"`, err)
	}
}

// Scenario: Deregister a tool
// Scenario: Deregister non-existent tool
func TestRegistryDeregister(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, r, newTool("Read", CategoryFile))
	if !r.Deregister("Read") {
		t.Error(`Deregister("Read") = false, want true`)
	}
	if r.Exists("Read") {
		t.Error(`Exists("Read") after Deregister = true`)
	}
	if r.Deregister("Unknown") {
		t.Error(`Deregister("Unknown") = true, want false`)
	}
}

// Scenario: List all tools
// Scenario: List tools by category
func TestRegistryListing(t *testing.T) {
	r := NewRegistry()
	tools := fileTools()
	mustRegister(t, r, tools...)

	all := r.ListAll()
	if len(all) != 3 {
		t.Fatalf("ListAll() has %d tools, want 3", len(all))
	}
	for _, want := range tools {
		if !slices.Contains(all, want) {
			t.Errorf("ListAll() lacks %s", want.Name())
		}
	}
	all[0] = nil // the slice is the caller's
	if r.ListAll()[0] == nil {
		t.Error("ListAll returned the registry's own slice")
	}

	var names []string
	for _, tl := range r.ListByCategory(CategoryFile) {
		names = append(names, tl.Name())
	}
	if want := []string{"Read", "Write"}; !slices.Equal(names, want) {
		t.Errorf("ListByCategory(file) = %v, want %v (no Bash)", names, want)
	}
	if got := r.ListByCategory(CategoryWeb); len(got) != 0 {
		t.Errorf("ListByCategory(web) = %v, want none", got)
	}
}

// Scenario: Clear registry
func TestRegistryClear(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, r, fileTools()...)
	v := r.Version()
	r.Clear()
	if r.Count() != 0 || len(r.ListAll()) != 0 || len(r.ListNames()) != 0 {
		t.Errorf("after Clear: Count %d, ListAll %v", r.Count(), r.ListAll())
	}
	if r.Version() == v {
		t.Error("Clear did not change the version")
	}
}

// Scenario: Registry is singleton
// Scenario: Reset singleton for testing
func TestDefaultRegistry(t *testing.T) {
	t.Cleanup(resetDefault)
	a, b := Default(), Default()
	if a != b {
		t.Fatal("Default() returned two registries")
	}
	mustRegister(t, a, newTool("Read", CategoryFile))
	resetDefault()
	if c := Default(); c == a || c.Count() != 0 {
		t.Errorf("after resetDefault: same instance %v, Count %d", c == a, c.Count())
	}
}

func TestZeroRegistryIsEmptyAndUsable(t *testing.T) {
	var r Registry
	if r.Count() != 0 || r.Exists("Read") || r.Version() != 0 {
		t.Fatal("zero Registry is not empty")
	}
	mustRegister(t, &r, newTool("Read", CategoryFile))
	if !r.Exists("Read") {
		t.Error("zero Registry did not register")
	}
}

func TestRegistryVersionChangesOnEveryWrite(t *testing.T) {
	r := NewRegistry()
	seen := map[uint64]bool{r.Version(): true}
	step := func(what string) {
		v := r.Version()
		if seen[v] {
			t.Errorf("version %d repeated after %s", v, what)
		}
		seen[v] = true
	}
	mustRegister(t, r, newTool("Read", CategoryFile))
	step("Register")
	if err := r.RegisterLazy(Descriptor{Name: "Lazy", Description: "d", Category: CategoryOther}, func(context.Context, Deps) (Tool, error) { return nil, errBoom }, Singleton); err != nil {
		t.Fatal(err)
	}
	step("RegisterLazy")
	r.Deregister("Read")
	step("Deregister")
	r.Clear()
	step("Clear")
	r.Deregister("Nothing")
	if seen[r.Version()] != true {
		t.Error("a Deregister that removed nothing changed the version")
	}
}

func TestRegistryStats(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, r, fileTools()...)
	mustRegister(t, r, newTool("WebFetch", CategoryWeb))
	st := r.Stats()
	if !regexp.MustCompile(`^0x[0-9a-f]+$`).MatchString(st.ID) || st.ID != fmt.Sprintf("%p", r) {
		t.Errorf("ID = %q, want %p", st.ID, r)
	}
	if st.Total != 4 {
		t.Errorf("Total = %d, want 4", st.Total)
	}
	want := map[Category]int{CategoryFile: 2, CategoryExecution: 1, CategoryWeb: 1, CategoryTask: 0, CategoryNotebook: 0, CategoryMCP: 0, CategoryOther: 0}
	if len(st.ByCategory) != len(want) {
		t.Errorf("ByCategory = %v, want every category", st.ByCategory)
	}
	for c, n := range want {
		if got, ok := st.ByCategory[c]; !ok || got != n {
			t.Errorf("ByCategory[%s] = %d, %v; want %d", c, got, ok, n)
		}
	}
	if w := []string{"Bash", "Read", "WebFetch", "Write"}; !slices.Equal(st.Names, w) {
		t.Errorf("Names = %v, want %v", st.Names, w)
	}
	if NewRegistry().Stats().ID == st.ID {
		t.Error("two registries share an ID")
	}
}

// Scenario: Concurrent tool registration
func TestRegistryConcurrentRegistration(t *testing.T) {
	r := NewRegistry()
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for i := range 10 {
		wg.Go(func() {
			if err := r.Register(newTool(fmt.Sprintf("tool_%d", i), CategoryOther)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if r.Count() != 10 {
		t.Errorf("Count() = %d, want all 10 tools", r.Count())
	}
}

func TestRegistryID(t *testing.T) {
	if got := NewRegistry(WithID("0xfeed")).Stats().ID; got != "0xfeed" {
		t.Errorf("ID = %q, want the given one", got)
	}
	if got := NewRegistry().Stats().ID; !strings.HasPrefix(got, "0x") {
		t.Errorf("default ID = %q, want an address", got)
	}
}

// resetDefault replaces the process-wide registry with an empty one, so that
// a test starts from none of another's tools.
func resetDefault() {
	defaultMu.Lock()
	defer defaultMu.Unlock()
	defaultReg = NewRegistry()
}
