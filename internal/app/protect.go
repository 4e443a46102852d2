package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/plugin"
	"github.com/forgehq/forge/internal/scripts"
)

// protectedPaths are where the agent's edits always ask, files or
// directories: the person's forge configuration (settings, hooks,
// commands, plugins) and state (which projects are trusted), git's own
// configuration, and what the configured hooks, plugins and MCP servers
// run. A change to any of them would run the agent's code the next time
// forge starts, a hook fires or git runs. Project .forge directories are
// protected by name.
func (a *App) protectedPaths() []string {
	var paths []string
	for _, f := range []string{config.DefaultConfigFile(a.opts.LookupEnv), config.DefaultTrustFile(a.opts.LookupEnv)} {
		if f != "" {
			paths = append(paths, filepath.Dir(f))
		}
	}
	// A --config file elsewhere is protected itself, not its directory,
	// which may be the repository the agent works in.
	if a.cfg.File != "" {
		paths = append(paths, a.cfg.File)
	}
	paths = append(paths, a.gitConfig()...)
	if home := a.getenv("HOME"); filepath.IsAbs(home) {
		// Claude Code's user file, whose MCP servers forge starts (its
		// ~/.claude directory is protected by name, as every .claude is).
		paths = append(paths, filepath.Join(home, ".claude.json"))
	}
	code := slices.Concat(a.hookScripts(), a.pluginFiles(), a.mcpScripts())
	paths = append(paths, code...)
	paths = append(paths, codeBeside(code)...)
	return a.narrow(paths)
}

// codeBeside are the places that hold code the given scripts may load
// without naming it where forge can read it (source "$(dirname "$0")/lib.sh",
// an import computed at run time): each script's directory, and the
// node_modules beside a package.json, whose scripts run its programs.
// narrow drops a directory that holds the work, so a script at the
// project's root protects only what Loads finds it loading.
func codeBeside(code []string) []string {
	var dirs []string
	for _, p := range code {
		if filepath.Base(p) == "package.json" {
			dirs = append(dirs, filepath.Join(filepath.Dir(p), "node_modules"))
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			continue // a Python package: protected itself
		}
		dirs = append(dirs, filepath.Dir(p))
	}
	return dirs
}

// gitConfig is the person's git configuration: its aliases, hooksPath,
// fsmonitor and pager are commands that any git call runs.
func (a *App) gitConfig() []string {
	var paths []string
	if home := a.getenv("HOME"); filepath.IsAbs(home) {
		paths = append(paths, filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git"))
	}
	if x := a.getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		paths = append(paths, filepath.Join(x, "git"))
	}
	if g := a.getenv("GIT_CONFIG_GLOBAL"); filepath.IsAbs(g) {
		paths = append(paths, g)
	}
	return paths
}

// hookScripts are the files the configured hooks' commands run (sh
// scripts/check.sh, python3 -m tools.guard, cd tools && ./x), from the
// directory each hook runs in.
func (a *App) hookScripts() []string {
	var files []string
	for _, h := range a.cfg.Hooks {
		files = append(files, a.hookCode(h)...)
	}
	return files
}

// projectHook says h comes from the project's settings (.forge or
// Claude Code's), which run at the project's root.
func (a *App) projectHook(h config.Hook) bool {
	return a.inProject(h.File) || a.inClaudeProject(h.File)
}

// hookCode are the files h's command runs and what they load, taken from
// the directory the hook runs in.
func (a *App) hookCode(h config.Hook) []string {
	dir := a.cfg.WorkingDir
	if a.projectHook(h) {
		dir = a.cfg.ProjectDir
	}
	place := a.place(dir, nil)
	found := scripts.Line(h.Command, place)
	return append(found, scripts.Loads(found, place)...)
}

// pluginFiles are the plugin directories, whose manifests say what runs
// as a tool, their manifests (which alone stay protected when the
// directory holds the working directory: plugin_dirs: [.]) and the
// programs the manifests name.
func (a *App) pluginFiles() []string {
	files := append([]string(nil), a.cfg.PluginDirs...)
	manifests, _ := plugin.Scan(a.cfg.PluginDirs)
	for _, m := range manifests {
		files = append(files, m.Path)
		argv := append([]string(nil), m.Command...)
		if len(argv) > 0 && strings.ContainsRune(argv[0], '/') && !filepath.IsAbs(argv[0]) {
			argv[0] = filepath.Join(m.Dir, argv[0]) // as the plugin resolves it
		}
		// The program's arguments are taken from the directory the tool runs in.
		found := scripts.Argv(argv, a.place(a.cfg.WorkingDir, nil))
		files = append(files, found...)
		files = append(files, scripts.Loads(found, a.place(a.cfg.WorkingDir, nil))...)
	}
	return files
}

// mcpScripts are the files the configured MCP servers' commands run
// (node ./tools/server.js, python -m srv, ./bin/srv), from each server's
// working directory.
func (a *App) mcpScripts() []string {
	var files []string
	cwd, err := a.opts.Getwd()
	if err != nil {
		cwd = a.cfg.WorkingDir
	}
	for _, s := range a.cfg.MCP.Servers {
		if s.Command == "" {
			continue
		}
		dir := s.Cwd
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(cwd, dir)
		}
		argv := append([]string{s.Command}, s.Args...)
		found := scripts.Argv(argv, a.place(dir, s.Env))
		// A server started with npx (most are) would make the working
		// directory's node_modules read-only, and every npm install in the
		// sandbox fail; hooks, which run beside the agent's commands, keep it.
		found = slices.DeleteFunc(found, func(p string) bool { return filepath.Base(p) == "node_modules" })
		files = append(files, found...)
		files = append(files, scripts.Loads(found, a.place(dir, s.Env))...)
	}
	return files
}

// place is where a hook, plugin or server command runs: dir, with the
// variables hooks are given and the environment, env's values first.
func (a *App) place(dir string, env map[string]string) scripts.Place {
	return scripts.Place{Dir: dir, Home: a.getenv("HOME"), Env: func(name string) (string, bool) {
		if v, ok := env[name]; ok {
			return v, true
		}
		switch name {
		case "FORGE_PROJECT_DIR", "CLAUDE_PROJECT_DIR":
			return a.projectDir(), true
		}
		return a.opts.LookupEnv(name)
	}}
}

// narrow drops the paths that would make every edit ask (a directory that
// holds the working directory, the project or home: go run ., a hook that
// runs the repository's package.json is fine, its root is not) and the
// repeats.
func (a *App) narrow(paths []string) []string {
	seen := map[string]bool{}
	out := paths[:0]
	for _, p := range paths {
		p = filepath.Clean(p)
		if seen[p] || !filepath.IsAbs(p) || a.holdsWork(p) {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

// holdsWork says p is the working directory, the project, home or a
// directory above one of them.
func (a *App) holdsWork(p string) bool {
	for _, d := range []string{a.cfg.WorkingDir, a.cfg.ProjectDir, a.getenv("HOME")} {
		if d != "" && within(filepath.Clean(d), filepath.Clean(p)) {
			return true
		}
	}
	return false
}

// within says p is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// projectDir is FORGE_PROJECT_DIR as the hooks see it.
func (a *App) projectDir() string {
	if a.cfg.ProjectDir != "" {
		return a.cfg.ProjectDir
	}
	return a.cfg.WorkingDir
}
