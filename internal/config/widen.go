package config

import (
	"slices"
)

// widens says whether a project's value proj, over the value base that the
// layers below it give, lets forge do more than base does: then it takes
// effect only in a trusted project.
type widens func(base, proj Config) bool

// Every setting is classified here, so a new one cannot slip past the trust
// check unexamined (a test checks that the table covers every key).
var projectPolicy = map[string]widens{
	// Paths forge writes to, or reads and sends to the model: a checkout must
	// not aim them at the person's files.
	"log_file":      func(b, p Config) bool { return p.LogFile != b.LogFile },
	"history_file":  func(b, p Config) bool { return p.HistoryFile != b.HistoryFile },
	"sessions_dir":  func(b, p Config) bool { return p.SessionsDir != b.SessionsDir },
	"system_prompt": func(b, p Config) bool { return p.SystemPrompt != b.SystemPrompt && p.SystemPrompt != "" },
	// Which model answers, where the API key is sent, and the window and
	// token limit budgets and compaction count with: a project could pick a
	// costlier model, a server of its own or limits the person did not
	// choose, so it sets none of them until trusted. (Its prices are the
	// models section's, which waits for trust too.)
	"provider":       func(b, p Config) bool { return p.Provider != b.Provider },
	"model":          func(b, p Config) bool { return p.Model != b.Model },
	"base_url":       func(b, p Config) bool { return p.BaseURL != b.BaseURL },
	"context_window": func(b, p Config) bool { return p.ContextWindow != b.ContextWindow },
	"max_tokens":     func(b, p Config) bool { return p.MaxTokens != b.MaxTokens },

	"allowed_roots":      func(b, p Config) bool { return !subset(p.AllowedRoots, b.AllowedRoots) },
	"plugin_dirs":        func(b, p Config) bool { return !subset(p.PluginDirs, b.PluginDirs) },
	"pass_env":           func(b, p Config) bool { return !subset(p.PassEnv, b.PassEnv) },
	"read.allow_outside": func(b, p Config) bool { return p.Read.AllowOutside && !b.Read.AllowOutside },
	"dry_run":            func(b, p Config) bool { return b.DryRun && !p.DryRun },
	"loop_detection":     func(b, p Config) bool { return b.LoopDetection && !p.LoopDetection },
	"approval":           func(b, p Config) bool { return approvalRank(p.Approval) > approvalRank(b.Approval) },

	// The sandbox: a project may confine more, never less.
	"sandbox.mode":          func(b, p Config) bool { return sandboxRank(p.Sandbox.Mode) < sandboxRank(b.Sandbox.Mode) },
	"sandbox.writable":      func(b, p Config) bool { return !subset(p.Sandbox.Writable, b.Sandbox.Writable) },
	"sandbox.caches":        func(b, p Config) bool { return !subset(p.Sandbox.Caches, b.Sandbox.Caches) },
	"sandbox.network.allow": func(b, p Config) bool { return !subset(p.Sandbox.Network.Allow, b.Sandbox.Network.Allow) },

	// Limits: a lower one always applies, a higher one needs trust.
	"timeout":         func(b, p Config) bool { return p.Timeout > b.Timeout },
	"max_output_size": func(b, p Config) bool { return p.MaxOutputSize > b.MaxOutputSize },
	"max_turns":       func(b, p Config) bool { return p.MaxTurns > b.MaxTurns },
	"max_cost":        func(b, p Config) bool { return looser(b.MaxCost, p.MaxCost) },
	"max_answer_size": func(b, p Config) bool { return p.MaxAnswerSize > b.MaxAnswerSize },
	// A longer wait for a silent server is a looser limit too.
	"stream_idle_timeout": func(b, p Config) bool { return p.StreamIdleTimeout > b.StreamIdleTimeout },
	"max_answer_time":     func(b, p Config) bool { return p.MaxAnswerTime > b.MaxAnswerTime },

	// What forge shows, and how tool calls are written: a project may choose these.
	"output":           neutral,
	"log_level":        neutral,
	"no_color":         neutral,
	"width":            neutral,
	"history_capacity": neutral,
	"fail_fast":        neutral,
	"tool_format":      neutral,
	// How hard the model thinks costs tokens, which max_cost and
	// max_tokens bound; it grants nothing.
	"effort": neutral,
	"api":    neutral,
}

// projectForbidden are the settings a project file cannot set at all.
var projectForbidden = map[string]string{
	"working_dir": "the project is found from the working directory, so a project cannot move it",
}

func neutral(_, _ Config) bool { return false }

// approvalRank orders the modes by how much the agent may do unasked.
func approvalRank(mode string) int {
	switch mode {
	case "plan":
		return 0
	case "ask", "":
		return 1
	case "auto-edit":
		return 2
	}
	return 3 // yolo
}

// sandboxRank orders the sandbox modes by how much they confine.
func sandboxRank(mode string) int {
	switch mode {
	case "off":
		return 0
	case "read-only":
		return 2
	}
	return 1 // workspace-write, the default
}

// looser compares limits where 0 means none: proj is looser when it lifts a
// limit or raises it.
func looser(base, proj float64) bool {
	if base == 0 {
		return false
	}
	return proj == 0 || proj > base
}

// subset reports whether every element of a is in b.
func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
