package commands

import (
	"context"
	"strings"

	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

func permissionsCommand() Command {
	return Command{
		Name: "permissions", Usage: "/permissions [check CALL]", Summary: "Show the approval mode and rules, or check a call against them",
		Help:       `Without arguments, shows the approval mode (--approval: ask, auto-edit, yolo, plan), the allow and deny rules of the configuration, and the rules allowed "always" in this session. check decides a call written as a rule would match it, without running anything, and says which rule or mode decided: Bash(rm -rf build), Read(.env), WebFetch(https://example.com). Deny rules win over everything, yolo included; an allow rule skips the question.`,
		Example:    "/permissions\n/permissions check Bash(go test ./...)",
		CLIExample: "forge permissions check 'Bash(rm -rf build)' --config .forge.yaml",
		Subcommands: []Command{
			{Name: "list", Usage: "/permissions list", Summary: "Show the mode and the rules", Run: runPermissionsList, Args: AtMost(0)},
			{Name: "check", Usage: "/permissions check CALL", Summary: "Decide a call without running it", RawLine: true, Run: runPermissionsCheck, Args: AtLeast(1)},
		},
	}
}

func runPermissionsList(_ context.Context, env *Env, _ Invocation) int {
	if env.Policy == nil {
		return env.Fail(ExitFailed, "error", "no approval policy in this session")
	}
	cfg := env.Config.Permissions
	var b strings.Builder
	b.WriteString("Approval mode: " + string(env.Policy.Mode()) + "\n")
	list := func(title string, rules []string) {
		b.WriteString(title + ":")
		if len(rules) == 0 {
			b.WriteString(" (none)\n")
			return
		}
		b.WriteString("\n")
		for _, r := range rules {
			b.WriteString("  " + r + "\n")
		}
	}
	list("Allow", cfg.Allow)
	list("Deny", cfg.Deny)
	list("Allowed this session", env.Policy.Remembered())
	env.Printer().Value(b.String(), map[string]any{"permissions": map[string]any{"mode": env.Policy.Mode(),
		"allow": orEmpty(cfg.Allow), "deny": orEmpty(cfg.Deny), "session": orEmpty(env.Policy.Remembered())}})
	return ExitOK
}

func runPermissionsCheck(_ context.Context, env *Env, inv Invocation) int {
	if env.Policy == nil {
		return env.Fail(ExitFailed, "error", "no approval policy in this session")
	}
	text := strings.TrimSpace(inv.Line)
	if !inv.Shell {
		text = strings.TrimSpace(strings.Join(inv.Args, " "))
	}
	if text == "" {
		return env.Usage(permissionsCommand(), inv, "missing call, such as Bash(go test ./...)")
	}
	call, err := permission.ParseCall(text, func(name string) bool {
		t, ok := env.Registry.Get(name)
		return ok && tools.IsReadOnly(t)
	})
	if err != nil {
		return env.Fail(ExitUsage, "usage", err.Error())
	}
	if t, ok := env.Registry.Get(call.Tool); ok {
		eg := tools.EgressOf(t, env.Exec, call.Args)
		call.Hosts, call.OpenWorld = eg.Hosts, eg.OpenWorld
	}
	v := env.Policy.Decide(call)
	// The reason names the rule that decided, when one did.
	line := v.Decision.String() + ": " + v.Reason
	env.Printer().Value(line, map[string]any{"decision": v.Decision.String(), "rule": v.Rule, "reason": v.Reason,
		"always": orEmpty(v.Always)})
	return ExitOK
}

func orEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}
