package acp

import (
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/tools"
)

// kindOf is the kind of a call as the editor draws it: its icon and how
// it follows the call.
func kindOf(name string, t tools.Tool) sdk.ToolKind {
	switch name {
	case "Read", "NotebookRead":
		return sdk.ToolKindRead
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return sdk.ToolKindEdit
	case "Grep", "Glob", "LS", "WebSearch":
		return sdk.ToolKindSearch
	case "Bash", "BashOutput", "KillShell":
		return sdk.ToolKindExecute
	case "WebFetch":
		return sdk.ToolKindFetch
	case "Task", agent.TodoToolName:
		return sdk.ToolKindThink
	case agent.PlanToolName:
		return sdk.ToolKindSwitchMode
	}
	if t != nil && tools.IsReadOnly(t) {
		return sdk.ToolKindRead
	}
	return sdk.ToolKindOther
}

// title names a call in one line, as the shell's call line does: the
// tool and what it acts on (its first string argument, a path relative to
// the working directory).
func title(c *agent.Call, t tools.Tool, wd string) string {
	switch c.Name {
	case agent.PlanToolName: // its argument is the whole plan, shown apart
		return "Plan"
	case agent.TodoToolName: // the editor shows the list as its plan
		return "Update the task list"
	}
	subject := ""
	if t != nil {
		for _, p := range t.Parameters() {
			if s, ok := c.Args[p.Name].(string); ok && strings.TrimSpace(s) != "" {
				subject = s
				if isPathParam(p.Name) {
					subject = relative(s, wd)
				}
				break
			}
		}
	}
	subject = strings.Join(strings.Fields(subject), " ")
	if r := []rune(subject); len(r) > 100 {
		subject = string(r[:99]) + "…"
	}
	if subject == "" {
		return c.Name
	}
	if c.Name == "Bash" {
		return "`" + subject + "`"
	}
	return c.Name + " " + subject
}

// isPathParam says a parameter names a file.
func isPathParam(name string) bool {
	return name == "file_path" || name == "path" || name == "notebook_path"
}

// relative is path as the person reads it: relative to wd when inside it.
func relative(path, wd string) string {
	if !filepath.IsAbs(path) || wd == "" {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return path
}

// locations are the files a call acts on, absolute, for an editor that
// follows the agent.
func locations(c *agent.Call, wd string) []sdk.ToolCallLocation {
	var out []sdk.ToolCallLocation
	for _, k := range []string{"file_path", "notebook_path", "path"} {
		p, ok := c.Args[k].(string)
		if !ok || strings.TrimSpace(p) == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		loc := sdk.ToolCallLocation{Path: filepath.Clean(p)}
		if n, ok := lineArg(c.Args["offset"]); ok && n > 0 {
			loc.Line = sdk.Ptr(n)
		}
		out = append(out, loc)
		break
	}
	return out
}

// lineArg reads an integer argument, whichever way it was decoded.
func lineArg(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case float64:
		return int(n), true
	}
	return 0, false
}

// diff is a file change as the editor shows it.
func diff(c tools.Change) (sdk.ToolCallContent, bool) {
	if c.Path == "" || c.Unshown != "" {
		return sdk.ToolCallContent{}, false
	}
	if c.Created {
		return sdk.ToolDiffContent(c.Path, string(c.New)), true
	}
	return sdk.ToolDiffContent(c.Path, string(c.New), string(c.Old)), true
}

// textContent is text as a call's content.
func textContent(s string) []sdk.ToolCallContent {
	return []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(s))}
}

// statusOf is how a call ended, as the protocol says it: it knows only
// completed and failed, so a denied, timed-out or cancelled call failed.
func statusOf(s agent.Status) sdk.ToolCallStatus {
	if s == agent.StatusSuccess {
		return sdk.ToolCallStatusCompleted
	}
	return sdk.ToolCallStatusFailed
}

// maxShownOutput bounds the text of a call's output the editor is sent:
// the model gets the whole of it, the person its end.
const maxShownOutput = 64 << 10

// tail is the end of s, at most maxShownOutput bytes, cut at a line.
func tail(s string) string {
	if len(s) <= maxShownOutput {
		return s
	}
	s = s[len(s)-maxShownOutput:]
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return "[… the start is cut]\n" + s
}
