package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// DefaultConfigFile is $XDG_CONFIG_HOME/forge/config.yaml, or ~/.config/forge/config.yaml
// when XDG_CONFIG_HOME is unset or relative (the XDG spec says to ignore a relative
// one); "" when neither that nor HOME is known. A nil env means os.LookupEnv.
func DefaultConfigFile(env func(string) (string, bool)) string {
	return xdgPath(env, "XDG_CONFIG_HOME", ".config", "forge", "config.yaml")
}

// DefaultHistoryFile is $XDG_STATE_HOME/forge/history, or ~/.local/state/forge/history;
// "" when neither is known.
func DefaultHistoryFile(env func(string) (string, bool)) string {
	return xdgPath(env, "XDG_STATE_HOME", filepath.Join(".local", "state"), "forge", "history")
}

// DefaultMCPAuthDir is $XDG_STATE_HOME/forge/mcp-auth, or
// ~/.local/state/forge/mcp-auth: the MCP servers' OAuth logins, one 0600
// file each; "" when neither is known.
func DefaultMCPAuthDir(env func(string) (string, bool)) string {
	return xdgPath(env, "XDG_STATE_HOME", filepath.Join(".local", "state"), "forge", "mcp-auth")
}

// DefaultSessionsDir is $XDG_DATA_HOME/forge/sessions, or
// ~/.local/share/forge/sessions; "" when neither is known.
func DefaultSessionsDir(env func(string) (string, bool)) string {
	return xdgPath(env, "XDG_DATA_HOME", filepath.Join(".local", "share"), "forge", "sessions")
}

// DefaultPluginDir is $XDG_CONFIG_HOME/forge/plugins, or ~/.config/forge/plugins;
// "" when neither is known.
func DefaultPluginDir(env func(string) (string, bool)) string {
	return xdgPath(env, "XDG_CONFIG_HOME", ".config", "forge", "plugins")
}

// DefaultCommandsDir is $XDG_CONFIG_HOME/forge/commands, or ~/.config/forge/commands:
// the user's custom slash commands; "" when neither is known.
func DefaultCommandsDir(env func(string) (string, bool)) string {
	return xdgPath(env, "XDG_CONFIG_HOME", ".config", "forge", "commands")
}

// DefaultAgentsDir is $XDG_CONFIG_HOME/forge/agents, or ~/.config/forge/agents: the
// user's custom subagents; "" when neither is known.
func DefaultAgentsDir(env func(string) (string, bool)) string {
	return xdgPath(env, "XDG_CONFIG_HOME", ".config", "forge", "agents")
}

// DefaultSkillsDir is $XDG_CONFIG_HOME/forge/skills, or ~/.config/forge/skills: the
// user's skills (NAME/SKILL.md); "" when neither is known.
func DefaultSkillsDir(env func(string) (string, bool)) string {
	return xdgPath(env, "XDG_CONFIG_HOME", ".config", "forge", "skills")
}

// xdgPath joins elem under the XDG base directory named by xdgVar, falling back to
// $HOME/fallback.
func xdgPath(env func(string) (string, bool), xdgVar, fallback string, elem ...string) string {
	if env == nil {
		env = os.LookupEnv
	}
	base := ""
	if dir, ok := env(xdgVar); ok && filepath.IsAbs(dir) {
		base = dir
	} else if home, ok := env("HOME"); ok && home != "" {
		base = filepath.Join(home, fallback)
	} else {
		return ""
	}
	return filepath.Join(append([]string{base}, elem...)...)
}

// resolver turns the paths users write into absolute ones.
type resolver struct {
	cwd  string // relative paths are resolved against it
	home string // "~" and "~/x" expand to it
}

// errNoHome is the reason a path with "~" fails when HOME is unknown.
var errNoHome = errors.New(`cannot expand "~": HOME is not set`)

// path expands a leading "~" and makes p absolute and clean; "" stays "".
// "~user" is not expanded: it names another user's home, which forge does not look up.
func (r resolver) path(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		if r.home == "" {
			return "", errNoHome
		}
		p = filepath.Join(r.home, p[1:])
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.cwd, p)
	}
	return filepath.Clean(p), nil
}

// paths resolves every element of ps.
func (r resolver) paths(ps []string) ([]string, error) {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		if p == "" {
			continue
		}
		abs, err := r.path(p)
		if err != nil {
			return nil, err
		}
		out = append(out, abs)
	}
	return out, nil
}

// dir resolves p and checks that it names an existing directory.
func (r resolver) dir(p string) (string, error) {
	abs, fi, err := r.stat(p, "no such directory")
	if err == nil && !fi.IsDir() {
		err = errors.New("not a directory")
	}
	return abs, err
}

// file resolves p and checks that it names an existing file that is not a directory.
func (r resolver) file(p string) (string, error) {
	abs, fi, err := r.stat(p, "no such file")
	if err == nil && fi.IsDir() {
		err = errors.New("not a file but a directory")
	}
	return abs, err
}

// stat resolves p and stats it; its errors are reasons for a ValueError, without
// the path, which the message already holds as the value. missing is the reason
// when nothing is there.
func (r resolver) stat(p, missing string) (string, os.FileInfo, error) {
	abs, err := r.path(p)
	if err != nil {
		return "", nil, err
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", nil, errors.New(missing)
	case err != nil:
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", nil, err
	}
	return abs, fi, nil
}
