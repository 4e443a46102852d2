package render

import (
	"fmt"

	"github.com/forgehq/forge/internal/hooks"
)

// HookLine is one line on what a hook did.
func HookLine(n *hooks.Note) string {
	who := fmt.Sprintf("hook %s `%s`", n.Event, clip(oneLineText(n.Command), 60))
	text := oneLineText(n.Text)
	switch n.Kind {
	case hooks.NoteError:
		return who + " failed: " + text
	case hooks.NoteRewrote:
		return who + " rewrote " + n.Tool + ": " + clip(text, 120)
	case hooks.NoteFeedback:
		return who + " on " + n.Tool + ": " + text
	case hooks.NoteBlocked:
		switch n.Event {
		case hooks.UserPromptSubmit:
			return who + " blocked the prompt: " + text
		case hooks.Stop:
			return who + " keeps the agent going: " + text
		}
		return who + " blocked " + n.Tool + ": " + text
	}
	return who + ": " + text
}

// hookEvent is a hook event in JSON.
type hookEvent struct {
	Type     string `json:"type"`
	Event    string `json:"event"`
	Command  string `json:"command"`
	Tool     string `json:"tool,omitempty"`
	Kind     string `json:"kind"`
	Text     string `json:"text"`
	ParentID string `json:"parent_id,omitempty"`
}

func newHookEvent(n *hooks.Note, parent string) hookEvent {
	return hookEvent{Type: "hook", Event: string(n.Event), Command: n.Command, Tool: n.Tool, Kind: string(n.Kind), Text: n.Text, ParentID: parent}
}
