package app

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/custom"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// customDirs are the directories of custom commands or agents (sub is
// "commands" or "agents"): the user's, then the project's, which
// override the user's when the project is trusted.
func (a *App) customDirs(sub string, user string) []custom.Dir {
	var dirs []custom.Dir
	if user != "" {
		dirs = append(dirs, custom.Dir{Path: user, Scope: custom.ScopeUser})
	}
	if a.cfg.ProjectDir != "" {
		dirs = append(dirs, custom.Dir{Path: filepath.Join(a.cfg.ProjectDir, config.ProjectDirName, sub), Scope: custom.ScopeProject,
			NoOverride: !a.cfg.Project.Trusted}) // only a trusted project's definitions replace the person's
	}
	return dirs
}

// loadCustomCommands gives the shell the custom commands; what is wrong
// with their files is a warning each.
func (a *App) loadCustomCommands() {
	defs, rep := custom.LoadCommands(a.customDirs("commands", config.DefaultCommandsDir(a.opts.LookupEnv)))
	a.reportCustom("command", rep)
	kept := defs[:0]
	for _, d := range defs {
		if d.AllowedTools != nil {
			s, err := permission.NewScope(d.AllowedTools, a.cfg.WorkingDir, a.getenv("HOME"))
			if err != nil {
				a.warn(d.Source.Path + ": allowed-tools: " + oneLine(err) + "; skipped")
				continue
			}
			a.warnUnknownTools(d.Source.Path, "allowed-tools", "its prompt", s)
		}
		kept = append(kept, d)
	}
	for _, w := range a.env.SetCustom(kept) {
		a.warn(w)
	}
}

// loadCustomAgents reads the custom subagents, which the Task tool offers.
func (a *App) loadCustomAgents() {
	defs, rep := custom.LoadAgents(a.customDirs("agents", config.DefaultAgentsDir(a.opts.LookupEnv)))
	a.reportCustom("agent", rep)
	a.agents = nil
	for _, d := range defs {
		if d.Name == agent.GeneralSubagent {
			a.warn(d.Source.Path + ": " + agent.GeneralSubagent + " is forge's own subagent; this agent is skipped (rename it)")
			continue
		}
		if d.Tools != nil {
			if _, err := permission.NewScope(d.Tools, a.cfg.WorkingDir, a.getenv("HOME")); err != nil {
				a.warn(d.Source.Path + ": tools: " + oneLine(err) + "; skipped")
				continue
			}
		}
		a.agents = append(a.agents, d)
	}
}

// checkAgentTools warns about the tools of custom agents that no tool
// has: the agents are loaded before the registry, for the Task tool.
func (a *App) checkAgentTools() {
	for _, d := range a.agents {
		if d.Tools != nil {
			if s, err := permission.NewScope(d.Tools, a.cfg.WorkingDir, a.getenv("HOME")); err == nil {
				a.warnUnknownTools(d.Source.Path, "tools", "the agent", s)
			}
		}
	}
}

// warnUnknownTools warns about each tool the rules of s (a definition's
// field) name that no registered tool has, with the closest names: a
// misspelt tool leaves who (the prompt, the agent) with fewer tools than
// meant, or none. MCP tools are left alone: their servers may connect
// only when first used.
func (a *App) warnUnknownTools(path, field, who string, s *permission.Scope) {
	names := a.env.Registry.ListNames()
	none := !slices.ContainsFunc(names, s.Offers)
	for _, u := range s.Unnamed(names) {
		if strings.HasPrefix(u, mcpPrefix) {
			continue
		}
		msg := fmt.Sprintf("%s: %s: no tool is named %s", path, field, u)
		if sug := tools.Suggest(u, names, 3); len(sug) > 0 {
			msg += " (did you mean " + strings.Join(sug, ", ") + "?)"
		} else {
			msg += " (the tools are " + strings.Join(names, ", ") + ")"
		}
		if none {
			msg += "; " + who + " will have no tools"
		}
		a.warn(msg)
	}
}

// mcpPrefix begins the names of MCP servers' tools.
const mcpPrefix = "mcp__"

// reportCustom logs what loading found: warnings, the definitions of an
// untrusted project that were refused as they would replace the user's,
// and at debug level the trusted project's that do.
func (a *App) reportCustom(kind string, rep custom.Report) {
	for _, w := range rep.Warnings {
		a.warn(w.String())
	}
	for _, o := range rep.Overrides {
		if o.Refused {
			a.warn(fmt.Sprintf("%s %s: %s is not used, %s is: the project is not trusted, so it cannot replace "+
				"your own %s; to let it, run: forge trust", kind, o.Name, o.Replaced, o.Kept, kind))
			continue
		}
		a.log.Debug().Str("component", "custom").Msgf("%s %s: %s overrides %s", kind, o.Name, o.Kept, o.Replaced)
	}
}

// oneLine joins an error's lines (errors.Join lists one per line).
func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }

// taskProfiles name the custom subagents for the registry's Task tool.
func (a *App) taskProfiles() []agent.Profile {
	out := make([]agent.Profile, len(a.agents))
	for i, d := range a.agents {
		out[i] = agent.Profile{Name: d.Name, Description: d.Description}
	}
	return out
}

// profiles are the custom subagents for an agent working in wd: their
// tools as scopes, their models resolved for the chosen provider.
func (a *App) profiles(wd string) ([]agent.Profile, error) {
	out := make([]agent.Profile, 0, len(a.agents))
	for _, d := range a.agents {
		p := agent.Profile{Name: d.Name, Description: d.Description, System: d.Prompt}
		if d.Tools != nil {
			s, err := permission.NewScope(d.Tools, wd, a.getenv("HOME"))
			if err != nil {
				return nil, err
			}
			p.Tools = s
		}
		if name := a.modelFor(d.Model, d.Source.Path); name != "" && name != a.model.Name {
			price, err := a.priceOf(name)
			if err != nil {
				a.warn(d.Source.Path + ": " + err.Error() + "; the agent uses " + a.model.Name)
			} else {
				p.ModelName, p.Price, p.ContextWindow = name, price, a.windowOf(name)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// claudeAliases are the model names Claude Code's files use, for the
// Anthropic provider.
var claudeAliases = map[string]string{"sonnet": "claude-sonnet-4-5", "opus": "claude-opus-4-5", "haiku": "claude-haiku-4-5"}

// modelFor is the model a definition's model: asks for, of the chosen
// provider: "" (and "inherit") is the session's own; so is any model an
// untrusted project's definition names, which cannot choose it; Claude
// Code's aliases mean Anthropic's models, and the session's model
// elsewhere (each said once for the file at path).
func (a *App) modelFor(name, path string) string {
	name = strings.TrimSpace(name)
	if name == "" || strings.EqualFold(name, "inherit") {
		return ""
	}
	if a.inProject(path) && !a.cfg.Project.Trusted {
		if _, warned := a.aliasWarned.LoadOrStore(path, true); !warned {
			a.warn(fmt.Sprintf("%s: model: %s is ignored: the project is not trusted, so it cannot choose the model; "+
				"the session's model, %s, is used; to let it, run: forge trust", path, name, a.model.Name))
		}
		return ""
	}
	if full, ok := claudeAliases[strings.ToLower(name)]; ok {
		if a.model.Provider == "anthropic" {
			return full
		}
		if _, warned := a.aliasWarned.LoadOrStore(path, true); !warned {
			a.warn(fmt.Sprintf("%s: model: %s names an Anthropic model, and the provider is %s: the session's model, %s, is used",
				path, name, a.model.Provider, a.model.Name))
		}
		return ""
	}
	return name
}
