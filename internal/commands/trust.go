package commands

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/config"
)

func trustCommand() Command {
	return Command{
		Name: "trust", Usage: "/trust [--list | --revoke] [DIR]", Summary: "Trust a project, so its settings may widen what forge does",
		Help: "A repository is code from somewhere else: its .forge/config.yaml may only narrow what forge does (deny rules, ask, lower limits) " +
			"until you trust its directory. Trusting lets its approval mode, allow rules, hooks, MCP servers, plugins and higher limits apply. " +
			"DIR defaults to the current project. Trust is kept per directory in $XDG_STATE_HOME/forge/trusted.json, never in the project.",
		Example: "/trust\n/trust --list", CLIExample: "forge trust ~/src/project\nforge trust --revoke ~/src/project",
		Args: AtMost(1),
		Flags: func(fs *pflag.FlagSet) Run {
			list := fs.Bool("list", false, "list the trusted directories")
			revoke := fs.Bool("revoke", false, "stop trusting the directory")
			return func(_ context.Context, env *Env, inv Invocation) int {
				return runTrust(env, inv, *list, *revoke)
			}
		},
	}
}

func runTrust(env *Env, inv Invocation, list, revoke bool) int {
	if env.Trust == nil {
		return env.Fail(ExitFailed, "error", "trust is not available in this forge")
	}
	if list {
		if len(inv.Args) > 0 || revoke {
			return env.Usage(trustCommand(), inv, "--list lists the trusted projects: it takes no directory and no --revoke")
		}
		dirs := env.Trust.Dirs()
		text := "No trusted projects."
		if len(dirs) > 0 {
			text = "Trusted projects:\n  " + strings.Join(dirs, "\n  ")
		}
		env.Printer().Value(text, map[string]any{"trusted": dirs})
		return ExitOK
	}
	dir, err := trustTarget(env, inv.Args)
	if err != nil && revoke && len(inv.Args) == 1 {
		// A project since deleted can still be forgotten.
		dir, err = absIn(env.Config.WorkingDir, inv.Args[0]), nil
	}
	if err != nil {
		return env.Fail(ExitUsage, "usage", err.Error())
	}
	if revoke {
		removed, err := env.Trust.Remove(dir)
		if err != nil {
			return env.Fail(ExitFailed, "error", err.Error())
		}
		text := "No longer trusted: " + dir
		if !removed {
			text = dir + " was not trusted."
		}
		env.Printer().Value(text, map[string]any{"dir": dir, "trusted": false})
		return ExitOK
	}
	var home string
	if env.LookupEnv != nil {
		home, _ = env.LookupEnv("HOME")
	}
	hash, err := config.ProjectHash(dir, home)
	if err == nil && dir == env.Config.ProjectDir && hash != env.Config.Project.Hash {
		// Trust what the person was shown, not what changed since.
		err = errors.New("the project's .forge, or a file it runs, changed since forge read it: start forge again to see what it asks for, then trust it")
	}
	if err == nil {
		err = env.Trust.Add(dir, hash, env.Clock())
	}
	if err != nil {
		return env.Fail(ExitFailed, "error", err.Error())
	}
	env.Printer().Value(trustedText(env, dir, inv.Shell), map[string]any{"dir": dir, "trusted": true})
	return ExitOK
}

// trustTarget is the project directory to trust: the one found from DIR, or
// the current project.
func trustTarget(env *Env, args []string) (string, error) {
	if len(args) == 0 {
		if env.Config.ProjectDir == "" {
			return "", fmt.Errorf("no project here: no %s directory in %s or above it, up to the repository's root", config.ProjectDirName, env.Config.WorkingDir)
		}
		return env.Config.ProjectDir, nil
	}
	dir := absIn(env.Config.WorkingDir, args[0])
	if !isDirectory(dir) {
		return "", errors.New("no such directory: " + dir)
	}
	if p := config.FindProject(dir); p != "" {
		return p, nil
	}
	return "", fmt.Errorf("no project at %s: no %s directory there or above it, up to the repository's root", dir, config.ProjectDirName)
}

// trustedText says what trusting dir changed.
func trustedText(env *Env, dir string, shell bool) string {
	p := env.Config.Project
	what := filepath.Join(config.ProjectDirName, "config.yaml") + " now applies"
	if p.File == "" && env.Config.ProjectDir == dir {
		var files []string
		for _, f := range []string{filepath.Join(config.ClaudeDirName, "settings.json"), filepath.Join(config.ClaudeDirName, "settings.local.json"), ".mcp.json"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
				files = append(files, f)
			}
		}
		what = "Claude Code settings (" + strings.Join(files, ", ") + ") now apply"
		if len(files) == 0 {
			what = "Claude Code settings now apply"
		}
	}
	text := "Trusted " + dir + ": its " + what + " in full."
	if env.Config.ProjectDir == dir && len(p.Ignored) > 0 {
		text += " Newly applied: " + strings.Join(p.Ignored, ", ") + "."
	}
	if shell {
		text += " Restart forge for it to take effect."
	}
	return text
}

func isDirectory(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// absIn is p made absolute against dir, and clean.
func absIn(dir, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}
