package config

import (
	"fmt"
	"slices"
	"strings"
)

// Entry is one value of the merged configuration and where it came from, as
// `forge config` shows it.
type Entry struct {
	Key    string // "timeout", "permissions.allow", "mcp.servers.git", "tools.Bash.shell"
	Value  string
	Source string // "default", "config file PATH", "project file PATH", "FORGE_TIMEOUT", "--timeout", "/set"
}

// Origin says where a setting's value came from: "default", "config file
// PATH", "project file PATH", an environment variable or a flag; "" for an
// unknown key.
func (c Config) Origin(key string) string {
	s, ok := lookupSetting(key)
	if !ok {
		return ""
	}
	if o := c.origins[s.key]; o != "" {
		return o
	}
	return "default"
}

// Entries lists every setting with its value and source, then the values of
// the sections (rules, servers, tool settings, models), including those of an
// untrusted project that were ignored.
func (c Config) Entries() []Entry {
	out := make([]Entry, 0, len(settings)+len(c.sections))
	for _, s := range settings {
		out = append(out, Entry{Key: s.key, Value: s.get(c), Source: c.Origin(s.key)})
	}
	sections := slices.Clone(c.sections)
	slices.SortStableFunc(sections, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
	return append(out, sections...)
}

// noteSections records the section values one file gave, for Entries.
func (c *Config) noteSections(origin string, tools map[string]map[string]any, mcp MCP, perms Permissions, models map[string]ModelSettings) {
	add := func(key, value string) {
		c.sections = append(c.sections, Entry{Key: key, Value: value, Source: origin})
	}
	for _, r := range perms.Allow {
		add("permissions.allow", r)
	}
	for _, r := range perms.Deny {
		add("permissions.deny", r)
	}
	for _, r := range perms.Ask {
		add("permissions.ask", r)
	}
	for _, e := range perms.Credentials {
		add("permissions.credentials", e)
	}
	for _, name := range sortedKeys(mcp.Servers) {
		add("mcp.servers."+name, serverText(mcp.Servers[name]))
	}
	for _, name := range sortedKeys(tools) {
		for _, k := range sortedKeys(tools[name]) {
			add("tools."+name+"."+k, display(tools[name][k]))
		}
	}
	for _, name := range sortedKeys(models) {
		add("models."+name, modelText(models[name]))
	}
}

// serverText is an MCP server as Entries shows it: its URL or command line.
func serverText(s MCPServer) string {
	if s.URL != "" {
		return s.URL
	}
	words := []string{shellQuote(s.Command)}
	for _, a := range s.Args {
		words = append(words, shellQuote(a))
	}
	return strings.Join(words, " ")
}

// modelText is a models entry as Entries shows it.
func modelText(m ModelSettings) string {
	v := fmt.Sprintf("context_window %d", m.ContextWindow)
	if m.Priced {
		v += fmt.Sprintf(", input $%g, output $%g per million tokens", m.Input, m.Output)
	}
	return v
}

// noteHooks records the hooks one file gave, for Entries.
func (c *Config) noteHooks(origin string, hooks []Hook) {
	for _, h := range hooks {
		c.sections = append(c.sections, Entry{Key: hookKey(h), Value: oneLine(h.Command), Source: origin})
	}
}

// hookKey names a hook as Entries shows it: "hooks.PreToolUse(Bash|Write)".
func hookKey(h Hook) string {
	if h.Matcher == "" {
		return "hooks." + h.Event
	}
	return "hooks." + h.Event + "(" + h.Matcher + ")"
}

// oneLine is a value over several lines (a hook's script) on one line,
// its line breaks written \n, for a listing of one value a line.
func oneLine(v string) string { return strings.ReplaceAll(v, "\n", `\n`) }
