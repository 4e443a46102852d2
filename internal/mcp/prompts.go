package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PromptArg is one argument of a server's prompt.
type PromptArg struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// PromptInfo is one prompt a connected server offers, as forge names it:
// mcp__<server>__<prompt>, the name of its slash command.
type PromptInfo struct {
	Command     string      `json:"command"`
	Server      string      `json:"server"`
	Name        string      `json:"name"`
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description,omitempty"`
	Args        []PromptArg `json:"arguments,omitempty"`
}

// Prompts lists the prompts of the connected servers, by server, in the
// order each server gave them. A server not connected yet offers none
// until it connects.
func (m *Manager) Prompts() []PromptInfo {
	var out []PromptInfo
	for _, name := range m.order {
		prompts, _ := m.servers[name].Offers()
		for _, p := range prompts {
			info := PromptInfo{Command: ToolName(name, p.Name), Server: name, Name: p.Name, Title: p.Title, Description: p.Description}
			for _, a := range p.Arguments {
				if a != nil {
					info.Args = append(info.Args, PromptArg{Name: a.Name, Description: a.Description, Required: a.Required})
				}
			}
			out = append(out, info)
		}
	}
	return out
}

// GetPrompt fills in a server's prompt with args and returns it as one
// text for the model: the messages' text in order, an assistant's marked
// as such, images and binary resources saved to files and named.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error) {
	s, ok := m.servers[server]
	if !ok {
		return "", m.unknown(server)
	}
	cs, listed, err := s.Session(ctx)
	if err != nil {
		return "", err
	}
	if listed {
		_ = m.sync(s)
	}
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("MCP server %s: prompt %s: %w", server, name, err)
	}
	w := contentWriter{server: server, media: m.media}
	var parts []string
	for _, msg := range res.Messages {
		if msg == nil {
			continue
		}
		text := w.text(msg.Content)
		if msg.Role == "assistant" {
			text = "[assistant] " + text
		}
		parts = append(parts, text)
	}
	return strings.TrimSpace(strings.Join(parts, "\n\n")), nil
}
