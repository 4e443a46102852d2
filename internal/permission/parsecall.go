package permission

import (
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// ParseCall turns "Tool(argument)" into a Call, for checking rules without
// running anything (forge permissions check 'Bash(rm -rf build)'). The
// argument goes where the tool expects it: Bash's command; Read, Write and
// Edit's file_path; NotebookEdit's notebook_path; WebFetch's url; Glob and
// Grep's pattern; WebSearch's query; BashOutput's bash_id; KillShell's
// shell_id. Any other tool takes a JSON object of arguments
// (mcp__github__create_issue({"title": "x"})), or text that is not one as
// its single "arguments" argument. "Tool" alone is a call without
// arguments. readOnly, if not nil, says which tools are read-only; Write,
// Edit and NotebookEdit edit files.
func ParseCall(text string, readOnly func(tool string) bool) (Call, error) {
	s := strings.TrimSpace(text)
	tool, arg, hasArg := s, "", false
	if open := strings.IndexByte(s, '('); open >= 0 {
		if !strings.HasSuffix(s, ")") {
			return Call{}, fmt.Errorf("call %q: missing ) at the end; write Tool(argument), as in Bash(go test ./...)", text)
		}
		tool, arg, hasArg = strings.TrimSpace(s[:open]), s[open+1:len(s)-1], true
	}
	if tool == "" {
		return Call{}, fmt.Errorf("call %q: no tool name; write Tool(argument), as in Bash(go test ./...)", text)
	}
	for _, c := range tool {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return Call{}, fmt.Errorf("call %q: the tool name %q has %q; tool names have letters, digits, _ and -", text, tool, c)
		}
	}
	call := Call{Tool: tool, Args: tools.Args{}}
	if readOnly != nil {
		call.ReadOnly = readOnly(tool)
	}
	switch tool {
	case "Write", "Edit", "NotebookEdit":
		call.EditsFiles = true
	}
	if !hasArg {
		return call, nil
	}
	if key := argumentKey(tool); key != "" {
		call.Args[key] = strings.TrimSpace(arg)
		if key == "command" {
			call.Args[key] = arg // a shell line keeps its spacing
		}
		return call, nil
	}
	if trimmed := strings.TrimSpace(arg); strings.HasPrefix(trimmed, "{") {
		if args, err := tools.DecodeArgs([]byte(trimmed)); err == nil {
			call.Args = args
			return call, nil
		}
	}
	call.Args["arguments"] = arg
	return call, nil
}

// argumentKey returns the argument a built-in tool's text goes to, "" for
// other tools.
func argumentKey(tool string) string {
	switch tool {
	case "Bash":
		return "command"
	case "Read", "Write", "Edit":
		return "file_path"
	case "NotebookEdit":
		return "notebook_path"
	case "WebFetch":
		return "url"
	case "Glob", "Grep":
		return "pattern"
	case "WebSearch":
		return "query"
	case "BashOutput":
		return "bash_id"
	case "KillShell":
		return "shell_id"
	}
	return ""
}
