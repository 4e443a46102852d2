package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/mcp"
	"github.com/forgehq/forge/internal/render"
)

// mcpPromptCommands are the prompts of the connected MCP servers as shell
// commands: /mcp__SERVER__PROMPT ARGS fills the prompt in on its server
// and sends it to the agent. They change as servers connect and say their
// prompts changed, so the table is asked for them each time.
func (e *Env) mcpPromptCommands() []Command {
	if e.MCP == nil {
		return nil
	}
	var out []Command
	for _, p := range e.MCP.Prompts() {
		if _, builtin := lookup(Table(), p.Command); builtin {
			continue
		}
		out = append(out, promptCommand(p))
	}
	return out
}

// promptCommand is the table entry of one server's prompt.
func promptCommand(p mcp.PromptInfo) Command {
	usage := "/" + p.Command
	for _, a := range p.Args {
		if a.Required {
			usage += " " + a.Name + "=VALUE"
		} else {
			usage += " [" + a.Name + "=VALUE]"
		}
	}
	summary := oneLine(p.Description)
	if summary == "" {
		summary = oneLine(p.Title)
	}
	if summary == "" {
		summary = "Prompt " + p.Name + " of MCP server " + p.Server
	}
	var help strings.Builder
	fmt.Fprintf(&help, "Sends prompt %s of MCP server %s, filled in with the arguments, to the agent. Arguments are NAME=VALUE pairs or, in their order, plain words.", p.Name, p.Server)
	if len(p.Args) > 0 {
		help.WriteString("\n\n")
		for _, a := range p.Args {
			fmt.Fprintf(&help, "    %s", a.Name)
			if a.Required {
				help.WriteString(" (required)")
			}
			if a.Description != "" {
				help.WriteString(": " + oneLine(a.Description))
			}
			help.WriteString("\n")
		}
	}
	var cmd Command
	cmd = Command{
		Name: p.Command, Usage: usage, Summary: summary, Where: ShellOnly, RawLine: true,
		Source: "MCP server " + p.Server, Help: help.String(),
		Complete: func(_ *Env, words []string, partial string) []string {
			var out []string
			for _, a := range p.Args {
				if !slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, a.Name+"=") }) {
					out = append(out, a.Name+"=")
				}
			}
			return out
		},
		Run: func(ctx context.Context, env *Env, inv Invocation) int {
			args, err := promptArgs(p, inv.Line)
			if err != nil {
				return env.Usage(cmd, inv, err.Error())
			}
			prompt, err := env.MCP.GetPrompt(ctx, p.Server, p.Name, args)
			if err != nil {
				return env.Fail(ExitFailed, "error", err.Error())
			}
			if prompt == "" {
				return env.Fail(ExitFailed, "error", fmt.Sprintf("prompt %s of MCP server %s is empty", p.Name, p.Server))
			}
			return runPrompt(ctx, env, prompt, env.typedLine, !inv.Shell, AgentOptions{Exec: env.Exec})
		},
	}
	return cmd
}

// promptArgs reads a prompt's arguments from the rest of its line:
// NAME=VALUE for a named one, a plain word for the next one not given yet.
func promptArgs(p mcp.PromptInfo, line string) (map[string]string, error) {
	words, err := Fields(line)
	if err != nil {
		return nil, err
	}
	known := func(name string) bool {
		return slices.ContainsFunc(p.Args, func(a mcp.PromptArg) bool { return a.Name == name })
	}
	args := map[string]string{}
	var plain []string
	for _, w := range words {
		if k, v, ok := strings.Cut(w, "="); ok && known(k) {
			args[k] = v
			continue
		}
		plain = append(plain, w)
	}
	for _, a := range p.Args {
		if len(plain) == 0 {
			break
		}
		if _, given := args[a.Name]; !given {
			args[a.Name], plain = plain[0], plain[1:]
		}
	}
	if len(plain) > 0 {
		return nil, fmt.Errorf("too many arguments: %s", strings.Join(plain, " "))
	}
	var missing []string
	for _, a := range p.Args {
		if _, given := args[a.Name]; a.Required && !given {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing argument: %s", strings.Join(missing, ", "))
	}
	return args, nil
}

// oneLine is s's words on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// resourceMention reads "@server:uri" (the word after @): a configured
// MCP server's name, a colon, and a URI with a scheme of its own.
func (e *Env) resourceMention(word string) (server, uri string, ok bool) {
	if e.MCP == nil {
		return "", "", false
	}
	server, uri, ok = strings.Cut(word, ":")
	if !ok || !strings.Contains(uri, ":") {
		return "", "", false
	}
	if _, known := e.MCP.Server(server); !known {
		return "", "", false
	}
	return server, strings.TrimRight(uri, ",.;!?)]}'\"`"), true
}

// attachResource reads a mentioned MCP resource into b, saying so, and
// returns the bytes it attached.
func (e *Env) attachResource(ctx context.Context, b *strings.Builder, server, uri string, room int, show func(agent.Event)) int {
	label := server + ":" + uri
	text, err := e.MCP.ReadResource(ctx, server, uri)
	switch {
	case err != nil:
		notice(show, "@"+label+": "+err.Error()+"; not attached")
		return 0
	case len(text) > maxAttachment || len(text) > room:
		why := "is larger than a mention attaches; ask the model to read it with " + mcp.ReadResourceTool
		notice(show, "@"+label+": "+why)
		return 0
	}
	notice(show, fmt.Sprintf("attached %s (%s)", label, render.ByteSize(len(text))))
	fmt.Fprintf(b, "\n\n<attached-resource server=%q uri=%q>\n%s", server, uri, text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteString("\n")
	}
	b.WriteString("</attached-resource>")
	return len(text)
}
