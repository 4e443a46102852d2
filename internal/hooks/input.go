package hooks

import (
	"encoding/json"

	"github.com/forgehq/forge/internal/tools"
)

// Input is what a hook reads on its standard input, as Claude Code writes
// it: the common fields, and those of its event.
type Input struct {
	SessionID string `json:"session_id"`
	// TranscriptPath is the session log, when there is one.
	TranscriptPath string `json:"transcript_path,omitempty"`
	Cwd            string `json:"cwd"`
	Event          Event  `json:"hook_event_name"`

	// ToolName, ToolInput and ToolUseID: PreToolUse, PostToolUse.
	ToolName  string     `json:"tool_name,omitempty"`
	ToolInput tools.Args `json:"-"`
	ToolUseID string     `json:"tool_use_id,omitempty"`
	// ToolResponse is the call's result: PostToolUse.
	ToolResponse *ToolResponse `json:"tool_response,omitempty"`
	// Prompt is the person's prompt: UserPromptSubmit.
	Prompt string `json:"prompt,omitempty"`
	// Source is "startup" or "resume": SessionStart.
	Source string `json:"source,omitempty"`
	// StopHookActive says the run already went on because of a Stop hook
	// (Stop): a hook should then let it end, or it never will.
	StopHookActive bool `json:"-"`
}

// ToolResponse is a call's result as PostToolUse hooks read it.
type ToolResponse struct {
	Status   string         `json:"status"`
	Output   string         `json:"output"`
	Error    string         `json:"error,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// encode is the JSON a hook reads: tool_input is there for the tool
// events even when empty, stop_hook_active for Stop even when false.
func (in Input) encode() ([]byte, error) {
	type plain Input
	w := struct {
		plain
		ToolInput      *tools.Args `json:"tool_input,omitempty"`
		StopHookActive *bool       `json:"stop_hook_active,omitempty"`
	}{plain: plain(in)}
	if in.Event == PreToolUse || in.Event == PostToolUse {
		args := in.ToolInput
		if args == nil {
			args = tools.Args{}
		}
		w.ToolInput = &args
	}
	if in.Event == Stop {
		w.StopHookActive = &in.StopHookActive
	}
	return json.Marshal(w)
}
