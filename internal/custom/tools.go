package custom

import (
	"slices"
	"strings"
)

// toolAliases are tools of Claude Code that forge has under another name
// (or whose work one of forge's does): a file written for Claude Code
// that names them gets forge's.
var toolAliases = map[string]string{
	"MultiEdit":       "Edit",
	"LS":              "Glob",
	"NotebookRead":    "Read",
	"KillBash":        "KillShell",
	"AskUserQuestion": "ask_question",
	"Agent":           "Task",
	"TaskOutput":      "BashOutput",
}

// missingTools are tools of Claude Code that forge does not have: a file
// that names them goes without them.
var missingTools = map[string]bool{
	"TodoWrite": true, "TodoRead": true, "ExitPlanMode": true, "EnterPlanMode": true, "SlashCommand": true,
	"ListMcpResourcesTool": true, "ReadMcpResourceTool": true, "LSP": true, "Computer": true,
	"TaskCreate": true, "TaskGet": true, "TaskList": true, "TaskUpdate": true, "TaskStop": true,
	"SendMessage": true, "TeamCreate": true, "TeamDelete": true,
}

// ForgeTool is forge's name for the tool Claude Code calls name (name
// itself when forge has the same, or it is no tool of Claude Code's), and
// false when forge has no such tool.
func ForgeTool(name string) (string, bool) {
	if to, ok := toolAliases[name]; ok {
		return to, true
	}
	return name, !missingTools[name]
}

// MapTools turns a tool list written for Claude Code (allowed-tools, an
// agent's tools) into forge's: each tool or rule (MultiEdit(src/**)) by
// forge's name, without the tools forge does not have, which it returns
// apart, and without repeats.
func MapTools(list []string) (tools, dropped []string) {
	if list == nil {
		return nil, nil
	}
	tools = []string{}
	for _, entry := range list {
		name, rest := entry, ""
		if i := strings.IndexByte(entry, '('); i >= 0 {
			name, rest = entry[:i], entry[i:]
		}
		to, ok := ForgeTool(strings.TrimSpace(name))
		if !ok {
			dropped = append(dropped, strings.TrimSpace(name))
			continue
		}
		if t := to + rest; !slices.Contains(tools, t) {
			tools = append(tools, t)
		}
	}
	return tools, dropped
}
