package app

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/custom"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// claudeDirName is Claude Code's directory, in a project and in the home:
// forge reads the commands, agents and skills a team keeps there in place.
const claudeDirName = ".claude"

// customDirs are the directories of custom definitions (sub is
// "commands", "agents" or "skills"): the user's (Claude Code's
// ~/.claude, then forge's own, user), then the project's (.claude, then
// .forge), which override the user's when the project is trusted. Within
// a scope forge's own directory comes last, so it wins.
func (a *App) customDirs(sub string, user string) []custom.Dir {
	var dirs []custom.Dir
	if home := a.getenv("HOME"); home != "" {
		dirs = append(dirs, custom.Dir{Path: filepath.Join(home, claudeDirName, sub), Scope: custom.ScopeUser})
	}
	if user != "" {
		dirs = append(dirs, custom.Dir{Path: user, Scope: custom.ScopeUser})
	}
	untrusted := !a.cfg.Project.Trusted // only a trusted project's definitions replace the person's
	if root := a.claudeProject(); root != "" {
		dirs = append(dirs, custom.Dir{Path: filepath.Join(root, claudeDirName, sub), Scope: custom.ScopeProject, NoOverride: untrusted})
	}
	if a.cfg.ProjectDir != "" {
		dirs = append(dirs, custom.Dir{Path: filepath.Join(a.cfg.ProjectDir, config.ProjectDirName, sub), Scope: custom.ScopeProject,
			NoOverride: untrusted})
	}
	return dirs
}

// claudeProject is the directory whose .claude forge reads: the
// project's, else the repository's root, else the working directory; ""
// when that is the home, whose .claude is the person's. It looks at the
// disk, and each of hundreds of definitions asks (is its file the
// project's?): the answer is kept for the configuration's directories.
func (a *App) claudeProject() string {
	key := a.cfg.ProjectDir + "\x00" + a.cfg.WorkingDir
	a.claudeRoot.mu.Lock()
	defer a.claudeRoot.mu.Unlock()
	if !a.claudeRoot.set || a.claudeRoot.key != key {
		a.claudeRoot.key, a.claudeRoot.dir, a.claudeRoot.set = key, a.findClaudeProject(), true
	}
	return a.claudeRoot.dir
}

// findClaudeProject is claudeProject's answer, from the disk.
func (a *App) findClaudeProject() string {
	root := a.cfg.ProjectDir
	if root == "" {
		root = config.RepositoryRoot(a.cfg.WorkingDir)
	}
	if root == "" {
		root = a.cfg.WorkingDir
	}
	if home := a.getenv("HOME"); home != "" && sameDir(root, home) {
		return ""
	}
	return root
}

// sameDir says a and b name one directory.
func sameDir(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// customLoads are the custom definitions being read in the background:
// each function waits for its kind's.
type customLoads struct {
	commands func() ([]custom.Command, custom.Report)
	agents   func() ([]custom.Agent, custom.Report)
	skills   func() ([]custom.Skill, custom.Report)
}

// startCustomLoads begins reading the custom commands, agents and skills,
// each in a goroutine, so that hundreds of files are read while the rest
// of start-up goes on; what the reading finds is reported where each
// kind is taken, in the same order as ever.
func (a *App) startCustomLoads() customLoads {
	commands := a.customDirs("commands", config.DefaultCommandsDir(a.opts.LookupEnv))
	agents := a.customDirs("agents", config.DefaultAgentsDir(a.opts.LookupEnv))
	skills := a.customDirs("skills", config.DefaultSkillsDir(a.opts.LookupEnv))
	return customLoads{
		commands: background(func() ([]custom.Command, custom.Report) { return custom.LoadCommands(commands) }),
		agents:   background(func() ([]custom.Agent, custom.Report) { return custom.LoadAgents(agents) }),
		skills:   background(func() ([]custom.Skill, custom.Report) { return custom.LoadSkills(skills) }),
	}
}

// background runs f in a goroutine and returns what waits for its
// results.
func background[T any](f func() (T, custom.Report)) func() (T, custom.Report) {
	var v T
	var rep custom.Report
	done := make(chan struct{})
	go func() {
		defer close(done)
		v, rep = f()
	}()
	return func() (T, custom.Report) {
		<-done
		return v, rep
	}
}

// loadCustomCommands gives the shell the custom commands load reads; what
// is wrong with their files is a warning each.
func (a *App) loadCustomCommands(load func() ([]custom.Command, custom.Report)) {
	defs, rep := load()
	a.reportCustom("command", rep)
	kept := defs[:0]
	for _, d := range defs {
		a.noteModel(d.Source.Path, d.Model)
		if d.AllowedTools != nil {
			s, err := a.startScope(d.AllowedTools)
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

// loadCustomAgents takes the custom subagents load reads, which the Task
// tool offers.
func (a *App) loadCustomAgents(load func() ([]custom.Agent, custom.Report)) {
	defs, rep := load()
	a.reportCustom("agent", rep)
	a.agents = nil
	for _, d := range defs {
		if d.Name == agent.GeneralSubagent {
			a.warn(d.Source.Path + ": " + agent.GeneralSubagent + " is forge's own subagent; this agent is skipped (rename it)")
			continue
		}
		a.noteModel(d.Source.Path, d.Model)
		if d.Tools != nil {
			if _, err := a.startScope(d.Tools); err != nil {
				a.warn(d.Source.Path + ": tools: " + oneLine(err) + "; skipped")
				continue
			}
		}
		a.agents = append(a.agents, d)
	}
}

// startScope is permission.NewScope of rules in the working directory,
// for checking the tools of the definitions loaded at start. Each scope
// resolves the working directory on disk, and hundreds of files name the
// same few lists of tools: a list is made a scope once.
func (a *App) startScope(rules []string) (*permission.Scope, error) {
	key := strings.Join(rules, "\x00")
	if m, ok := a.startScopes[key]; ok {
		return m.scope, m.err
	}
	s, err := permission.NewScope(rules, a.cfg.WorkingDir, a.getenv("HOME"))
	if a.startScopes == nil {
		a.startScopes = map[string]scopeMemo{}
	}
	a.startScopes[key] = scopeMemo{s, err}
	return s, err
}

// scopeMemo is a scope made by startScope, or why it could not be.
type scopeMemo struct {
	scope *permission.Scope
	err   error
}

// checkAgentTools warns about the tools of custom agents that no tool
// has: the agents are loaded before the registry, for the Task tool.
func (a *App) checkAgentTools() {
	for _, d := range a.agents {
		if d.Tools != nil {
			if s, err := a.startScope(d.Tools); err == nil {
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
// in one line the Claude Code definitions that forge's own of the same
// name hide, in one line the tools of Claude Code's that forge does not
// have, and at debug level the trusted project's definitions that
// replace the person's.
func (a *App) reportCustom(kind string, rep custom.Report) {
	for _, w := range rep.Warnings {
		a.warn(w.String())
	}
	var hidden []string
	for _, o := range rep.Overrides {
		switch {
		case o.Refused:
			a.warn(fmt.Sprintf("%s %s: %s is not used, %s is: the project is not trusted, so it cannot replace "+
				"your own %s; to let it, run: forge trust", kind, o.Name, o.Replaced, o.Kept, kind))
		case o.Kept.Scope == o.Replaced.Scope && inClaudeDir(o.Replaced.Path) && !inClaudeDir(o.Kept.Path):
			hidden = append(hidden, fmt.Sprintf("%s (%s)", o.Name, o.Replaced.Path))
		default:
			a.log.Debug().Str("component", "custom").Msgf("%s %s: %s overrides %s", kind, o.Name, o.Kept, o.Replaced)
		}
	}
	if len(hidden) > 0 {
		a.warn(fmt.Sprintf("%s of .claude %s not used, as forge's own directory has one of the same name: %s",
			pluralize(len(hidden), kind), verb(len(hidden), "is", "are"), strings.Join(hidden, ", ")))
	}
	if len(rep.Dropped) > 0 {
		var names []string
		n := 0
		for _, t := range slices.Sorted(maps.Keys(rep.Dropped)) {
			names = append(names, fmt.Sprintf("%s (%d)", t, rep.Dropped[t]))
			n += rep.Dropped[t]
		}
		a.warn(fmt.Sprintf("%s %s tools of Claude Code that forge does not have, and %s without them: %s",
			pluralize(n, kind+" file"), verb(n, "names", "name"), verb(n, "goes", "go"), strings.Join(names, ", ")))
	}
}

// inClaudeDir says p lies under a .claude directory.
func inClaudeDir(p string) bool {
	return slices.Contains(strings.Split(filepath.ToSlash(p), "/"), claudeDirName)
}

// verb is one when n is 1, else many.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// pluralize is "1 agent", "3 agents".
func pluralize(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// oneLine joins an error's lines (errors.Join lists one per line).
func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }

// maxSummary bounds the one line of description of an agent or a skill
// that goes with every request; agents written for Claude Code carry
// pages of examples in theirs.
const maxSummary = 160

// taskProfiles name the custom subagents for the registry's Task tool.
func (a *App) taskProfiles() []agent.Profile {
	out := make([]agent.Profile, len(a.agents))
	for i, d := range a.agents {
		out[i] = agent.Profile{Name: d.Name, Description: custom.Summary(d.Description, maxSummary)}
	}
	return out
}

// profiles are the custom subagents for an agent working in wd: their
// tools as scopes, their models resolved for the chosen provider.
func (a *App) profiles(wd string) ([]agent.Profile, error) {
	out := make([]agent.Profile, 0, len(a.agents))
	// Agents that name the same tools share a scope, which only decides
	// calls: making one resolves wd on disk, for each of 150 agents.
	scopes := map[string]*permission.Scope{}
	for _, d := range a.agents {
		p := agent.Profile{Name: d.Name, Description: custom.Summary(d.Description, maxSummary), System: d.Prompt}
		if d.Tools != nil {
			key := strings.Join(d.Tools, "\x00")
			s, ok := scopes[key]
			if !ok {
				var err error
				if s, err = permission.NewScope(d.Tools, wd, a.getenv("HOME")); err != nil {
					return nil, err
				}
				scopes[key] = s
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

// inClaudeProject says the file is the project's, under its .claude
// directory.
func (a *App) inClaudeProject(file string) bool {
	root := a.claudeProject()
	if root == "" || file == "" {
		return false
	}
	rel, err := filepath.Rel(filepath.Join(root, claudeDirName), file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
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
	if (a.inProject(path) || a.inClaudeProject(path)) && !a.cfg.Project.Trusted {
		a.warnModels("untrusted", func(p, _ string) bool { return a.inProject(p) || a.inClaudeProject(p) },
			"ignored: the project is not trusted, so it cannot choose the model; the session's model, "+a.model.Name+", is used; to let it, run: forge trust")
		return ""
	}
	if full, ok := claudeAliases[strings.ToLower(name)]; ok {
		if a.model.Provider == "anthropic" {
			return full
		}
		a.warnModels("alias", func(_, m string) bool { _, ok := claudeAliases[strings.ToLower(m)]; return ok },
			"an Anthropic model, and the provider is "+a.model.Provider+": the session's model, "+a.model.Name+", is used")
		return ""
	}
	return name
}

// warnModels says once, in one line for every definition loaded whose
// file and model match, that its model is why: 140 agents written for
// Claude Code must not make 140 warnings.
func (a *App) warnModels(reason string, match func(path, model string) bool, why string) {
	if _, warned := a.aliasWarned.LoadOrStore(reason, true); warned {
		return
	}
	var files []string
	for _, p := range slices.Sorted(maps.Keys(a.modelFiles)) {
		if match(p, a.modelFiles[p]) {
			files = append(files, fmt.Sprintf("%s (%s)", p, a.modelFiles[p]))
		}
	}
	switch len(files) {
	case 0:
		return
	case 1:
		p, m, _ := strings.Cut(strings.TrimSuffix(files[0], ")"), " (")
		a.warn(p + ": model: " + m + " is " + why)
	default:
		more := ""
		if len(files) > 3 {
			more = fmt.Sprintf(" and %d more", len(files)-3)
			files = files[:3]
		}
		a.warn(fmt.Sprintf("model: %s%s: each is %s", strings.Join(files, ", "), more, why))
	}
}

// noteModel keeps the model a definition's file names, for warnModels.
func (a *App) noteModel(path, model string) {
	if model = strings.TrimSpace(model); model == "" || strings.EqualFold(model, "inherit") {
		return
	}
	if a.modelFiles == nil {
		a.modelFiles = map[string]string{}
	}
	a.modelFiles[path] = model
}
