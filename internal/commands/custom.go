package commands

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/custom"
)

// SetCustom makes the custom commands the app loaded part of the shell's
// table. One named as a command of forge's own (or one of their aliases)
// is refused: the returned warnings name each such file.
func (e *Env) SetCustom(defs []custom.Command) []string {
	var warns []string
	e.custom = nil
	table := Table()
	for _, d := range defs {
		if _, builtin := lookup(table, d.Name); builtin {
			warns = append(warns, fmt.Sprintf("%s: /%s is a command of forge's own; this custom command is skipped (rename the file)",
				d.Source.Path, d.Name))
			continue
		}
		e.custom = append(e.custom, d)
	}
	return warns
}

// commandTable is forge's commands followed by the custom ones and the
// prompts of the connected MCP servers.
func (e *Env) commandTable() []Command {
	return append(e.baseTable(), e.mcpPromptCommands()...)
}

// baseTable is forge's commands followed by the custom ones: the part of
// the table that does not change while the shell runs.
func (e *Env) baseTable() []Command {
	table := Table()
	for _, d := range e.custom {
		table = append(table, customCommand(d, e.Exec.WorkingDir))
	}
	return table
}

// customCommand is the table entry of a custom command: /NAME ARGS
// sends its prompt, filled in with ARGS, to the agent.
func customCommand(d custom.Command, wd string) Command {
	usage := "/" + d.Name
	if d.ArgumentHint != "" {
		usage += " " + d.ArgumentHint
	}
	summary := d.Description
	if summary == "" {
		summary = "Custom command"
	}
	return Command{
		Name: d.Name, Usage: usage, Summary: summary, Where: ShellOnly, RawLine: true,
		Source: "custom, " + string(d.Source.Scope) + " " + displayPath(d.Source.Path, wd),
		helpFn: func() string { return customHelp(d) },
		Run: func(ctx context.Context, env *Env, inv Invocation) int {
			prompt, opts, err := expandCustom(env, d, inv.Line)
			if err != nil {
				return env.Usage(customCommand(d, wd), inv, err.Error())
			}
			return runPrompt(ctx, env, prompt, env.typedLine, !inv.Shell, opts)
		},
	}
}

// customHelp is /help NAME of a custom command: what narrows its prompt,
// and the prompt itself.
func customHelp(d custom.Command) string {
	var b strings.Builder
	b.WriteString("Sends the prompt below to the agent: $ARGUMENTS is what follows the command, $1 to $9 its words.")
	if d.AllowedTools != nil {
		b.WriteString(" The agent may use only: " + strings.Join(d.AllowedTools, ", ") + ".")
	}
	if d.Model != "" {
		b.WriteString(" Model: " + d.Model + ".")
	}
	b.WriteString("\n\n")
	for _, l := range strings.Split(d.Body, "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

// expandCustom is the prompt of custom command d with the argument text
// args, and the agent's options for it.
func expandCustom(env *Env, d custom.Command, args string) (string, AgentOptions, error) {
	words, err := Fields(args)
	if err != nil {
		return "", AgentOptions{}, err
	}
	prompt := strings.TrimSpace(custom.Expand(d.Body, args, words))
	if prompt == "" {
		return "", AgentOptions{}, fmt.Errorf("/%s has no prompt: %s is empty", d.Name, d.Source.Path)
	}
	return prompt, AgentOptions{Exec: env.Exec, Tools: d.AllowedTools, Model: d.Model, ModelFrom: d.Source.Path, command: true}, nil
}

// customFor finds the custom command a prompt such as "/review src/"
// names, and the rest of it.
func (e *Env) customFor(prompt string) (custom.Command, string, bool) {
	if !strings.HasPrefix(prompt, "/") {
		return custom.Command{}, "", false
	}
	name, rest := cutWord(prompt)
	name = strings.TrimPrefix(name, "/")
	for _, d := range e.custom {
		if d.Name == name {
			return d, rest, true
		}
	}
	return custom.Command{}, "", false
}

// displayPath is p relative to wd when inside it.
func displayPath(p, wd string) string {
	if wd == "" {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}

// commandContext is a custom command's prompt with the files it names as
// @path attached, and the output of each of its !`commands` in its place:
// each runs as the agent's Bash calls do (the command's allowed-tools,
// the hooks, the rules and the person, the sandbox), its events shown.
func (e *Env) commandContext(ctx context.Context, a *agent.Agent, prompt string, show func(agent.Event)) string {
	if strings.Contains(prompt, "@") {
		prompt = e.attachMentions(ctx, prompt, show)
	}
	if !custom.HasShell(prompt) {
		return prompt
	}
	return custom.ExpandShell(prompt, func(command string) string {
		out, _ := a.Shell(ctx, &e.Conversation, command, show)
		return out
	})
}
