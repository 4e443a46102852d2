package agent

import (
	"context"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/tools"
)

// ownTools is a registry of the tools the agent serves itself, beside the
// registry's: their calls change the run or the conversation, not the
// world (the task list), so only a run can carry them out.
func ownTools() *tools.Executor {
	reg := tools.NewRegistry()
	if err := reg.RegisterMany(todoTool{}, planTool{}); err != nil {
		panic(err) // a malformed built-in descriptor: a programming error
	}
	return tools.NewExecutor(reg)
}

// ownTool is the agent's own tool name, when the agent serves it: a
// subagent serves none, so that it cannot touch its parent's task list.
func (a *Agent) ownTool(name string) (tools.Tool, bool) {
	if a.cfg.depth > 0 {
		return nil, false
	}
	return a.own.Registry().Get(name)
}

// ownSpecs are the agent's own tools offered to the model, but those the
// registry has a tool of the same name for (which wins) and those out of
// the scope.
func (a *Agent) ownSpecs() []llm.ToolSpec {
	if a.cfg.depth > 0 {
		return nil
	}
	var specs []llm.ToolSpec
	for _, t := range a.own.Registry().ListAll() {
		if _, taken := a.cfg.Executor.Registry().Get(t.Name()); taken || !a.cfg.Scope.Offers(t.Name()) {
			continue
		}
		if t.Name() == PlanToolName && !a.planMode() {
			continue // there is no plan to put to the person outside plan mode
		}
		specs = append(specs, llm.ToolSpec{Name: t.Name(), Description: t.Description(), InputSchema: tools.ParametersSchema(t.Parameters())})
	}
	return specs
}

// isOwn says p's tool is one of the agent's own.
func (r *run) isOwn(p *pending) bool {
	if p.tool == nil {
		return false
	}
	t, ok := r.a.ownTool(p.call.Name)
	return ok && t == p.tool
}

// ownEffects carries out what a call of the agent's own tool that
// succeeded does to the run.
func (r *run) ownEffects(ctx context.Context, p *pending) {
	if p.res.Status != StatusSuccess {
		return
	}
	switch p.call.Name {
	case TodoToolName:
		r.keepTodos(p)
	case PlanToolName:
		r.presentPlan(ctx, p)
	}
}
