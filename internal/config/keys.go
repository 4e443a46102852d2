package config

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/logging"
)

// setting is one scalar or list key: its name in the file, its flag, and how a raw
// value becomes a Config field.
type setting struct {
	key  string // in the file and viper; the environment variable is FORGE_ + upper case
	flag string // long flag name, "" when there is none
	// get is the current value as Set would accept it back.
	get func(c Config) string
	// apply checks v and stores it in c; the error is the reason v is unusable.
	apply func(c *Config, v any, r resolver) error
}

// settings lists every key Load resolves through viper, in the order they are applied
// and Keys lists them: the shell's, then the agent's.
var settings = slices.Concat(shellSettings, agentSettings, sandboxSettings)

// minWidth is the narrowest panel the renderer draws (render.MinWidth): a narrower
// width would be widened silently, so it is refused instead.
const minWidth = 40

// shellSettings are the keys of the shell and its tools, working_dir first, so a bad
// one is the first error reported.
var shellSettings = []setting{
	{key: "working_dir", flag: "working-dir", get: func(c Config) string { return c.WorkingDir },
		apply: func(c *Config, v any, r resolver) error {
			s, err := toString(v)
			if err != nil {
				return err
			}
			if s == "" {
				s = r.cwd
			}
			dir, err := r.dir(s)
			if err == nil {
				c.WorkingDir = dir
			}
			return err
		}},
	{key: "timeout", flag: "timeout", get: func(c Config) string { return c.Timeout.String() },
		apply: func(c *Config, v any, _ resolver) error {
			d, err := toDuration(v)
			if err == nil {
				c.Timeout = d
			}
			return err
		}},
	{key: "dry_run", flag: "dry-run", get: func(c Config) string { return fmt.Sprint(c.DryRun) },
		apply: func(c *Config, v any, _ resolver) (err error) {
			c.DryRun, err = keepBool(c.DryRun, v)
			return err
		}},
	{key: "output", flag: "output", get: func(c Config) string { return c.Output },
		apply: func(c *Config, v any, _ resolver) error {
			s, err := oneOf(v, "text", "json")
			if err == nil {
				c.Output = s
			}
			return err
		}},
	{key: "log_level", flag: "log-level", get: func(c Config) string { return c.LogLevel },
		apply: func(c *Config, v any, _ resolver) error {
			s, err := oneOf(v, logging.Levels()...)
			if err == nil {
				c.LogLevel = s
			}
			return err
		}},
	{key: "log_file", flag: "log-file", get: func(c Config) string { return c.LogFile },
		apply: func(c *Config, v any, r resolver) error {
			return setPath(&c.LogFile, v, r)
		}},
	{key: "no_color", flag: "no-color", get: func(c Config) string { return fmt.Sprint(c.NoColor) },
		apply: func(c *Config, v any, _ resolver) (err error) {
			c.NoColor, err = keepBool(c.NoColor, v)
			return err
		}},
	{key: "width", flag: "width", get: func(c Config) string { return fmt.Sprint(c.Width) },
		apply: func(c *Config, v any, _ resolver) error {
			n, err := toInt(v)
			if err != nil {
				return err
			}
			if n != 0 && n < minWidth {
				return fmt.Errorf("must be 0 (detect) or at least %d columns", minWidth)
			}
			c.Width = n
			return nil
		}},
	{key: "max_output_size", get: func(c Config) string { return fmt.Sprint(c.MaxOutputSize) },
		apply: func(c *Config, v any, _ resolver) error {
			return setInt(&c.MaxOutputSize, v, 1, "must be a positive number of bytes")
		}},
	{key: "history_file", get: func(c Config) string { return c.HistoryFile },
		apply: func(c *Config, v any, r resolver) error {
			return setPath(&c.HistoryFile, v, r)
		}},
	{key: "sessions_dir", get: func(c Config) string { return c.SessionsDir },
		apply: func(c *Config, v any, r resolver) error {
			return setPath(&c.SessionsDir, v, r)
		}},
	{key: "history_capacity", get: func(c Config) string { return fmt.Sprint(c.HistoryCapacity) },
		apply: func(c *Config, v any, _ resolver) error {
			return setInt(&c.HistoryCapacity, v, 0, "must be 0 (keep none) or more")
		}},
	{key: "allowed_roots", get: func(c Config) string { return joinList(c.AllowedRoots) },
		apply: func(c *Config, v any, r resolver) error {
			return setPaths(&c.AllowedRoots, v, r)
		}},
	// --plugins-dir adds to plugin_dirs rather than replacing it, so that a plugin
	// being developed elsewhere loads beside the installed ones; it is therefore not
	// this setting's flag (see Load).
	{key: "plugin_dirs", get: func(c Config) string { return joinList(c.PluginDirs) },
		apply: func(c *Config, v any, r resolver) error {
			return setPaths(&c.PluginDirs, v, r)
		}},
	{key: "fail_fast", flag: "fail-fast", get: func(c Config) string { return fmt.Sprint(c.FailFast) },
		apply: func(c *Config, v any, _ resolver) (err error) {
			c.FailFast, err = keepBool(c.FailFast, v)
			return err
		}},
	{key: "pass_env", get: func(c Config) string { return strings.Join(c.PassEnv, ":") },
		apply: func(c *Config, v any, _ resolver) error {
			names, err := toNames(v)
			if err == nil {
				c.PassEnv = names
			}
			return err
		}},
	{key: "read.allow_outside", get: func(c Config) string { return fmt.Sprint(c.Read.AllowOutside) },
		apply: func(c *Config, v any, _ resolver) (err error) {
			c.Read.AllowOutside, err = keepBool(c.Read.AllowOutside, v)
			return err
		}},
}

// sectionKeys are the top-level keys read from the raw file rather than through
// viper: their contents are maps whose keys are names (tools, servers) or lists that
// no environment variable could spell.
var sectionKeys = []string{"tools", "mcp", "permissions", "models", "hooks"}

// groupKeys are the top-level mappings whose fields are settings ("read" for
// read.allow_outside), in the order of their first setting.
func groupKeys() []string {
	var groups []string
	for _, s := range settings {
		if g, _, ok := strings.Cut(s.key, "."); ok && !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	return groups
}

// groupFields are the fields of the group g, without the "g." prefix.
func groupFields(g string) []string {
	var fields []string
	for _, s := range settings {
		if f, ok := strings.CutPrefix(s.key, g+"."); ok {
			fields = append(fields, f)
		}
	}
	return fields
}

// envName is the environment variable of a key: FORGE_ and the key in upper case, as
// viper's SetEnvPrefix("FORGE") with the "-"/"." to "_" replacer names it.
func envName(key string) string {
	return "FORGE_" + strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(key))
}

// lookupSetting finds a setting by key, accepting "-" for "_" and any case.
func lookupSetting(key string) (setting, bool) {
	k := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(key)), "-", "_")
	for _, s := range settings {
		if s.key == k {
			return s, true
		}
	}
	return setting{}, false
}

// Keys returns the keys Set accepts, in the order of the Config fields.
func Keys() []string {
	keys := make([]string, len(settings))
	for i, s := range settings {
		keys[i] = s.key
	}
	return keys
}

// Set changes one setting on c, parsing and checking value exactly as Load does (the
// shell's /set). Relative paths are resolved against c.WorkingDir. On error c is
// unchanged; an unknown key is an error listing the valid ones.
func (c *Config) Set(key, value string) error {
	s, ok := lookupSetting(key)
	if !ok {
		return fmt.Errorf("unknown setting %q: valid settings are %s", key, strings.Join(Keys(), ", "))
	}
	before := s.get(*c)
	if err := s.apply(c, value, resolver{cwd: c.WorkingDir, home: c.home}); err != nil {
		return &ValueError{Key: s.key, Value: value, Reason: err.Error()}
	}
	if s.get(*c) == before {
		return nil
	}
	// A fresh map: copies of c share the old one.
	c.origins = maps.Clone(c.origins)
	if c.origins == nil {
		c.origins = map[string]string{}
	}
	c.origins[s.key] = "/set"
	return nil
}

// Get returns a setting's current value as /set would accept it back (lists joined
// like $PATH); false for an unknown key.
func (c Config) Get(key string) (string, bool) {
	s, ok := lookupSetting(key)
	if !ok {
		return "", false
	}
	return s.get(c), true
}

// defaults are the values of the bottom layer, keyed like settings.
func defaults(env func(string) (string, bool), cwd string) map[string]any {
	noColor := false
	if v, ok := env("NO_COLOR"); ok && v != "" {
		// no-color.org: a non-empty NO_COLOR turns colour off unless the user's
		// configuration or a flag says otherwise, so it acts as the default.
		noColor = true
	}
	var plugins []string
	if d := DefaultPluginDir(env); d != "" {
		plugins = []string{d}
	}
	d := map[string]any{
		"working_dir":      cwd,
		"timeout":          120 * time.Second,
		"dry_run":          false,
		"output":           "text",
		"log_level":        "warn",
		"log_file":         "",
		"no_color":         noColor,
		"width":            0,
		"max_output_size":  100000,
		"history_file":     DefaultHistoryFile(env),
		"sessions_dir":     DefaultSessionsDir(env),
		"history_capacity": 1000,
		"allowed_roots":    []string{},
		"plugin_dirs":      plugins,
		"fail_fast":        false,
		// Names that look secret are kept from tools' processes unless listed here.
		"pass_env": []string{},
		// Reading is harmless to the files read, so by default the readers may look
		// anywhere (reference code, system headers); writers stay inside the roots.
		"read.allow_outside": true,
	}
	maps.Copy(d, agentDefaults())
	d["sandbox.mode"] = "workspace-write"
	d["sandbox.writable"] = []string{}
	d["sandbox.caches"] = defaultCaches(env)
	d["sandbox.network.allow"] = []string{}
	return d
}

func keepBool(old bool, v any) (bool, error) {
	b, err := toBool(v)
	if err != nil {
		return old, err
	}
	return b, nil
}

func setInt(dst *int, v any, min int, rangeReason string) error {
	n, err := toInt(v)
	if err != nil {
		return err
	}
	if n < min {
		return errors.New(rangeReason)
	}
	*dst = n
	return nil
}

func setPath(dst *string, v any, r resolver) error {
	s, err := toString(v)
	if err != nil {
		return err
	}
	p, err := r.path(s)
	if err == nil {
		*dst = p
	}
	return err
}

func setPaths(dst *[]string, v any, r resolver) error {
	l, err := toList(v)
	if err != nil {
		return err
	}
	ps, err := r.paths(l)
	if err == nil {
		*dst = ps
	}
	return err
}

func joinList(l []string) string {
	return strings.Join(l, string(os.PathListSeparator))
}
