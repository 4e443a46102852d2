package tools

import (
	"context"
	"sort"
	"sync"

	"github.com/rs/zerolog"
)

// Descriptor is what can be known of a tool without building it: enough to
// list it and export its schema.
type Descriptor struct {
	Name         string
	Description  string
	Category     Category
	Parameters   []Parameter
	LoopBreaking bool
}

// Describe returns the descriptor of a tool.
func Describe(t Tool) Descriptor {
	return Descriptor{Name: t.Name(), Description: t.Description(), Category: t.Category(), Parameters: t.Parameters(), LoopBreaking: IsLoopBreaking(t)}
}

// Deps are what a factory receives instead of reaching for globals.
type Deps struct {
	// Config is the tool's own configuration section (tools.<Name>), or nil.
	Config map[string]any
	// Logger is the process logger, with the tool's name attached.
	Logger zerolog.Logger
	// Services are shared values (an HTTP client, a process table...), by name.
	Services map[string]any
}

// DepsFunc supplies the dependencies of the named tool.
type DepsFunc func(toolName string) Deps

// Factory builds a tool from its dependencies.
type Factory func(ctx context.Context, deps Deps) (Tool, error)

// Instancing says how often a lazy tool is built.
type Instancing int

const (
	// Singleton builds the tool once, on first use, and keeps it.
	Singleton Instancing = iota
	// PerCall builds a fresh tool for every call.
	PerCall
)

// RegistryOption configures a Registry.
type RegistryOption func(*Registry)

// WithDeps sets where factories get their dependencies.
func WithDeps(f DepsFunc) RegistryOption { return func(r *Registry) { r.deps = f } }

// Registry holds tools by name (FR-2.1.2). It is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	tools   map[string]Tool
	deps    DepsFunc
	version uint64 // bumped on every change, for caches of exports
}

// NewRegistry returns an empty registry.
func NewRegistry(opts ...RegistryOption) *Registry {
	r := &Registry{tools: make(map[string]Tool)}
	for _, o := range opts {
		o(r)
	}
	return r
}

var (
	defaultMu  sync.Mutex
	defaultReg *Registry
)

// Default returns the process-wide registry, creating it on first use.
func Default() *Registry {
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if defaultReg == nil {
		defaultReg = NewRegistry()
	}
	return defaultReg
}

// ResetDefault replaces the process-wide registry with an empty one (tests).
func ResetDefault() {
	defaultMu.Lock()
	defer defaultMu.Unlock()
	defaultReg = NewRegistry()
}

// SetDeps sets where factories get their dependencies.
func (r *Registry) SetDeps(f DepsFunc) {
	r.mu.Lock()
	r.deps = f
	r.mu.Unlock()
}

// Register adds t. It fails with a *ToolError when the name is taken or the
// tool is malformed.
func (r *Registry) Register(t Tool) error {
	if err := CheckTool(Describe(t)); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.tools[t.Name()]; dup {
		return &ToolError{ToolName: t.Name(), Message: "Tool already registered", Err: ErrAlreadyRegistered}
	}
	r.tools[t.Name()] = t
	r.version++
	return nil
}

// RegisterMany registers each tool in order and stops at the first error.
func (r *Registry) RegisterMany(ts ...Tool) error {
	for _, t := range ts {
		if err := r.Register(t); err != nil {
			return err
		}
	}
	return nil
}

// RegisterLazy registers a tool that is built by f on first use (or for every
// call with PerCall). Listing and exporting use d and never build it.
func (r *Registry) RegisterLazy(d Descriptor, f Factory, how Instancing) error {
	return r.Register(newLazy(d, f, how, r))
}

// Deregister removes the named tool and reports whether it was there.
func (r *Registry) Deregister(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.tools[name]; !ok {
		return false
	}
	delete(r.tools, name)
	r.version++
	return true
}

// Get returns the named tool.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	t, ok := r.tools[name]
	r.mu.RUnlock()
	return t, ok
}

// GetOrError returns the named tool or a *ToolError saying it was not found.
func (r *Registry) GetOrError(name string) (Tool, error) {
	if t, ok := r.Get(name); ok {
		return t, nil
	}
	return nil, &ToolError{ToolName: name, Message: "Tool not found", Err: ErrNotFound}
}

// Exists reports whether a tool of that name is registered.
func (r *Registry) Exists(name string) bool {
	_, ok := r.Get(name)
	return ok
}

// ListAll returns every tool, sorted by name.
func (r *Registry) ListAll() []Tool {
	r.mu.RLock()
	out := make([]Tool, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t)
	}
	r.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// ListNames returns the names of all tools, sorted.
func (r *Registry) ListNames() []string {
	all := r.ListAll()
	names := make([]string, len(all))
	for i, t := range all {
		names[i] = t.Name()
	}
	return names
}

// ListByCategory returns the tools of one category, sorted by name.
func (r *Registry) ListByCategory(c Category) []Tool {
	var out []Tool
	for _, t := range r.ListAll() {
		if t.Category() == c {
			out = append(out, t)
		}
	}
	return out
}

// Count returns the number of registered tools.
func (r *Registry) Count() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.tools)
}

// Clear removes every tool.
func (r *Registry) Clear() {
	r.mu.Lock()
	r.tools = make(map[string]Tool)
	r.version++
	r.mu.Unlock()
}

// Version changes whenever the set of tools changes; caches key on it.
func (r *Registry) Version() uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.version
}

// Close closes every built tool that implements io.Closer and returns the
// errors joined.
func (r *Registry) Close() error {
	// TODO(core): close built lazy tools and plain tools implementing io.Closer.
	return nil
}

// Stats summarise the registry for the debug panel (seed 002 section 6).
type Stats struct {
	ID         string           // an identity for this registry instance
	Total      int              // number of tools
	ByCategory map[Category]int // every category, zero included
	Names      []string         // sorted
}
