package config

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/viper"
)

// ProjectDirName is the directory, at a project's root, that holds its forge
// settings, commands and agents.
const ProjectDirName = ".forge"

// FindProject returns the directory holding the project's .forge directory:
// the nearest one from dir upward, stopping at the repository's root (the
// first directory with a .git entry), else the repository's root when it
// holds Claude Code's settings (.claude/settings.json,
// .claude/settings.local.json, .mcp.json). A .forge with a config.yaml
// wins over a nearer one without (a vendored library's commands must not
// hide the repository's deny rules). Outside a repository only dir itself
// is looked at, so a stray ~/.forge never becomes every directory's
// project. The answer has its symbolic links resolved, so that trust,
// kept by directory, holds however the directory is reached. "" means
// there is none.
func FindProject(dir string) string {
	root := repositoryRoot(dir)
	if root == "" {
		if isDir(filepath.Join(dir, ProjectDirName)) {
			return physical(dir)
		}
		return ""
	}
	nearest := ""
	for d := dir; ; d = filepath.Dir(d) {
		if isDir(filepath.Join(d, ProjectDirName)) {
			if isFile(projectFile(d)) {
				return physical(d)
			}
			if nearest == "" {
				nearest = d
			}
		}
		if d == root || d == filepath.Dir(d) {
			if nearest == "" && hasClaudeSettings(root) {
				return physical(root) // Claude Code's settings make the repository a project
			}
			return physical(nearest)
		}
	}
}

// physical is dir with its symbolic links resolved; dir when that fails.
func physical(dir string) string {
	if dir == "" {
		return ""
	}
	if p, err := filepath.EvalSymlinks(dir); err == nil {
		return p
	}
	return dir
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// repositoryRoot is the nearest directory from dir upward with a .git entry
// (a directory, or a file in a worktree); "" when there is none.
func repositoryRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// Project is what Load made of the project's own settings file; the
// project's directory is Config.ProjectDir.
type Project struct {
	File    string // its .forge/config.yaml, "" when it has none
	Dir     string // its directory (Config.ProjectDir)
	Trusted bool   // the person trusts the project as it is, so every setting in File applies
	// Changed says the project was trusted as it was before: it changed since.
	Changed bool
	Hash    string // the project's ProjectHash, which trusting records
	// Skipped says File was not read (Source.SkipProject): it has an error.
	Skipped bool
	// Ignored names the settings of File that widen what forge may do and
	// were ignored because the project is not trusted, as "approval: yolo".
	Ignored []string
}

// Warning is the one line that tells the person what an untrusted project
// asked for and did not get; "" when there is nothing to say.
func (p Project) Warning() string {
	if p.Trusted || len(p.Ignored) == 0 {
		return ""
	}
	state := "is not trusted"
	if p.Changed {
		state = "changed since you trusted it"
	}
	what := "project file " + p.File
	if p.File == "" {
		what = "project " + p.Dir
	}
	ignored := p.Ignored
	if len(ignored) > maxListedIgnored {
		ignored = append(slices.Clone(ignored[:maxListedIgnored]), fmt.Sprintf("and %d more (forge config lists them)", len(p.Ignored)-maxListedIgnored))
	}
	return fmt.Sprintf(
		"%s %s, so its settings that widen what forge may do are ignored: %s; to apply them, run: forge trust %s",
		what, state, strings.Join(ignored, ", "), shellQuote(p.Dir))
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// loadProject finds the project from the working directory that the layers
// below it give, reads its .forge/config.yaml and merges into v the
// settings it may set: all of them when the project is trusted, else those
// that only narrow. It returns the project's layer for its sections, nil
// when there is no project file.
func (c *Config) loadProject(src Source, r resolver, v *viper.Viper) (*layer, error) {
	wd, ok := workingDirBelowProject(src, r, v)
	if !ok {
		return nil, nil // the settings pass reports the bad working_dir
	}
	c.ProjectDir = FindProject(wd)
	c.Project = Project{Dir: c.ProjectDir}
	if c.ProjectDir == "" {
		return nil, nil
	}
	path := projectFile(c.ProjectDir)
	if src.SkipProject {
		if isFile(path) {
			c.Project.File, c.Project.Skipped = path, true
		}
		return nil, nil
	}
	data, found, err := readFile(path, false)
	if err != nil {
		return nil, &ProjectError{File: path, Err: err}
	}
	if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, &ProjectError{File: path, Err: fmt.Errorf("project file %s is a symbolic link; forge reads a project's settings only from a real file", path)}
	}
	c.Project.Hash, err = ProjectHash(c.ProjectDir, r.home)
	switch {
	case errors.Is(err, errUnverifiable):
		c.Warnings = append(c.Warnings, err.Error())
		c.Project.Hash = "" // never equal to a trusted hash
	case err != nil:
		return nil, &ProjectError{File: path, Err: err}
	}
	// A project of commands and agents alone is trusted or not too: it
	// decides whose definition wins when the person has one of the name.
	if src.Trusted != nil {
		hash, ok := src.Trusted(c.ProjectDir)
		c.Project.Trusted = ok && c.Project.Hash != "" && hash == c.Project.Hash
		c.Project.Changed = ok && !c.Project.Trusted
	}
	if c.claudeProject, c.Warnings, err = c.readClaudeProject(src, r, c.Warnings); err != nil {
		return nil, err
	}
	if !found {
		return nil, nil
	}
	c.Project.File = path
	l, err := readLayer(path, "project file "+path, data)
	if err == nil {
		l.r = resolver{cwd: c.ProjectDir, home: r.home}
		c.Warnings = append(c.Warnings, l.warnings...)
		err = c.admitSettings(l, r, v)
	}
	if err != nil {
		return nil, &ProjectError{File: path, Err: err}
	}
	return &l, nil
}

// readClaudeProject reads the project's Claude Code settings and MCP
// file, adding their warnings to warnings; a settings file that cannot be
// used is a *ProjectError.
func (c *Config) readClaudeProject(src Source, r resolver, warnings []string) ([]layer, []string, error) {
	pr := resolver{cwd: c.ProjectDir, home: r.home}
	env := src.Env
	if !c.Project.Trusted {
		// Its servers are not started: the variables they lack are no news.
		env = func(string) (string, bool) { return "", true }
	}
	layers, w, serr := readClaudeLayers(claudeSettingsFiles(c.ProjectDir), filepath.Join(c.ProjectDir, claudeMCPFile), env, pr)
	if serr != nil {
		return nil, nil, &ProjectError{File: serr.File, Err: serr.Err}
	}
	return layers, append(warnings, w...), nil
}

// ProjectError is a project file that cannot be used. The commands that
// repair things (undo, trust, config) load again with Source.SkipProject
// rather than stop: an agent's bad edit of the file must not lock the
// person out of undoing it.
type ProjectError struct {
	File string
	Err  error
}

// Error names the file as a project file: the parsers, shared with the
// user's file, call every file a config file.
func (e *ProjectError) Error() string {
	msg := e.Err.Error()
	if rest, ok := strings.CutPrefix(msg, "config file "+e.File); ok {
		return "project file " + e.File + rest
	}
	return msg
}
func (e *ProjectError) Unwrap() error { return e.Err }

// workingDirBelowProject is the working directory as the flags, the
// environment, the user's file and the defaults give it.
func workingDirBelowProject(src Source, r resolver, v *viper.Viper) (string, bool) {
	val := v.Get("working_dir")
	if e, ok := src.Env(envName("working_dir")); ok && e != "" {
		val = e
	}
	if f, ok := changedValue(src.Flags, "working-dir"); ok {
		val = f
	}
	s, _ := lookupSetting("working_dir")
	var c Config
	if err := s.apply(&c, val, r); err != nil {
		return "", false
	}
	return c.WorkingDir, true
}

// admitSettings merges the project's settings into v, each one that widens
// what forge may do only when the project is trusted.
func (c *Config) admitSettings(l layer, r resolver, v *viper.Viper) error {
	for _, key := range sortedKeys(l.flat) {
		val := l.flat[key]
		if val == nil {
			continue
		}
		if why, ok := projectForbidden[key]; ok {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %s is ignored: %s", l.origin, key, why))
			continue
		}
		s, _ := lookupSetting(key)
		var base, proj Config
		if err := s.apply(&base, v.Get(key), r); err != nil {
			return &ValueError{Source: c.origins[key], Key: key, Value: display(v.Get(key)), Reason: err.Error()}
		}
		if err := s.apply(&proj, val, l.r); err != nil {
			return &ValueError{Source: l.origin, Key: key, Value: display(val), Reason: err.Error()}
		}
		if !c.Project.Trusted && projectPolicy[key](base, proj) {
			c.ignore(l.origin, key, s.get(proj))
			continue
		}
		// The value as Set would take it back, so relative paths stay resolved
		// against the project, not the working directory.
		v.Set(key, s.get(proj))
		c.origins[key] = l.origin
	}
	return nil
}

// maxListedIgnored bounds the settings the one line about an untrusted
// project names: a Claude Code setup may hold dozens of hooks and servers.
const maxListedIgnored = 12

// brief is a value's first line, cut at 60 characters, for a list of
// settings on one line.
func brief(v string) string {
	first, _, more := strings.Cut(v, "\n")
	if r := []rune(first); len(r) > 60 {
		first, more = string(r[:57]), true
	}
	if more {
		first += "..."
	}
	return first
}

// ignore notes a setting of an untrusted project that widens what forge may do.
func (c *Config) ignore(origin, key, value string) {
	name := key
	if value != "" {
		name += ": " + brief(value)
	}
	c.Project.Ignored = append(c.Project.Ignored, name)
	c.sections = append(c.sections, Entry{Key: key, Value: oneLine(value), Source: origin + " (ignored: not trusted)"})
}

// mergeProjectSections adds the project's sections to the user's: deny
// rules always; allow rules, hooks, MCP servers, model prices and tool
// settings other than rate limits only when the project is trusted.
func (c *Config) mergeProjectSections(l *layer, settings toolSettings) error {
	tools, tw, err := parseTools(l.path, l.sections["tools"], settings)
	if err != nil {
		return err
	}
	mcp, mw, err := parseMCP(l.path, l.sections["mcp"], l.r)
	if err != nil {
		return err
	}
	perms, pw, err := parsePermissions(l.path, l.sections["permissions"])
	if err != nil {
		return err
	}
	models, dw, err := parseModels(l.path, l.sections["models"])
	if err != nil {
		return err
	}
	hooks, hw, err := parseHooks(l.path, l.sections["hooks"])
	if err != nil {
		return err
	}
	c.Warnings = slices.Concat(c.Warnings, tw, mw, pw, dw, hw)
	trusted := c.Project.Trusted

	if trusted {
		c.Hooks = append(c.Hooks, hooks...)
		c.noteHooks(l.origin, hooks)
	} else {
		for _, h := range hooks {
			c.ignore(l.origin, hookKey(h), h.Command)
		}
	}

	c.Permissions.Deny = append(c.Permissions.Deny, perms.Deny...)
	c.Permissions.Ask = append(c.Permissions.Ask, perms.Ask...) // asking more narrows
	perms.Credentials = c.mergeCredentials(l.origin, perms.Credentials, trusted)
	if trusted {
		c.Permissions.Allow = append(c.Permissions.Allow, perms.Allow...)
	} else {
		for _, rule := range perms.Allow {
			c.ignore(l.origin, "permissions.allow", rule)
		}
		perms.Allow = nil
	}
	for _, name := range sortedKeys(mcp.Servers) {
		if !trusted {
			c.ignore(l.origin, "mcp.servers."+name, serverText(mcp.Servers[name]))
			delete(mcp.Servers, name)
			continue
		}
		// A project's server runs at the project's root, wherever forge
		// started: the scripts it runs are the ones trust hashed.
		srv := mcp.Servers[name]
		if srv.Command != "" {
			srv.Cwd = projectServerDir(c.ProjectDir, srv.Cwd)
		}
		c.MCP.Servers[name] = srv
	}
	tools = c.mergeTools(l.origin, tools, trusted)
	// A model's price and window are what budgets and compaction count
	// with: a cheaper price or a larger window would loosen the person's
	// limits, so they too wait for trust.
	for _, name := range sortedKeys(models) {
		if !trusted {
			c.ignore(l.origin, "models."+name, modelText(models[name]))
			delete(models, name)
			continue
		}
		c.Models[name] = models[name]
	}
	c.noteSections(l.origin, tools, mcp, perms, models)
	return nil
}

// mergeCredentials adds the project's credential locations to the user's
// and returns what it took: more places that ask always apply, but only a
// trusted project may drop one (!x).
func (c *Config) mergeCredentials(origin string, list []string, trusted bool) []string {
	var took []string
	for _, e := range list {
		if !trusted && strings.HasPrefix(strings.TrimSpace(e), "!") {
			c.ignore(origin, "permissions.credentials", e)
			continue
		}
		took = append(took, e)
	}
	c.Permissions.Credentials = append(c.Permissions.Credentials, took...)
	return took
}

// mergeTools lays the project's tool sections over the user's and returns
// what it took. Untrusted, a project only adds a rate limit where the user
// set none: every other tool setting (a shell, roots, private addresses)
// can widen what the tool does.
func (c *Config) mergeTools(origin string, project map[string]map[string]any, trusted bool) map[string]map[string]any {
	taken := map[string]map[string]any{}
	for _, name := range sortedKeys(project) {
		merged := maps.Clone(c.ToolSection(name))
		if merged == nil {
			merged = map[string]any{}
		}
		_, userRate := lookupFold(merged, "rate")
		for _, k := range sortedKeys(project[name]) {
			if !trusted && !(strings.EqualFold(k, "rate") && !userRate) {
				c.ignore(origin, "tools."+name+"."+k, display(project[name][k]))
				continue
			}
			merged[k] = project[name][k]
			if taken[name] == nil {
				taken[name] = map[string]any{}
			}
			taken[name][k] = project[name][k]
		}
		if len(merged) > 0 {
			if c.Tools == nil {
				c.Tools = map[string]map[string]any{}
			}
			c.Tools[c.toolKey(name)] = merged
		}
	}
	return taken
}

// toolKey is the user's spelling of the tool section name, when the user has
// one in another case, so the two do not become rival sections.
func (c *Config) toolKey(name string) string {
	for k := range c.Tools {
		if strings.EqualFold(k, name) {
			return k
		}
	}
	return name
}

// RepositoryRoot is the nearest directory from dir upward with a .git
// entry, its links resolved; "" when there is none.
func RepositoryRoot(dir string) string { return physical(repositoryRoot(dir)) }

// NewProjectDir is where a project's settings would go when dir has none
// yet: the project found from dir, else the repository's root; "" outside
// a repository, where no directory is a project until it has a .forge.
func NewProjectDir(dir string) string {
	if p := FindProject(dir); p != "" {
		return p
	}
	return physical(repositoryRoot(dir))
}
