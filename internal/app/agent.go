package app

import (
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/version"
)

// newPolicy is the session's approval policy. A malformed rule stops forge
// at start, naming it.
func (a *App) newPolicy() (*permission.Policy, error) {
	mode, err := permission.ParseMode(a.cfg.Approval)
	if err != nil {
		return nil, err
	}
	return permission.New(permission.Config{Mode: mode, Allow: a.cfg.Permissions.Allow, Deny: a.cfg.Permissions.Deny,
		WorkingDir: a.cfg.WorkingDir, AllowedRoots: a.cfg.AllowedRoots, Home: a.getenv("HOME")})
}

// newAgent is the commands' AgentFactory: the model is chosen on the first
// prompt (a local Ollama is looked for only then), and kept.
func (a *App) newAgent(ctx context.Context, opts commands.AgentOptions) (*agent.Agent, render.RunInfo, error) {
	if a.model.Model == nil {
		m, err := a.chooseModel(ctx)
		if err != nil {
			return nil, render.RunInfo{}, err
		}
		a.model = m
	}
	system, err := a.systemPrompt(opts.Exec.WorkingDir)
	if err != nil {
		return nil, render.RunInfo{}, err
	}
	format := agent.Format(a.cfg.ToolFormat)
	ag := agent.New(agent.Config{Model: a.model.Model, ModelName: a.model.Name, Executor: a.env.Executor,
		Policy: a.env.Policy, Approver: opts.Approver, Exec: opts.Exec, System: system,
		MaxTurns: a.cfg.MaxTurns, LoopDetection: a.cfg.LoopDetection, ToolFormat: format})
	info := render.RunInfo{Version: version.Version, Provider: a.model.Provider, Model: a.model.Name,
		WorkingDir: opts.Exec.WorkingDir, Tools: ag.ToolNames(), Approval: string(a.env.Policy.Mode()),
		ToolFormat: string(format), SessionID: opts.Exec.SessionID}
	return ag, info, nil
}

// systemPrompt is the user's --system-prompt file, or forge's own.
func (a *App) systemPrompt(wd string) (string, error) {
	if a.cfg.SystemPrompt != "" {
		b, err := os.ReadFile(a.cfg.SystemPrompt)
		if err != nil {
			return "", fmt.Errorf("system_prompt: %w", err)
		}
		return string(b), nil
	}
	return agent.SystemPrompt(agent.PromptInfo{WorkingDir: wd, OS: runtime.GOOS, Now: a.opts.Clock(),
		ToolFormat: agent.Format(a.cfg.ToolFormat)}), nil
}
