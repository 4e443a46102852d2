package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

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
	// ReadOnly declares that the tool changes nothing (see ReadOnlyTool).
	ReadOnly bool
	// Networked declares that the tool's calls may send data to other
	// hosts; the built tool names them (see Networked). A lazy tool that
	// does not declare it is not built to be asked.
	Networked bool
	// Confined declares that the tool's commands run in the call's
	// sandbox (see Confined).
	Confined bool
	// InputSchema, when set, is the tool's own JSON Schema of its
	// arguments (see SchemaTool), which exports and models get instead of
	// the one Parameters make.
	InputSchema json.RawMessage
	// Presenter, when set, presents the tool's results (see Presenter);
	// it lets a lazily built tool present them without being built.
	Presenter Presenter
	// Adopt, when set, adopts the arguments other agents' tools name
	// otherwise (see ArgAdopter).
	Adopt ArgAdopter
}

// Describe returns the descriptor of a tool.
func Describe(t Tool) Descriptor {
	d := Descriptor{Name: t.Name(), Description: t.Description(), Category: t.Category(), Parameters: t.Parameters(),
		LoopBreaking: IsLoopBreaking(t), ReadOnly: IsReadOnly(t), Confined: RunsConfined(t), InputSchema: InputSchemaOf(t)}
	if p, ok := t.(Presenter); ok {
		d.Presenter = p
	}
	if a, ok := t.(ArgAdopter); ok {
		d.Adopt = a
	}
	if l, ok := t.(*lazyTool); ok {
		d.Networked = l.d.Networked
	} else {
		_, d.Networked = t.(Networked)
	}
	return d
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

// WithID names the registry instance in Stats; the default is its address.
// The shell gives it an id from its injected randomness, so that tests can
// pin it.
func WithID(id string) RegistryOption { return func(r *Registry) { r.id = id } }

// Registry holds tools by name. It is safe for concurrent use.
//
// Reads vastly outnumber writes (every tool call is a Get; tools are
// registered once at start-up), so the tools live in an immutable snapshot
// behind an atomic pointer: Get is one atomic load and one map lookup, with
// no lock and no allocation. Writers copy the snapshot under a mutex and
// swap the pointer.
type Registry struct {
	cur atomic.Pointer[snapshot]

	mu      sync.Mutex // serialises writers; guards deps and retired
	deps    DepsFunc
	retired []*lazyTool // lazy tools removed while possibly built, closed by Close
	id      string      // see WithID
}

// snapshot is one immutable state of a registry.
type snapshot struct {
	version uint64
	tools   map[string]*entry
	sorted  []Tool // by name
}

// entry is a registered tool with what the executor needs on every call,
// computed once at registration rather than once per call: its parameters
// (a tool's Parameters often builds a new slice) and its log messages.
type entry struct {
	name   string
	t      Tool
	lazy   *lazyTool // t itself when it is lazy, else nil
	params []Parameter
	// ownSchema: the tool validates its arguments itself (SchemaTool).
	ownSchema bool
	start     string // "Executing tool: NAME"
	ok        string // "Tool NAME succeeded"
	failed    string // "Tool NAME failed: "
}

func newEntry(t Tool, d Descriptor) *entry {
	lz, _ := t.(*lazyTool)
	return &entry{name: d.Name, t: t, lazy: lz, params: d.Parameters, ownSchema: d.InputSchema != nil,
		start: "Executing tool: " + d.Name, ok: "Tool " + d.Name + " succeeded", failed: "Tool " + d.Name + " failed: "}
}

var emptySnapshot = &snapshot{tools: map[string]*entry{}}

// NewRegistry returns an empty registry.
func NewRegistry(opts ...RegistryOption) *Registry {
	r := &Registry{}
	r.cur.Store(emptySnapshot)
	for _, o := range opts {
		o(r)
	}
	return r
}

// load returns the current snapshot; a zero Registry is empty.
func (r *Registry) load() *snapshot {
	if s := r.cur.Load(); s != nil {
		return s
	}
	return emptySnapshot
}

var (
	defaultMu  sync.Mutex
	defaultReg *Registry
)

// Default returns the process-wide registry, creating it on first use. It is
// the one piece of global state forge has; everything else takes a
// *Registry explicitly.
func Default() *Registry {
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if defaultReg == nil {
		defaultReg = NewRegistry()
	}
	return defaultReg
}

// SetDeps sets where factories get their dependencies. Tools already built
// keep what they were given.
func (r *Registry) SetDeps(f DepsFunc) {
	r.mu.Lock()
	r.deps = f
	r.mu.Unlock()
}

// depsFor returns the dependencies of the named tool.
func (r *Registry) depsFor(name string) Deps {
	r.mu.Lock()
	f := r.deps
	r.mu.Unlock()
	if f == nil {
		return Deps{Logger: zerolog.Nop()}
	}
	return f(name)
}

// Register adds t. It fails with a *ToolError when the name is taken
// (wrapping ErrAlreadyRegistered) or the tool is malformed (wrapping
// ErrInvalidTool; see CheckTool). The tool's descriptor (name, parameters)
// is read once, here: a tool's parameters must not change while it is
// registered.
func (r *Registry) Register(t Tool) error {
	return r.RegisterMany(t)
}

// RegisterMany registers the tools all together or not at all: when one of
// them is malformed, is registered already or appears twice, none is added
// and the error names the first culprit.
func (r *Registry) RegisterMany(ts ...Tool) error {
	entries := make([]*entry, len(ts))
	for i, t := range ts {
		d, err := describeSafe(t)
		if err != nil {
			return err
		}
		if err := CheckTool(d); err != nil {
			return err
		}
		entries[i] = newEntry(t, d)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.load()
	next := make(map[string]*entry, len(old.tools)+len(ts))
	for k, v := range old.tools {
		next[k] = v
	}
	for _, en := range entries {
		name := en.name
		if _, dup := next[name]; dup {
			return &ToolError{ToolName: name, Message: "Tool already registered", Err: ErrAlreadyRegistered}
		}
		next[name] = en
	}
	r.install(old, next)
	return nil
}

// RegisterLazy registers a tool that is built by f on first use (or for every
// call with PerCall). Listing and exporting use d and never build it.
//
// f receives the registry's Deps for the tool and the context of the call
// that needs it, bounded by that call's timeout; Init runs once after each
// construction. A Singleton is built once even when many calls ask at the
// same moment (they share the build and its outcome); a failed build is
// not kept, so a later call tries again. A factory that fails or panics
// gives a failed Result of kind KindFactory naming the tool.
func (r *Registry) RegisterLazy(d Descriptor, f Factory, how Instancing) error {
	if f == nil {
		return &ToolError{ToolName: d.Name, Message: "Lazy tool has no factory", Err: ErrInvalidTool}
	}
	if how != Singleton && how != PerCall {
		return &ToolError{ToolName: d.Name, Message: "Unknown instancing mode", Err: ErrInvalidTool}
	}
	return r.Register(newLazy(d, f, how, r))
}

// install publishes a new snapshot; r.mu must be held.
func (r *Registry) install(old *snapshot, tools map[string]*entry) {
	sorted := make([]Tool, 0, len(tools))
	for _, en := range tools {
		sorted = append(sorted, en.t)
	}
	slices.SortFunc(sorted, func(a, b Tool) int { return strings.Compare(a.Name(), b.Name()) })
	r.cur.Store(&snapshot{version: old.version + 1, tools: tools, sorted: sorted})
}

// retire keeps a removed lazy tool so that Close can still close what it
// built; r.mu must be held.
func (r *Registry) retire(t Tool) {
	if l, ok := t.(*lazyTool); ok {
		r.retired = append(r.retired, l)
	}
}

// Deregister removes the named tool and reports whether it was there. A plain
// tool that was removed is the caller's to close; a lazy tool's built
// instance is still closed by Close.
func (r *Registry) Deregister(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.load()
	en, ok := old.tools[name]
	if !ok {
		return false
	}
	next := make(map[string]*entry, len(old.tools))
	for k, v := range old.tools {
		if k != name {
			next[k] = v
		}
	}
	r.retire(en.t)
	r.install(old, next)
	return true
}

// Get returns the named tool. It takes no lock and does not allocate.
func (r *Registry) Get(name string) (Tool, bool) {
	if en := r.load().tools[name]; en != nil {
		return en.t, true
	}
	return nil, false
}

// lookup returns the named tool's entry, or nil.
func (r *Registry) lookup(name string) *entry {
	return r.load().tools[name]
}

// GetOrError returns the named tool or a *ToolError saying it was not found
// (wrapping ErrNotFound).
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

// ListAll returns every tool, sorted by name. The slice is the caller's.
func (r *Registry) ListAll() []Tool {
	return slices.Clone(r.load().sorted)
}

// ListNames returns the names of all tools, sorted.
func (r *Registry) ListNames() []string {
	s := r.load()
	names := make([]string, len(s.sorted))
	for i, t := range s.sorted {
		names[i] = t.Name()
	}
	return names
}

// ListByCategory returns the tools of one category, sorted by name.
func (r *Registry) ListByCategory(c Category) []Tool {
	var out []Tool
	for _, t := range r.load().sorted {
		if t.Category() == c {
			out = append(out, t)
		}
	}
	return out
}

// Count returns the number of registered tools.
func (r *Registry) Count() int {
	return len(r.load().tools)
}

// Clear removes every tool. Like Deregister, it closes nothing.
func (r *Registry) Clear() {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.load()
	for _, t := range old.sorted {
		r.retire(t)
	}
	r.install(old, map[string]*entry{})
}

// Version changes whenever the set of tools changes; caches of exported
// schemas key on it. It is one atomic load.
func (r *Registry) Version() uint64 {
	return r.load().version
}
