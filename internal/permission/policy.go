package permission

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/forgehq/forge/internal/tools"
)

// Config configures a Policy.
type Config struct {
	// Mode is the approval mode; "" is ModeAsk.
	Mode Mode
	// Allow and Deny are rules as written in the configuration.
	Allow, Deny []string
	// Ask are rules whose calls always ask (but in yolo mode), even when a
	// sandbox, an allow rule or the mode would run them: Bash(git push:*).
	// They match as deny rules do: a call that could be one asks.
	Ask []string
	// WorkingDir is the absolute directory the agent works in: relative
	// paths and patterns are taken from it, and auto-edit mode allows
	// edits inside it.
	WorkingDir string
	// AllowedRoots are further directories where auto-edit mode allows
	// edits; relative ones are taken from WorkingDir.
	AllowedRoots []string
	// Home is the home directory, for ~ in patterns and paths; "" when
	// unknown (then rules with ~ are errors).
	Home string
	// Protected are files and directories (absolute) where an edit always
	// asks, in every mode and whatever the allow rules say: forge's own
	// configuration and state, the scripts hooks and MCP servers run.
	// Directories named .forge always are, and so are a repository's
	// .git/config and .git/hooks.
	Protected []string
	// Getenv looks up the environment shell commands inherit, so that a
	// line's $HOME or $XDG_CONFIG_HOME is known; nil knows none, and a
	// path built from a variable is then one forge cannot resolve.
	Getenv func(string) (string, bool)
	// Credentials are where secrets are kept (DefaultCredentials, and
	// forge's own state): a call whose path is in one, or holds one, asks
	// in every mode but yolo. Each is ~/x, an absolute path, a path
	// relative to WorkingDir, or a glob over base names (.env*) that
	// matches files outside the working directory; !x drops x from those
	// listed before it. nil means none.
	Credentials []string
}

// Call is a tool call to judge.
type Call struct {
	// Tool is the tool's name in the registry (Bash, mcp__github__create_issue).
	Tool string
	// Args are the call's arguments.
	Args tools.Args
	// ReadOnly: the tool changes nothing (tools.IsReadOnly).
	ReadOnly bool
	// EditsFiles: the tool edits the files its path argument names (Write,
	// Edit, NotebookEdit). auto-edit mode allows such calls inside the
	// working directory.
	EditsFiles bool
	// Hosts are the hosts the call sends data to (tools.Egress): such a
	// call asks in every mode but yolo, plan mode included, unless a rule
	// or an "always" answer approved each host.
	Hosts []string
	// OpenWorld: the call may send data to places it cannot name (an MCP
	// tool open to the world); it asks as Hosts do, and "always" approves
	// the tool.
	OpenWorld bool
	// Sandbox is how an OS sandbox will confine the commands the call runs
	// (SandboxNone: not at all). Inside one, forge's own settings are
	// read-only, credentials hidden and the network closed whatever the
	// line says, so a sandboxed command no deny or ask rule matches runs
	// without a question; in plan mode only a read-only sandbox runs.
	Sandbox Sandbox
	// LeavesSandbox: the call asks to run outside the sandbox that would
	// confine it. It asks in every mode but yolo, whatever the allow rules.
	LeavesSandbox bool
}

// Sandbox is how an OS sandbox confines a call's commands.
type Sandbox int

// The sandbox levels.
const (
	// SandboxNone: the commands run with all the person's rights.
	SandboxNone Sandbox = iota
	// SandboxWorkspace: writes only in the project, the temporary
	// directory and the toolchains' caches.
	SandboxWorkspace
	// SandboxReadOnly: no writes at all.
	SandboxReadOnly
)

// Decision is what to do with a call.
type Decision int

// The decisions.
const (
	// Ask: ask the person (or, with no one to ask, refuse and say why).
	Ask Decision = iota
	// Allow: run the call.
	Allow
	// Deny: refuse the call.
	Deny
)

// String returns "ask", "allow" or "deny".
func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Deny:
		return "deny"
	}
	return "ask"
}

// Verdict is a Decision with what made it.
type Verdict struct {
	Decision Decision
	// Rule is the rule that decided, as written canonically (several,
	// joined by ", ", when a line's commands were allowed by different
	// rules); "" when the mode decided.
	Rule string
	// Reason is one line for the person and the model; when the decision
	// is Ask it says how to allow such calls.
	Reason string
	// Why is Reason without the call's name, for a question that shows
	// the call just above it ("no rule allows it; add an allow rule such
	// as Bash(go test:*)"); "" when Reason is that already.
	Why string
	// Protected says the call may change forge's own settings or trust:
	// only the person can allow it, not a rule and not a hook.
	Protected bool
	// Sandboxed says the call is allowed because it runs in a sandbox.
	Sandboxed bool
	// Always holds the rules Remember would add when the decision is Ask,
	// for an "always allow" answer; empty when none would allow the call
	// (a redirection to a file, a line that does not parse).
	Always []string
	// Judged are the places the call's path arguments were judged to be,
	// every link resolved, as the decision saw them; nil when it names no
	// path. A file tool acting on the call checks that what it opens is
	// at one of them (tools.ExecutionContext.Judged).
	Judged []string
}

// AskReason is why the person is asked about the call, for a question
// that shows the call: Why, or Reason when it has no shorter form.
func (v Verdict) AskReason() string {
	if v.Why != "" {
		return v.Why
	}
	return v.Reason
}

// Policy decides tool calls for one session. It is safe for concurrent
// use; rules remembered with Remember last as long as the Policy.
type Policy struct {
	// mode holds the approval Mode; SetMode changes it while calls are
	// being decided (an editor switching modes in the middle of a prompt).
	mode             atomic.Value
	allow, deny, ask []*compiledRule
	wd               place
	roots            []place // the working directory and the allowed roots
	protected        []place // where edits always ask (Config.Protected)
	creds            credentials
	home             string
	parsers          parsers
	shell            shellEnv
	// targets are the places a shell line must not name unasked: the
	// protected places and the project's .forge and .git control files.
	targets []string

	// cfg is the configuration the policy was built from, for InDir.
	cfg Config

	mu      sync.RWMutex
	session []*compiledRule
}

// New builds a Policy. Its error lists every malformed rule, one a line,
// each a *RuleError.
func New(cfg Config) (*Policy, error) {
	mode, err := ParseMode(string(cfg.Mode))
	if err != nil {
		return nil, err
	}
	if cfg.WorkingDir == "" || !filepath.IsAbs(cfg.WorkingDir) {
		return nil, fmt.Errorf("permission policy: the working directory must be an absolute path, not %q", cfg.WorkingDir)
	}
	p := &Policy{cfg: cfg, wd: newPlace(cfg.WorkingDir)}
	p.mode.Store(mode)
	if cfg.Home != "" {
		if !filepath.IsAbs(cfg.Home) {
			return nil, fmt.Errorf("permission policy: the home directory must be an absolute path, not %q", cfg.Home)
		}
		p.home = filepath.Clean(cfg.Home)
	}
	p.roots = append(p.roots, p.wd)
	for _, d := range cfg.Protected {
		if filepath.IsAbs(d) {
			p.protected = append(p.protected, newPlace(d))
		}
	}
	for _, r := range cfg.AllowedRoots {
		if !filepath.IsAbs(r) {
			r = filepath.Join(p.wd.lexical, r)
		}
		p.roots = append(p.roots, newPlace(r))
	}
	p.shell = shellEnv{wd: p.wd.lexical, home: p.home, getenv: cfg.Getenv}
	p.targets = protectedTargets(p.wd, p.protected)
	var errs []error
	p.allow, errs = p.compileAll("allow", cfg.Allow, errs)
	p.deny, errs = p.compileAll("deny", cfg.Deny, errs)
	p.ask, errs = p.compileAll("ask", cfg.Ask, errs)
	p.creds, errs = p.compileCredentials(cfg.Credentials, errs)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return p, nil
}

// compileAll parses and compiles a list of rules, adding each failure to errs.
func (p *Policy) compileAll(list string, texts []string, errs []error) ([]*compiledRule, []error) {
	var out []*compiledRule
	for _, text := range texts {
		r, err := ParseRule(text)
		var c *compiledRule
		if err == nil {
			c, err = p.compile(r)
			if err != nil {
				err = &RuleError{Rule: text, Problem: err.Error()}
			}
		}
		if re, ok := err.(*RuleError); ok {
			re.List = list
			errs = append(errs, re)
			continue
		}
		out = append(out, c)
	}
	return out, errs
}

// Mode returns the policy's approval mode.
func (p *Policy) Mode() Mode {
	m, _ := p.mode.Load().(Mode)
	return m
}

// SetMode changes the approval mode for the calls decided from now on;
// the rules, configured and remembered, stay as they are.
func (p *Policy) SetMode(m Mode) { p.mode.Store(m) }

// Remembered returns the rules remembered this session, in order.
func (p *Policy) Remembered() []string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	out := make([]string, len(p.session))
	for i, r := range p.session {
		out[i] = r.text
	}
	return out
}

// allowRules returns the configured allow rules followed by those
// remembered so far.
func (p *Policy) allowRules() []*compiledRule {
	p.mu.RLock()
	session := p.session
	p.mu.RUnlock()
	if len(session) == 0 {
		return p.allow
	}
	out := make([]*compiledRule, 0, len(p.allow)+len(session))
	return append(append(out, p.allow...), session...)
}

// isSession reports whether r was remembered rather than configured.
func (p *Policy) isSession(r *compiledRule) bool {
	for _, a := range p.allow {
		if a == r {
			return false
		}
	}
	return true
}
