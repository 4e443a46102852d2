package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// The values the agent's enumerated settings accept, lower case.
var (
	providers     = []string{"openai", "anthropic", "ollama"}
	approvalModes = []string{"ask", "auto-edit", "yolo", "plan"}
	toolFormats   = []string{"native", "xml"}
	efforts       = []string{"low", "medium", "high", "off"}
	apis          = []string{"responses", "chat"}
)

// Efforts returns the values effort accepts.
func Efforts() []string { return slices.Clone(efforts) }

// Providers returns the values provider accepts, for completion and help.
func Providers() []string { return slices.Clone(providers) }

// ApprovalModes returns the values approval accepts, the default first.
func ApprovalModes() []string { return slices.Clone(approvalModes) }

// ToolFormats returns the values tool_format accepts, the default first.
func ToolFormats() []string { return slices.Clone(toolFormats) }

// agentSettings are the keys of the agent: which model it talks to, and how far it
// may go without asking. They follow the shell's settings in Keys.
var agentSettings = []setting{
	{key: "provider", flag: "provider", get: func(c Config) string { return c.Provider },
		apply: func(c *Config, v any, _ resolver) error {
			s, err := optionalOneOf(v, providers...)
			if err == nil {
				c.Provider = s
			}
			return err
		}},
	{key: "model", flag: "model", get: func(c Config) string { return c.Model },
		apply: func(c *Config, v any, _ resolver) error {
			s, err := toModel(v)
			if err == nil {
				c.Model = s
			}
			return err
		}},
	{key: "base_url", flag: "base-url", get: func(c Config) string { return c.BaseURL },
		apply: func(c *Config, v any, _ resolver) error {
			s, err := toString(v)
			if err != nil {
				return err
			}
			s = strings.TrimSpace(s)
			if s != "" {
				if err := checkURL(s); err != nil {
					return err
				}
			}
			c.BaseURL = s
			return nil
		}},
	{key: "api", flag: "api", get: func(c Config) string { return c.API },
		apply: func(c *Config, v any, _ resolver) error {
			s, err := optionalOneOf(v, apis...)
			if err == nil {
				c.API = s
			}
			return err
		}},
	{key: "effort", flag: "effort", get: func(c Config) string { return c.Effort },
		apply: func(c *Config, v any, _ resolver) error {
			s, err := optionalOneOf(v, efforts...)
			if err == nil {
				c.Effort = strings.TrimSuffix(s, "off")
			}
			return err
		}},
	{key: "approval", flag: "approval", get: func(c Config) string { return c.Approval },
		apply: func(c *Config, v any, _ resolver) error {
			s, err := oneOf(v, approvalModes...)
			if err == nil {
				c.Approval = s
			}
			return err
		}},
	{key: "max_turns", flag: "max-turns", get: func(c Config) string { return fmt.Sprint(c.MaxTurns) },
		apply: func(c *Config, v any, _ resolver) error {
			return setInt(&c.MaxTurns, v, 1, "must be at least 1")
		}},
	{key: "loop_detection", flag: "loop-detection", get: func(c Config) string { return fmt.Sprint(c.LoopDetection) },
		apply: func(c *Config, v any, _ resolver) (err error) {
			c.LoopDetection, err = keepBool(c.LoopDetection, v)
			return err
		}},
	{key: "tool_format", flag: "tool-format", get: func(c Config) string { return c.ToolFormat },
		apply: func(c *Config, v any, _ resolver) error {
			s, err := oneOf(v, toolFormats...)
			if err == nil {
				c.ToolFormat = s
			}
			return err
		}},
	{key: "max_cost", flag: "max-cost", get: func(c Config) string { return fmt.Sprint(c.MaxCost) },
		apply: func(c *Config, v any, _ resolver) error {
			f, ok := toFloat(v)
			if !ok {
				return errors.New("want a number of US dollars")
			}
			if f < 0 {
				return errors.New("must be 0 (no limit) or more")
			}
			c.MaxCost = f
			return nil
		}},
	{key: "max_tokens", flag: "max-tokens", get: func(c Config) string { return fmt.Sprint(c.MaxTokens) },
		apply: func(c *Config, v any, _ resolver) error {
			return setInt(&c.MaxTokens, v, 0, "must be 0 (no limit) or more")
		}},
	{key: "context_window", flag: "context-window", get: func(c Config) string { return fmt.Sprint(c.ContextWindow) },
		apply: func(c *Config, v any, _ resolver) error {
			if err := setInt(&c.ContextWindow, v, 0, "must be 0 (the model's own) or at least 1000 tokens"); err != nil {
				return err
			}
			if c.ContextWindow != 0 && c.ContextWindow < 1000 {
				return errors.New("must be 0 (the model's own) or at least 1000 tokens")
			}
			return nil
		}},
	// A model that streams without end, or a server that sends only
	// keep-alives, must not hold forge: the answer's size and the silence
	// between its pieces are bounded.
	{key: "max_answer_size", get: func(c Config) string { return fmt.Sprint(c.MaxAnswerSize) },
		apply: func(c *Config, v any, _ resolver) error {
			return setInt(&c.MaxAnswerSize, v, minAnswerSize, fmt.Sprintf("must be at least %d bytes", minAnswerSize))
		}},
	{key: "max_answer_time", get: func(c Config) string { return c.MaxAnswerTime.String() },
		apply: func(c *Config, v any, _ resolver) error {
			d, err := toDuration(v)
			if err == nil && d < time.Minute {
				return errors.New("must be at least 1m: shorter would cut ordinary answers")
			}
			if err == nil {
				c.MaxAnswerTime = d
			}
			return err
		}},
	{key: "stream_idle_timeout", get: func(c Config) string { return c.StreamIdleTimeout.String() },
		apply: func(c *Config, v any, _ resolver) error {
			d, err := toDuration(v)
			if err == nil {
				c.StreamIdleTimeout = d
			}
			return err
		}},
	{key: "system_prompt", flag: "system-prompt", get: func(c Config) string { return c.SystemPrompt },
		apply: func(c *Config, v any, r resolver) error {
			s, err := toString(v)
			if err != nil {
				return err
			}
			if s == "" {
				c.SystemPrompt = ""
				return nil
			}
			// Checked now so that a misspelt path stops forge at start-up with the
			// key's name, not later at the first request.
			p, err := r.file(s)
			if err == nil {
				c.SystemPrompt = p
			}
			return err
		}},
}

// agentDefaults are the bottom layer of the agent's settings.
func agentDefaults() map[string]any {
	return map[string]any{
		"provider":       "",
		"model":          "",
		"base_url":       "",
		"effort":         "",
		"api":            "",
		"approval":       approvalModes[0],
		"max_turns":      50,
		"loop_detection": true,
		"tool_format":    toolFormats[0],
		"system_prompt":  "",
		"max_cost":       0,
		"max_tokens":     0,
		"context_window": 0,
		// Several times the longest answer a model gives today (128k
		// tokens, well under 1 MiB): only a stream without end meets it.
		"max_answer_size":     4 << 20,
		"stream_idle_timeout": 5 * time.Minute,
		"max_answer_time":     30 * time.Minute,
	}
}

// minAnswerSize is the smallest max_answer_size: below it a cap would cut
// ordinary answers.
const minAnswerSize = 1 << 10

// optionalOneOf is oneOf that also takes "" (or nothing) for "not chosen".
func optionalOneOf(v any, valid ...string) (string, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s) == "" {
		return "", nil
	}
	return oneOf(s, valid...)
}

// toModel reads a model name. Names have no spaces in any provider
// ("claude-sonnet-4-5", "llama3:8b", "hf.co/user/repo:Q4_K_M"), so one with a
// space or a control character is a mistake worth stopping for; the spaces around
// it (a variable ending in a newline) are dropped.
func toModel(v any) (string, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	s = strings.TrimSpace(s)
	if strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return "", errors.New("must be a model name without spaces or control characters")
	}
	return s, nil
}

// permissionFields are the keys of the permissions section.
var permissionFields = []string{"allow", "ask", "deny", "credentials"}

// parsePermissions reads permissions: {allow: [..], deny: [..], credentials: [..]}.
func parsePermissions(path string, v any) (Permissions, []string, error) {
	var p Permissions
	if v == nil {
		return p, nil, nil
	}
	m, ok := asMap(v)
	if !ok {
		return p, nil, &ValueError{Source: "config file " + path, Key: "permissions", Value: display(v),
			Reason: "want a mapping with allow and deny lists"}
	}
	if err := duplicateInCase(m); err != nil {
		return p, nil, fmt.Errorf("config file %s: permissions: %w", path, err)
	}
	var warnings []string
	for _, k := range sortedKeys(m) {
		var dst *[]string
		switch strings.ToLower(k) {
		case "allow":
			dst = &p.Allow
		case "deny":
			dst = &p.Deny
		case "ask":
			dst = &p.Ask
		case "credentials":
			list, err := toCredentials(path, m[k])
			if err != nil {
				return Permissions{}, nil, err
			}
			p.Credentials = list
			continue
		default:
			warnings = append(warnings, unknownKey(path, k, "permissions.", permissionFields))
			continue
		}
		rules, err := toRules(path, "permissions."+strings.ToLower(k), m[k])
		if err != nil {
			return Permissions{}, nil, err
		}
		*dst = rules
	}
	return p, warnings, nil
}

// toCredentials reads permissions.credentials: paths or file names, none
// of them blank. What they mean is checked where they are used.
func toCredentials(path string, v any) ([]string, error) {
	key := "permissions.credentials"
	l, ok := v.([]any)
	if v != nil && !ok {
		return nil, &ValueError{Source: "config file " + path, Key: key, Value: display(v),
			Reason: `want a list of paths and file names, such as ["~/.vault-token", "*.pem", "!~/.npmrc"]`}
	}
	out := make([]string, 0, len(l))
	for i, e := range l {
		s, ok := e.(string)
		var reason string
		switch {
		case !ok:
			reason = `want a path or a file name written as a string, such as "~/.vault-token"`
		case strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "!")) == "":
			reason = "a blank entry names nothing: remove it"
		case strings.ContainsRune(s, 0):
			reason = errNUL.Error()
		default:
			out = append(out, s)
			continue
		}
		return nil, &ValueError{Source: "config file " + path, Key: fmt.Sprintf("%s[%d]", key, i), Value: display(e), Reason: reason}
	}
	return out, nil
}

// toRules reads a list of permission rules: strings, none of them blank.
func toRules(path, key string, v any) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	bad := func(at string, val any, reason string) error {
		return &ValueError{Source: "config file " + path, Key: at, Value: display(val), Reason: reason}
	}
	l, ok := v.([]any)
	if !ok {
		return nil, bad(key, v, `want a list of rules such as ["Read", "Bash(git status)"]`)
	}
	out := make([]string, 0, len(l))
	for i, e := range l {
		at := fmt.Sprintf("%s[%d]", key, i)
		s, ok := e.(string)
		switch {
		case !ok:
			return nil, bad(at, e, `want a rule written as a string, such as "Bash(git status)"`)
		case strings.TrimSpace(s) == "":
			return nil, bad(at, e, "a blank rule matches nothing: remove it")
		case strings.ContainsRune(s, 0):
			return nil, bad(at, e, errNUL.Error())
		}
		out = append(out, s)
	}
	return out, nil
}
