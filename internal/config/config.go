// Package config builds forge's configuration, a plain Config value, from four
// layers: defaults < config file < FORGE_* environment < command-line flags that
// the user set. It is the only package that imports viper; everything else
// receives a Config.
//
// The config file is YAML (JSON, being YAML, works too). Keys are the snake_case
// names of the Config fields; tool sections (tools.<Name>) and MCP server names keep
// the case they are written in, because tool names are case-sensitive.
//
// Every setting can also come from the environment as FORGE_ and its key in upper
// case (FORGE_TIMEOUT=90s, FORGE_LOG_LEVEL=debug, FORGE_ALLOWED_ROOTS=/a:/b); an
// empty variable counts as unset; a nested key joins its parts with "_"
// (FORGE_READ_ALLOW_OUTSIDE). The tools, mcp, permissions, models and hooks sections come from the
// file only. The environment is read through Source.Env, not
// viper's AutomaticEnv, so tests need not touch the process environment. A
// non-empty NO_COLOR (no-color.org) makes no_color default to true.
package config

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/tools"
)

// Config is forge's whole configuration as plain values.
type Config struct {
	WorkingDir      string        // working_dir, --working-dir/-C, FORGE_WORKING_DIR; default the process's cwd; always absolute
	Timeout         time.Duration // timeout, --timeout; default 120s; "90s", "2m" or a bare number of seconds
	DryRun          bool          // dry_run, --dry-run
	Output          string        // output, --output/-o: "text" (default) or "json"
	LogLevel        string        // log_level, --log-level: debug|info|warn|error|off; default "warn"
	LogFile         string        // log_file, --log-file; "" = standard error
	NoColor         bool          // no_color, --no-color; defaults to true when NO_COLOR is set and not empty
	Width           int           // width, --width; 0 = detect (the terminal's width, else 71), otherwise at least 40
	MaxOutputSize   int           // max_output_size; default 100000 bytes
	HistoryFile     string        // history_file; default $XDG_STATE_HOME/forge/history; "" = no history file
	SessionsDir     string        // sessions_dir: where conversations are kept; "" = not kept
	HistoryCapacity int           // history_capacity; executions kept by the executor; default 1000; 0 = none
	AllowedRoots    []string      // allowed_roots; extra directories writers may write in
	PluginDirs      []string      // plugin_dirs (+ each --plugins-dir); default [$XDG_CONFIG_HOME/forge/plugins]
	FailFast        bool          // fail_fast, --fail-fast: a scripted session stops at the first failure
	PassEnv         []string      // pass_env: variables tools' processes inherit although their names look secret
	Read            Read          // read.allow_outside
	Provider        string        // provider, --provider: openai|anthropic|ollama; "" = not chosen, the app decides
	Model           string        // model, --model: the model's name as its provider spells it; "" = the provider's default
	BaseURL         string        // base_url, --base-url: the provider's http(s) endpoint; "" = the provider's own
	API             string        // api, --api: responses|chat, the API of provider openai (and ollama); "" = Responses for OpenAI's own, Chat Completions elsewhere
	Effort          string        // effort, --effort: low|medium|high, how hard a reasoning model thinks; "" = the model's default
	Approval        string        // approval, --approval: ask (default), auto-edit, yolo or plan
	MaxTurns        int           // max_turns, --max-turns: model turns one request may take; default 50, >= 1
	LoopDetection   bool          // loop_detection, --loop-detection: stop an agent repeating itself; default true
	ToolFormat      string        // tool_format, --tool-format: native (default) or xml, how tool calls reach the model
	SystemPrompt    string        // system_prompt, --system-prompt: a file replacing the system prompt; "" = built in; absolute
	MaxCost         float64       // max_cost, --max-cost: US dollars one prompt may cost; 0 = no limit
	MaxTokens       int           // max_tokens, --max-tokens: tokens one prompt may use; 0 = no limit
	ContextWindow   int           // context_window, --context-window: the model's window; 0 = known or assumed
	MaxAnswerSize   int           // max_answer_size: bytes of text, thinking and tool arguments one answer may stream; default 4 MiB
	MaxAnswerTime   time.Duration // max_answer_time: how long one answer may stream; default 30m
	// StreamIdleTimeout (stream_idle_timeout; default 5m) fails a model request that brings nothing new for this long.
	StreamIdleTimeout time.Duration
	Sandbox           Sandbox                   // sandbox.mode, sandbox.writable, sandbox.caches, sandbox.network.allow
	Permissions       Permissions               // permissions.allow, permissions.deny (file only)
	Tools             map[string]map[string]any // tools.<Name>: per-tool sections, names in their written case
	MCP               MCP                       // mcp.servers.<name>
	Models            map[string]ModelSettings  // models.<name>, names in lower case
	Hooks             []Hook                    // hooks.<Event>: commands run at the agent's events (file only)
	File              string                    // the config file actually read, "" if none
	ProjectDir        string                    // the directory holding the project's .forge (see FindProject); "" if none
	Project           Project                   // the project's .forge/config.yaml, and whether it is trusted
	// Env are variables the tools and hooks get, from Claude Code's
	// settings (env): the person's, and a trusted project's.
	Env      map[string]string
	Warnings []string // things worth telling the user that did not stop loading (unknown keys)

	home     string            // $HOME, for "~" in values given to Set
	origins  map[string]string // setting key -> where its value came from
	sections []Entry           // the sections' values and their files, for Entries
	// claudeProject are the project's Claude Code settings and MCP file,
	// read with the project and merged after its sections.
	claudeProject []layer
}

// Read is the read section: where the reading tools may look.
type Read struct {
	// AllowOutside (read.allow_outside, FORGE_READ_ALLOW_OUTSIDE; default true) lets
	// the readers read files outside the working directory and allowed_roots.
	AllowOutside bool
}

// Permissions is the permissions section: rules, such as "Bash(git status)", that
// let tool calls run without asking, or refuse them. Config keeps them as written,
// in order; whoever applies them checks their syntax.
type Permissions struct {
	Allow []string // permissions.allow
	Deny  []string // permissions.deny
	// Ask (permissions.ask) are rules whose calls always ask, even when the
	// sandbox or the mode would run them unasked.
	Ask []string
	// Credentials (permissions.credentials) add places where secrets are
	// kept to forge's own list (reading them asks in every mode but yolo);
	// an entry !x drops x from it, in the person's file or a trusted
	// project's only.
	Credentials []string
}

// MCP is the mcp section: the MCP servers whose tools join the registry.
type MCP struct {
	Servers map[string]MCPServer // by name, in its written case
}

// MCPServer is one mcp.servers.<name> entry. Exactly one of Command (a server
// spoken to over stdio) and URL (streamable HTTP) is set.
type MCPServer struct {
	Command string            // command: the program to start
	Args    []string          // args: its arguments
	Env     map[string]string // env: variables added to its environment
	Cwd     string            // cwd: its working directory ("~" expanded)
	URL     string            // url: an http or https endpoint
	Headers map[string]string // headers: HTTP headers sent with every request to URL (only with url)

	Start   bool          // start: connect when forge starts instead of on first use
	Timeout time.Duration // timeout: per-call limit; 0 = the call's own timeout
	// ResetTimeoutOnProgress (reset_timeout_on_progress): the timeout limits
	// the silence between the server's progress notifications instead.
	ResetTimeoutOnProgress bool
	// MaxTotalTimeout (max_total_timeout) bounds such a call in all; 0 = an hour.
	MaxTotalTimeout time.Duration
	// OAuth (oauth) configures the login of a url server that asks for one.
	OAuth MCPOAuth
}

// MCPOAuth is mcp.servers.<name>.oauth: how forge registers with the
// server's authorization server (dynamic registration when none is set).
type MCPOAuth struct {
	ClientID          string // client_id: credentials registered beforehand
	ClientSecret      string // client_secret: their secret, for a confidential client
	ClientMetadataURL string // client_metadata_url: an https client ID metadata document
	CallbackPort      int    // callback_port: the loopback redirect's port; 0 = any free one
}

// RateLimit is tools.<Name>.rate: {per_second: 2, burst: 5}.
type RateLimit struct {
	PerSecond float64 // calls allowed per second, > 0
	Burst     int     // calls allowed at once, >= 1; defaults to PerSecond rounded up
}

// Source says where Load reads from. The zero value reads the default config file,
// the process environment and working directory, and no flags.
type Source struct {
	File  string                      // --config; "" = the --config flag in Flags, else DefaultConfigFile if it exists
	Flags *pflag.FlagSet              // the command's flags (see AddFlags); only flags the user set (Changed) count
	Env   func(string) (string, bool) // os.LookupEnv in production (nil means that); a map in tests
	Getwd func() (string, error)      // os.Getwd in production (nil means that)
	// Trusted returns the hash (ProjectHash) of a project's .forge when the
	// person trusted its directory, false when they did not; its settings
	// widen what forge does only while the file is unchanged. nil trusts none.
	Trusted func(dir string) (hash string, ok bool)
	// SkipProject reads no project file (the project is still found).
	SkipProject bool
	// SkipClaudeUser reads not the person's Claude Code settings and MCP
	// file (~/.claude/settings.json, ~/.claude.json): the settings have an
	// error (a *ClaudeSettingsError) that a repairing command goes on
	// without.
	SkipClaudeUser bool
	// ToolSettings returns the keys a tool reads from its tools.<Name>
	// section (builtin.Settings in production), false for a tool it does
	// not know. A known tool's section is checked like forge's own keys:
	// an unknown key is a warning, a bad value an error. nil checks none.
	ToolSettings func(tool string) ([]tools.Setting, bool)
}

// ToolSection returns the tools.<name> section, nil when absent. An exact match wins;
// otherwise the first section (in sorted order) whose name matches ignoring case.
// The map belongs to the Config: read it, do not change it.
func (c Config) ToolSection(name string) map[string]any {
	s, _ := lookupFold(c.Tools, name)
	return s
}

// Rate returns tools.<name>.rate when it is set. Load has already refused a
// malformed rate, so false means "no limit".
func (c Config) Rate(name string) (RateLimit, bool) {
	v, ok := lookupFold(c.ToolSection(name), "rate")
	if !ok || v == nil {
		return RateLimit{}, false
	}
	r, _, err := parseRate(v)
	if err != nil {
		return RateLimit{}, false
	}
	return r, true
}

// ValueError is a setting whose value cannot be used.
type ValueError struct {
	Source string // where the value came from: "config file /x.yaml", "--timeout", "FORGE_TIMEOUT"; "" for Set
	Key    string // the setting, e.g. "timeout" or "mcp.servers.git.timeout"
	Value  string // the value as given
	Reason string // what a valid value looks like
}

// Error reads `--timeout: invalid timeout "abc": want a duration such as 90s or 2m, or a number of seconds`.
func (e *ValueError) Error() string {
	msg := fmt.Sprintf("invalid %s %q: %s", e.Key, e.Value, e.Reason)
	if e.Source == "" {
		return msg
	}
	return e.Source + ": " + msg
}

// withDefaults fills in the production functions the caller left nil.
func (s Source) withDefaults() Source {
	if s.Env == nil {
		s.Env = os.LookupEnv
	}
	if s.Getwd == nil {
		s.Getwd = os.Getwd
	}
	return s
}
