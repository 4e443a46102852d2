package commands

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/render"
)

// settingsTarget is a settings file an "always" answer can be kept in.
type settingsTarget struct {
	key     string // the answer that picks it
	what    string // "this project's settings"
	path    string
	project string // the project's directory, for a project's file
}

// settingsTargets are the files "always, saved" can write: the project's
// .forge/config.yaml (where a repository or a project is) and the
// person's own config file.
func (e *Env) settingsTargets() []settingsTarget {
	var out []settingsTarget
	if e.Config.WorkingDir != "" {
		dir := e.Config.ProjectDir
		if dir == "" {
			dir = config.NewProjectDir(e.Config.WorkingDir)
		}
		if dir != "" {
			out = append(out, settingsTarget{key: "p", what: "this project's settings",
				path: filepath.Join(dir, config.ProjectDirName, "config.yaml"), project: dir})
		}
	}
	user := e.Config.File
	if user == "" && e.LookupEnv != nil {
		user = config.DefaultConfigFile(e.LookupEnv)
	}
	if user != "" {
		out = append(out, settingsTarget{key: "u", what: "your settings", path: user})
	}
	return out
}

// saveAlways asks where to keep rules and adds them to that file's
// permissions.allow. It reports whether they were saved; Enter, or a file
// that cannot take them, goes back to the question.
func (e *Env) saveAlways(ctx context.Context, rules []string) (bool, error) {
	targets := e.settingsTargets()
	var answers []string
	keys := ""
	for _, t := range targets {
		answers = append(answers, "["+t.key+"] "+t.what+" ("+e.shortPath(t.path)+")")
		keys += t.key
	}
	answers = append(answers, "[Enter] back")
	question := render.Choices("Save "+strings.Join(rules, ", ")+" in permissions.allow of:", answers, e.TermWidth())
	key, err := e.askChoice(ctx, question, keys)
	if err != nil {
		return false, err
	}
	for _, t := range targets {
		if t.key == key {
			return e.saveRules(t, rules), nil
		}
	}
	return false, nil
}

// saveRules writes rules to t and says where they went, and whether they
// apply at the next start: a project's file applies only once trusted.
func (e *Env) saveRules(t settingsTarget, rules []string) bool {
	var home string
	if e.LookupEnv != nil {
		home, _ = e.LookupEnv("HOME")
	}
	// The person's own rule does not make a project they trusted untrusted,
	// nor does it need their word for a .forge it alone makes up.
	keepTrust := false
	if t.project != "" {
		_, err := os.Stat(filepath.Join(t.project, config.ProjectDirName))
		before, herr := config.ProjectHash(t.project, home)
		p := e.Config.Project
		keepTrust = errors.Is(err, fs.ErrNotExist) ||
			herr == nil && p.Trusted && t.project == e.Config.ProjectDir && before == p.Hash
	}
	added, err := config.AddAllowRules(t.path, rules, t.project == "")
	if err != nil {
		e.Printer().Error("error", "Not saved: "+err.Error())
		return false
	}
	text := "Saved " + strings.Join(rules, ", ") + " in permissions.allow of " + e.shortPath(t.path) + "."
	if len(added) == 0 {
		text = e.shortPath(t.path) + " already allows " + strings.Join(rules, ", ") + "."
	}
	if t.project != "" {
		text += e.retrust(t.project, home, keepTrust)
	}
	e.Printer().Value(text, map[string]any{"saved": rules, "file": t.path})
	return true
}

// retrust trusts the project again after the person's own change when it
// was trusted (or new) before, and otherwise says what it takes.
func (e *Env) retrust(dir, home string, keep bool) string {
	later := " It applies from the next start once you trust the project (forge trust " + dir + "); this session allows it already."
	if !keep || e.Trust == nil {
		return later
	}
	hash, err := config.ProjectHash(dir, home)
	if err == nil {
		now := time.Now
		if e.Clock != nil {
			now = e.Clock
		}
		err = e.Trust.Add(dir, hash, now())
	}
	if err != nil {
		return later
	}
	if dir == e.Config.ProjectDir {
		e.Config.Project.Hash, e.Config.Project.Trusted = hash, true
	}
	return ""
}

// shortPath is path with the home directory written ~.
func (e *Env) shortPath(path string) string {
	if e.LookupEnv == nil {
		return path
	}
	home, ok := e.LookupEnv("HOME")
	if !ok || home == "" || !strings.HasPrefix(path, home+string(filepath.Separator)) {
		return path
	}
	return "~" + path[len(home):]
}
