package tools

import (
	"context"
	"fmt"
	"sync"
)

// lazyTool stands in the registry for a tool that is built on first use.
type lazyTool struct {
	d   Descriptor
	f   Factory
	how Instancing
	reg *Registry

	once  sync.Once
	built Tool
	err   error
}

func newLazy(d Descriptor, f Factory, how Instancing, reg *Registry) *lazyTool {
	return &lazyTool{d: d, f: f, how: how, reg: reg}
}

func (l *lazyTool) Name() string            { return l.d.Name }
func (l *lazyTool) Description() string     { return l.d.Description }
func (l *lazyTool) Category() Category      { return l.d.Category }
func (l *lazyTool) Parameters() []Parameter { return l.d.Parameters }
func (l *lazyTool) IsLoopBreaking() bool    { return l.d.LoopBreaking }

func (l *lazyTool) build(ctx context.Context) (Tool, error) {
	var deps Deps
	if l.reg != nil && l.reg.deps != nil {
		deps = l.reg.deps(l.d.Name)
	}
	t, err := l.f(ctx, deps)
	if err != nil {
		return nil, fmt.Errorf("build tool %s: %w", l.d.Name, err)
	}
	if in, ok := t.(Initializer); ok {
		if err := in.Init(ctx); err != nil {
			return nil, fmt.Errorf("init tool %s: %w", l.d.Name, err)
		}
	}
	return t, nil
}

// instance returns the tool to run, building it if needed.
func (l *lazyTool) instance(ctx context.Context) (Tool, error) {
	if l.how == PerCall {
		return l.build(ctx)
	}
	l.once.Do(func() { l.built, l.err = l.build(ctx) })
	return l.built, l.err
}

func (l *lazyTool) Execute(ctx context.Context, ec ExecutionContext, args Args) Result {
	t, err := l.instance(ctx)
	if err != nil {
		r := Fail(fmt.Sprintf("Tool %s could not be created: %v", l.d.Name, err))
		r.ErrorKind = KindFactory
		return r
	}
	return t.Execute(ctx, ec, args)
}
