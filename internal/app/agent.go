package app

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/hooks"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/memory"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/proc"
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
	return permission.New(permission.Config{Mode: mode, Allow: a.cfg.Permissions.Allow, Deny: a.cfg.Permissions.Deny, Ask: a.cfg.Permissions.Ask,
		WorkingDir: a.cfg.WorkingDir, AllowedRoots: a.cfg.AllowedRoots, Home: a.getenv("HOME"),
		Protected: a.protectedPaths(), Credentials: a.credentials(), Getenv: a.commandEnv})
}

// commandEnv looks a variable up as the commands forge's tools start see
// it: without forge's secrets (proc.Environ), so that the policy reads a
// line's $OPENAI_API_KEY as bash will, empty.
func (a *App) commandEnv(name string) (string, bool) {
	v, ok := a.opts.LookupEnv(name)
	if !ok || len(proc.Environ([]string{name + "=" + v}, a.cfg.PassEnv)) == 0 {
		return "", false
	}
	return v, true
}

// connectMCPForModel connects the configured MCP servers not connected
// yet, the first time a model is prompted; a server that fails is a
// notice, and the prompt goes on without it.
func (a *App) connectMCPForModel(ctx context.Context) (notices []string) {
	a.mcpForModel.Do(func() {
		if a.env.MCP == nil {
			return
		}
		if err := a.env.MCP.ConnectAll(ctx); err != nil {
			for _, e := range unjoin(err) {
				notices = append(notices, e.Error()+" (/mcp shows it; its tools are not offered)")
			}
		}
	})
	return notices
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
	mcpNotices := a.connectMCPForModel(ctx)
	system, notices, err := a.systemPrompt(opts.Exec.WorkingDir)
	notices = append(notices, mcpNotices...)
	if err != nil {
		return nil, render.RunInfo{}, err
	}
	name := a.model.Name
	from := opts.ModelFrom
	if from == "" {
		from = "the command"
	}
	if m := a.modelFor(opts.Model, from); m != "" {
		name = m
	}
	price, err := a.priceOf(name)
	if err != nil {
		return nil, render.RunInfo{}, err
	}
	var scope *permission.Scope
	if opts.Tools != nil {
		if scope, err = permission.NewScope(opts.Tools, opts.Exec.WorkingDir, a.getenv("HOME")); err != nil {
			return nil, render.RunInfo{}, fmt.Errorf("allowed-tools: %w", err)
		}
	}
	profiles, err := a.profiles(opts.Exec.WorkingDir)
	if err != nil {
		return nil, render.RunInfo{}, err
	}
	format := agent.Format(a.cfg.ToolFormat)
	if n := a.sandboxNotice(); n != "" {
		notices = append(notices, n)
	}
	// The session's effort (what /effort set) unless the front end asks
	// for another: forge acp's prompts think as the shell's do.
	effort := opts.Effort
	if effort == "" {
		effort = llm.Effort(a.env.Config.Effort)
	}
	if n := a.effortNotice(name, effort); n != "" {
		notices = append(notices, n)
	}
	if n := a.apiNotice(); n != "" {
		notices = append(notices, n)
	}
	sb, planSB := a.agentSandboxes(opts.Exec.WorkingDir)
	policy := a.env.Policy
	if opts.Policy != nil {
		policy = opts.Policy
	}
	ag := agent.New(agent.Config{Sandbox: sb, ReadOnlySandbox: planSB, Model: a.model.Model, ModelName: name, Executor: a.env.Executor,
		Policy: policy, Approver: opts.Approver, Exec: opts.Exec, System: system, Notices: notices,
		MaxTurns: a.cfg.MaxTurns, Effort: effort, LoopDetection: a.cfg.LoopDetection, ToolFormat: format,
		Budget: agent.Budget{CostUSD: a.cfg.MaxCost, Tokens: int64(a.cfg.MaxTokens)}, Price: price,
		ContextWindow: a.windowOf(name), Scope: scope, Subagents: profiles, SkillScopes: a.skillScopes(opts.Exec.WorkingDir), Hooks: a.agentHooks(),
		Checkpointer: opts.Checkpointer, ShowChanges: opts.ShowChanges})
	info := render.RunInfo{Version: version.Version, Provider: a.model.Provider, Model: name,
		WorkingDir: opts.Exec.WorkingDir, Tools: ag.ToolNames(), Approval: string(policy.Mode()),
		ToolFormat: string(format), SessionID: opts.Exec.SessionID, Priced: price != nil}
	return ag, info, nil
}

// effortNotice is the one-time note that the model cannot take the effort
// asked of it, "" when it can (or was told already).
func (a *App) effortNotice(model string, effort llm.Effort) string {
	if effort == "" {
		return ""
	}
	if info, ok := llm.LookupModel(model); !ok || !info.NoReasoning {
		return ""
	}
	n := fmt.Sprintf("%s does not reason: effort %s is ignored", model, effort)
	if _, said := a.noticed.LoadOrStore(n, true); said {
		return ""
	}
	return n
}

// apiNotice is the one-time note that the API asked for (--api, config
// api) is not the provider's to choose: Anthropic speaks its own. "" when
// it is (or was told already).
func (a *App) apiNotice() string {
	if a.cfg.API == "" || a.model.Provider != "anthropic" {
		return ""
	}
	n := fmt.Sprintf("anthropic speaks its Messages API: api %s is for openai and ollama, and is ignored", a.cfg.API)
	if _, said := a.noticed.LoadOrStore(n, true); said {
		return ""
	}
	return n
}

// windowOf is the window of the model name: the configured one, else the
// one forge knows; 0 when unknown, and then only a provider's "too long"
// makes the agent compact. context_window is the session model's.
func (a *App) windowOf(name string) int {
	if a.cfg.ContextWindow > 0 && name == a.model.Name && !a.model.Switched {
		return a.cfg.ContextWindow
	}
	if ms, ok := a.cfg.Models[strings.ToLower(name)]; ok && ms.ContextWindow > 0 {
		return ms.ContextWindow
	}
	info, _ := llm.LookupModel(name)
	return info.ContextWindow
}

// contextWindow is the window of the model prompts go to: the one
// chosen at the first prompt, or the configured one before; 0 when
// unknown.
func (a *App) contextWindow() int {
	if a.model.Name != "" {
		return a.windowOf(a.model.Name)
	}
	if a.cfg.ContextWindow > 0 || a.cfg.Model == "" {
		return a.cfg.ContextWindow
	}
	return a.windowOf(a.cfg.Model)
}

// priceOf is the price of the model name; nil when forge does not know it.
// A cost limit that cannot be counted is refused rather than ignored: the
// person who set it is counting on it.
func (a *App) priceOf(name string) (*llm.Price, error) {
	if ms, ok := a.cfg.Models[strings.ToLower(name)]; ok && ms.Priced {
		return &llm.Price{Input: ms.Input, CachedInput: ms.CachedInput, CacheWrite: ms.CacheWrite, Output: ms.Output}, nil
	}
	info, ok := llm.LookupModel(name)
	if ok && info.Price != nil {
		return info.Price, nil
	}
	if a.cfg.MaxCost > 0 {
		return nil, fmt.Errorf("max_cost: forge does not know the price of %s, so it cannot count what a prompt costs; "+
			"give it under models: in the config, or use max_tokens (--max-tokens) instead", name)
	}
	return nil, nil
}

// callAgent is the commands' CallerFactory: an agent without a model
// that runs single calls (forge mcp serve's) as the agent's own calls
// run, with the same hooks, policy and sandbox.
func (a *App) callAgent(opts commands.AgentOptions) *agent.Agent {
	sb, planSB := a.agentSandboxes(opts.Exec.WorkingDir)
	policy := a.env.Policy
	if opts.Policy != nil {
		policy = opts.Policy
	}
	return agent.New(agent.Config{Executor: a.env.Executor, Policy: policy, Approver: opts.Approver, Unasked: opts.Unasked, Exec: opts.Exec,
		Sandbox: sb, ReadOnlySandbox: planSB, Hooks: a.agentHooks(), Checkpointer: opts.Checkpointer})
}

// spawnAgent is the agent that runs a Task call from outside an agent run
// (forge run Task, an MCP client): the model of the prompts, no one to ask.
func (a *App) spawnAgent(ctx context.Context) (*agent.Agent, error) {
	ag, _, err := a.newAgent(ctx, commands.AgentOptions{Exec: a.env.Exec})
	return ag, err
}

// systemPrompt is the user's --system-prompt file, or forge's own with
// the project's instructions, and the notices about instructions files it
// refused that this forge has not given yet: one warning each, not one a
// prompt.
func (a *App) systemPrompt(wd string) (string, []string, error) {
	if a.cfg.SystemPrompt != "" {
		b, err := os.ReadFile(a.cfg.SystemPrompt)
		if err != nil {
			return "", nil, fmt.Errorf("system_prompt: %w", err)
		}
		return string(b), nil, nil
	}
	text, notices := agent.SystemPrompt(a.promptInfo(wd))
	fresh := notices[:0]
	for _, n := range notices {
		if _, said := a.noticed.LoadOrStore(n, true); !said {
			fresh = append(fresh, n)
		}
	}
	return text, fresh, nil
}

// promptInfo is what the system prompt of an agent working in wd says
// and where its instructions files are read from: the person's own
// (Claude Code's, then forge's), then the project's from the repository's
// root (the project's, outside a repository) down to wd.
func (a *App) promptInfo(wd string) agent.PromptInfo {
	root := config.RepositoryRoot(wd)
	if root == "" {
		root = a.cfg.ProjectDir
	}
	var user []string
	home := a.getenv("HOME")
	if home != "" {
		user = append(user, filepath.Join(home, ".claude", "CLAUDE.md"))
	}
	if f := config.DefaultConfigFile(a.opts.LookupEnv); f != "" {
		user = append(user, filepath.Join(filepath.Dir(f), "AGENTS.md"))
	}
	return agent.PromptInfo{WorkingDir: wd, Root: root, Home: home, User: user, HomeImports: a.cfg.Project.Trusted,
		OS: runtime.GOOS, Now: a.opts.Clock(), ToolFormat: agent.Format(a.cfg.ToolFormat)}
}

// memory is what the instructions files of an agent working in the
// session's directory are, for /memory.
func (a *App) memory() memory.Memory {
	return memory.Load(a.promptInfo(a.env.Exec.WorkingDir).Memory())
}

// newHooks is the runner of the configured hooks; nil when there are none.
// Hooks run in the working directory with the tools' environment (forge's
// secrets left out unless pass_env names them).
func (a *App) newHooks() (*hooks.Runner, error) {
	if len(a.cfg.Hooks) == 0 {
		return nil, nil
	}
	hs := make([]hooks.Hook, len(a.cfg.Hooks))
	for i, h := range a.cfg.Hooks {
		hs[i] = hooks.Hook{Event: hooks.Event(h.Event), Matcher: h.Matcher, Command: h.Command, Timeout: h.Timeout, Source: h.File,
			Project: a.projectHook(h)}
		if hs[i].Project {
			hs[i].Dir = a.cfg.ProjectDir
		}
	}
	return hooks.New(hs, hooks.Options{Dir: a.cfg.WorkingDir, ProjectDir: a.cfg.ProjectDir,
		Env: append(proc.Environ(os.Environ(), a.cfg.PassEnv), a.configEnv()...), Shell: hookShell(),
		Log: a.log.With().Str("component", "hooks").Logger(), Now: a.opts.Clock, Verify: a.hookFiles().verify})
}

// configEnv is the configuration's env (Claude Code's settings) as
// KEY=VALUE, sorted.
func (a *App) configEnv() []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(a.cfg.Env)) {
		out = append(out, k+"="+a.cfg.Env[k])
	}
	return out
}

// hookShell is the shell hooks run in: bash when there is one, as the
// hooks written for Claude Code assume it ([[ ]], arrays), else sh.
func hookShell() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return ""
}

// inProject says the file is the project's, under its .forge directory.
func (a *App) inProject(file string) bool {
	if a.cfg.ProjectDir == "" || file == "" {
		return false
	}
	rel, err := filepath.Rel(filepath.Join(a.cfg.ProjectDir, config.ProjectDirName), file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// agentHooks is the session's hooks as the agent takes them: a nil
// interface when there are none.
func (a *App) agentHooks() agent.Hooks {
	if a.env.Hooks == nil {
		return nil
	}
	return a.env.Hooks
}
