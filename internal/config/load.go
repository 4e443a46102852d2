package config

import (
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/logging"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Load builds a Config: defaults < the user's config file < the project's
// .forge/config.yaml < FORGE_* environment < flags that were set. A project's
// settings that widen what forge may do apply only when src.Trusted trusts it. Every error says where the bad value came from (the file, the variable
// or the flag); problems that do not stop loading, such as unknown keys in the file,
// are returned in Config.Warnings.
func Load(src Source) (Config, error) {
	src = src.withDefaults()
	cwd, err := src.Getwd()
	if err != nil {
		return Config{}, fmt.Errorf("current directory: %w", err)
	}
	home, _ := src.Env("HOME")
	r := resolver{cwd: cwd, home: home}

	path, explicit := src.File, true
	if path == "" {
		path = changedFlag(src.Flags, "config")
	}
	if path == "" {
		path, explicit = DefaultConfigFile(src.Env), false
	}
	var data []byte
	if path != "" {
		if path, err = r.path(path); err != nil {
			return Config{}, fmt.Errorf("config file: %w", err)
		}
		var found bool
		if data, found, err = readFile(path, explicit); err != nil {
			return Config{}, err
		}
		if !found {
			path = ""
		}
	}
	return load(src, r, path, data)
}

// load does the work of Load once the user's file is read (path "" = no file),
// so the fuzz target can feed it bytes.
func load(src Source, r resolver, path string, data []byte) (Config, error) {
	c := Config{File: path, home: r.home, origins: map[string]string{}}
	user, err := readLayer(path, "config file "+path, data)
	if err != nil {
		return Config{}, err
	}
	c.Warnings = user.warnings

	// One viper per Load: no global state, and each layer lands where viper's own
	// precedence puts it. The environment comes from src.Env rather than viper's
	// AutomaticEnv (which reads os.Getenv), and both it and the flags are applied
	// as overrides in order, so the flags, applied last, win.
	v := viper.New()
	for k, d := range defaults(src.Env, r.cwd) {
		v.SetDefault(k, d)
		c.origins[k] = "default"
	}
	if err := v.MergeConfigMap(nest(user.flat)); err != nil {
		return Config{}, fmt.Errorf("config file %s: %w", path, err)
	}
	for k, val := range user.flat {
		if val != nil {
			c.origins[k] = user.origin
		}
	}
	project, err := c.loadProject(src, r, v)
	if err != nil {
		return Config{}, err
	}
	for _, s := range settings {
		if val, ok := src.Env(envName(s.key)); ok && val != "" {
			v.Set(s.key, val)
			c.origins[s.key] = envName(s.key)
		}
	}
	// --debug is --log-level=debug; a --log-level given beside it wins.
	if on, ok := changedValue(src.Flags, "debug"); ok && on == "true" {
		v.Set("log_level", "debug")
		c.origins["log_level"] = "--debug"
	}
	for _, s := range settings {
		if val, ok := changedValue(src.Flags, s.flag); ok {
			v.Set(s.key, val)
			c.origins[s.key] = "--" + s.flag
		}
	}
	for _, s := range settings {
		val := v.Get(s.key)
		if err := s.apply(&c, val, r); err != nil {
			return Config{}, &ValueError{Source: c.origins[s.key], Key: s.key, Value: display(val), Reason: err.Error()}
		}
	}

	if dirs, ok := changedValue(src.Flags, "plugins-dir"); ok {
		extra, err := toList(dirs)
		if err == nil {
			extra, err = r.paths(extra)
		}
		if err != nil {
			return Config{}, &ValueError{Source: "--plugins-dir", Key: "plugin_dirs", Value: display(dirs), Reason: err.Error()}
		}
		c.PluginDirs = append(c.PluginDirs, extra...)
	}
	if err := c.loadSections(user, r, src.ToolSettings); err != nil {
		return Config{}, err
	}
	if err := c.mergeClaudeUser(src, r); err != nil {
		return Config{}, err
	}
	if project != nil {
		if err := c.mergeProjectSections(project, src.ToolSettings); err != nil {
			return Config{}, &ProjectError{File: project.path, Err: err}
		}
	}
	if err := c.mergeClaudeProject(src.ToolSettings); err != nil {
		return Config{}, err
	}
	return c, nil
}

// layer is one configuration file, split into settings and sections.
type layer struct {
	path     string
	origin   string // "config file PATH" or "project file PATH", as values' sources say
	flat     map[string]any
	sections map[string]any
	warnings []string
	r        resolver // resolves the file's relative paths
}

// readLayer parses one file's bytes; path "" is an empty layer.
func readLayer(path, origin string, data []byte) (layer, error) {
	l := layer{path: path, origin: origin, flat: map[string]any{}, sections: map[string]any{}}
	if path == "" {
		return l, nil
	}
	raw, err := parseYAML(path, data)
	if err != nil {
		return layer{}, err
	}
	l.flat, l.sections, l.warnings, err = splitTop(path, raw)
	return l, err
}

// loadSections reads the user's file's sections: tools, mcp, permissions, models.
func (c *Config) loadSections(user layer, r resolver, settings toolSettings) error {
	path, sections := user.path, user.sections
	var w []string
	var err error
	if c.Tools, w, err = parseTools(path, sections["tools"], settings); err != nil {
		return err
	}
	c.Warnings = append(c.Warnings, w...)
	if c.MCP, w, err = parseMCP(path, sections["mcp"], r); err != nil {
		return err
	}
	c.Warnings = append(c.Warnings, w...)
	if c.Permissions, w, err = parsePermissions(path, sections["permissions"]); err != nil {
		return err
	}
	c.Warnings = append(c.Warnings, w...)
	if c.Models, w, err = parseModels(path, sections["models"]); err != nil {
		return err
	}
	c.Warnings = append(c.Warnings, w...)
	if c.Hooks, w, err = parseHooks(path, sections["hooks"]); err != nil {
		return err
	}
	c.Warnings = append(c.Warnings, w...)
	c.noteSections(user.origin, c.Tools, c.MCP, c.Permissions, c.Models)
	c.noteHooks(user.origin, c.Hooks)
	return nil
}

// nest turns the file's settings keyed "read.allow_outside" (or
// "sandbox.network.allow") into the nested maps viper reads them from
// (viper's own key paths use the same dots).
func nest(flat map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range flat {
		parts := strings.Split(k, ".")
		m := out
		for _, g := range parts[:len(parts)-1] {
			sub, _ := m[g].(map[string]any)
			if sub == nil {
				sub = map[string]any{}
				m[g] = sub
			}
			m = sub
		}
		m[parts[len(parts)-1]] = v
	}
	return out
}

// AddFlags registers forge's global flags on fs, so the shell and Load agree on their
// names. Their defaults are empty: a flag only counts when the user sets it, and the
// real defaults (which the file or environment may change) are in the usage text.
// Flags fs already has are left alone.
func AddFlags(fs *pflag.FlagSet) {
	add := func(name string, define func()) {
		if fs.Lookup(name) == nil {
			define()
		}
	}
	add("config", func() {
		fs.String("config", "", "config file (default $XDG_CONFIG_HOME/forge/config.yaml)")
	})
	add("working-dir", func() {
		fs.StringP("working-dir", "C", "", "directory the tools work in (default: the current directory)")
	})
	add("timeout", func() {
		fs.String("timeout", "", "time limit of one tool call: 90s, 2m or a number of seconds (default 120s)")
	})
	add("dry-run", func() {
		fs.Bool("dry-run", false, "describe what each tool would do without doing it")
	})
	add("output", func() {
		fs.StringP("output", "o", "", "output format: text or json (default text)")
	})
	add("log-level", func() {
		fs.String("log-level", "", "log level: "+strings.Join(logging.Levels(), ", ")+" (default warn)")
	})
	add("debug", func() {
		fs.Bool("debug", false, "log at debug level, with each hook's input and answer (--log-level=debug)")
	})
	add("log-file", func() {
		fs.String("log-file", "", "append logs to this file (default: standard error)")
	})
	add("no-color", func() {
		fs.Bool("no-color", false, "never colour the output (also on when NO_COLOR is set)")
	})
	add("width", func() {
		fs.Int("width", 0, "panel width in columns (default: the terminal's width, else 71)")
	})
	add("plugins-dir", func() {
		fs.StringArray("plugins-dir", nil, "another directory of plugin manifests (repeatable)")
	})
	add("fail-fast", func() {
		fs.Bool("fail-fast", false, "stop a scripted session at the first failed command")
	})
	add("provider", func() {
		fs.String("provider", "", "the model's provider: "+strings.Join(providers, ", "))
	})
	add("model", func() {
		fs.String("model", "", "the model, as its provider names it (default: the provider's)")
	})
	add("base-url", func() {
		fs.String("base-url", "", "the provider's http(s) endpoint (default: the provider's own)")
	})
	add("api", func() {
		fs.String("api", "", "the API of --provider openai or ollama: responses or chat (default: responses for OpenAI's own API, chat for any other server)")
	})
	add("effort", func() {
		fs.String("effort", "", "how hard a model that can reason thinks first: "+strings.Join(efforts[:3], ", ")+" (default: the model's own; off for none)")
	})
	add("approval", func() {
		fs.String("approval", "", "what the agent may do without asking: "+strings.Join(approvalModes, ", ")+" (default ask)")
	})
	add("max-turns", func() {
		fs.Int("max-turns", 0, "model turns one request may take (default 50)")
	})
	add("loop-detection", func() {
		fs.Bool("loop-detection", false, "stop an agent that repeats the same tool calls (default true; --loop-detection=false turns it off)")
	})
	add("tool-format", func() {
		fs.String("tool-format", "", "how tool calls reach the model: "+strings.Join(toolFormats, ", ")+" (default native)")
	})
	add("max-cost", func() {
		fs.Float64("max-cost", 0, "stop a prompt's run when it has cost this many US dollars (default: no limit)")
	})
	add("max-tokens", func() {
		fs.Int("max-tokens", 0, "stop a prompt's run when it has used this many tokens (default: no limit)")
	})
	add("context-window", func() {
		fs.Int("context-window", 0, "the model's context window in tokens (default: known for common models)")
	})
	add("sandbox", func() {
		fs.String("sandbox", "", "how the commands the agent runs are confined: "+strings.Join(sandboxModes, ", ")+" (default workspace-write)")
	})
	add("system-prompt", func() {
		fs.String("system-prompt", "", "a file whose text replaces the built-in system prompt")
	})
}

// changedValue returns a flag's value when the user set it: a []string for slice
// flags (--plugins-dir), else its text. Flags of any pflag type work.
func changedValue(fs *pflag.FlagSet, name string) (any, bool) {
	if fs == nil || name == "" {
		return nil, false
	}
	f := fs.Lookup(name)
	if f == nil || !f.Changed {
		return nil, false
	}
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		return sv.GetSlice(), true
	}
	return f.Value.String(), true
}

// changedFlag is changedValue for a string flag; "" when unset.
func changedFlag(fs *pflag.FlagSet, name string) string {
	v, ok := changedValue(fs, name)
	if !ok {
		return ""
	}
	return display(v)
}
