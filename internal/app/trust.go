package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/termsafe"
)

// loadTrust reads the person's trusted project directories. A trust file
// that cannot be read trusts nothing, with a warning: forge still starts,
// and narrower is the safe way to be wrong.
func (a *App) loadTrust() (*config.Trust, string) {
	path := config.DefaultTrustFile(a.opts.LookupEnv)
	t, err := config.LoadTrust(path)
	if err != nil {
		return t, err.Error() + "; no project is trusted this run"
	}
	return t, ""
}

// mayAskTrust says whether to ask the person, at start-up, to trust the
// project whose settings were ignored: only with a person at a terminal,
// and not for the commands that show or change trust themselves.
func (a *App) mayAskTrust(cmd *cobra.Command, cfg config.Config) bool {
	if cfg.Project.Warning() == "" || !a.ios.InTerminal || !a.errTTY {
		return false
	}
	switch cmd.Name() {
	case "version", "help":
		return false
	}
	return !showsTrust(cmd)
}

// showsTrust says the command shows or changes the project's trust itself,
// so a question or a warning about it would only repeat it.
func showsTrust(cmd *cobra.Command) bool {
	return cmd.Name() == "trust" || cmd.Name() == "config"
}

// askTrust puts the question on standard error and reads the answer from
// standard input; anything but yes is no.
func (a *App) askTrust(cfg config.Config) bool {
	p := cfg.Project
	what := "asks for more than forge allows by default"
	if p.Changed {
		what = "changed since you trusted it, and asks for more than forge allows by default"
	}
	// The names and commands come from the repository: sanitised, so that
	// escape sequences in them cannot redraw the question.
	fmt.Fprintf(a.ios.Err, "This project's %s %s:\n  %s\n"+
		"Trust %s and apply them? Only trust a repository whose code you trust. [y/N] ",
		termsafe.Text(p.File), what, termsafe.Text(strings.Join(p.Ignored, "\n  ")), termsafe.Text(cfg.ProjectDir))
	answer := strings.ToLower(strings.TrimSpace(readLine(a.ios.In)))
	return answer == "y" || answer == "yes"
}

// readLine reads up to a newline a byte at a time, so that nothing meant
// for the shell after it is taken from the input.
func readLine(r io.Reader) string {
	var b strings.Builder
	var c [1]byte
	for b.Len() < 1024 {
		n, err := r.Read(c[:])
		if n == 1 {
			if c[0] == '\n' {
				break
			}
			b.WriteByte(c[0])
		}
		if err != nil {
			break
		}
	}
	return b.String()
}

// repairs says the command mends or inspects what a broken project file
// would otherwise keep it from running: undo the edit that broke it, look
// at the configuration, or change trust.
func repairs(cmd *cobra.Command) bool {
	name := cmd.Name()
	if p := cmd.Parent(); p != nil && p.Parent() != nil {
		name = p.Name() // forge sessions rm
	}
	switch name {
	case "undo", "trust", "config", "sessions", "version":
		return true
	}
	return false
}

// protectedDirs are where the agent's edits always ask: the person's forge
// configuration (settings, hooks, commands) and state (which projects are
// trusted). Project .forge directories are protected by name.
func (a *App) protectedDirs() []string {
	var dirs []string
	for _, f := range []string{config.DefaultConfigFile(a.opts.LookupEnv), config.DefaultTrustFile(a.opts.LookupEnv)} {
		if f != "" {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	// A --config file elsewhere is protected itself, not its directory,
	// which may be the repository the agent works in.
	if a.cfg.File != "" {
		dirs = append(dirs, a.cfg.File)
	}
	return append(dirs, a.hookScripts()...)
}

// hookScripts are the files the configured hooks' commands name (sh
// scripts/check.sh, $FORGE_PROJECT_DIR/tools/guard.py): an agent that may
// edit files must not rewrite the code a hook runs unasked.
func (a *App) hookScripts() []string {
	var files []string
	for _, h := range a.cfg.Hooks {
		dir := a.cfg.WorkingDir
		if a.inProject(h.File) {
			dir = a.cfg.ProjectDir
		}
		home := a.getenv("HOME")
		expand := strings.NewReplacer(`"`, "", "'", "",
			"${FORGE_PROJECT_DIR}", a.projectDir(), "$FORGE_PROJECT_DIR", a.projectDir(),
			"${CLAUDE_PROJECT_DIR}", a.projectDir(), "$CLAUDE_PROJECT_DIR", a.projectDir(),
			"${HOME}", home, "$HOME", home)
		for _, w := range strings.Fields(h.Command) {
			w = expand.Replace(w)
			if home != "" && strings.HasPrefix(w, "~/") {
				w = filepath.Join(home, w[2:])
			}
			if !strings.Contains(w, "/") && !scriptLike(w) || strings.ContainsAny(w, "$`*?") {
				continue
			}
			if !filepath.IsAbs(w) {
				w = filepath.Join(dir, w)
			}
			// Files only: a word such as ./ or / names a directory, and
			// protecting it would make every edit ask.
			if fi, err := os.Stat(w); err == nil && !fi.Mode().IsRegular() || err != nil && !scriptLike(w) {
				continue
			}
			// The person's and the project's scripts, not the system's
			// interpreters (/bin/sh), which the agent cannot write anyway.
			if w = filepath.Clean(w); a.mine(w, home) {
				files = append(files, w)
			}
		}
	}
	return files
}

// mine says path lies in the project, the working directory or home.
func (a *App) mine(path, home string) bool {
	for _, d := range []string{a.cfg.ProjectDir, a.cfg.WorkingDir, home} {
		if d != "" && strings.HasPrefix(path, d+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// projectDir is FORGE_PROJECT_DIR as the hooks see it.
func (a *App) projectDir() string {
	if a.cfg.ProjectDir != "" {
		return a.cfg.ProjectDir
	}
	return a.cfg.WorkingDir
}

// scriptLike says a bare word of a hook's command names a script.
func scriptLike(w string) bool {
	switch filepath.Ext(w) {
	case ".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".ts", ".rb", ".pl", ".php", ".lua":
		return true
	}
	return false
}
