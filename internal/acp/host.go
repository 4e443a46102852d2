// Package acp serves forge to an editor over the Agent Client Protocol:
// JSON-RPC on standard input and output. The editor's requests become
// prompts to forge's agent, and the agent's events become the editor's
// session updates. It drives the agent through a Host, as the shell does,
// and never re-implements it: where the shell would ask the person, the
// editor is asked (session/request_permission), and the commands of the
// agent's calls run in the editor's terminals when it offers them. Files
// are forge's to read and write (see turn.front).
package acp

import (
	"context"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// Host is forge as the server needs it: its conversations.
type Host interface {
	// NewSession starts a conversation that works in o.Dir, with the
	// editor's MCP servers added to forge's.
	NewSession(ctx context.Context, o SessionOptions) (Session, error)
	// LoadSession goes on from the kept conversation id, in o.Dir.
	LoadSession(ctx context.Context, id string, o SessionOptions) (Session, error)
	// Lookup finds a tool by name, for the titles and kinds of calls.
	Lookup(name string) (tools.Tool, bool)
}

// SessionOptions are what the editor gives a conversation.
type SessionOptions struct {
	// Dir is the absolute working directory.
	Dir string
	// MCPServers are the editor's servers, for this conversation's agent.
	MCPServers []MCPServer
}

// MCPServer is an MCP server the editor offers: a command (stdio) or a
// URL (streamable HTTP).
type MCPServer struct {
	Name    string
	Command string
	Args    []string
	Env     map[string]string
	URL     string
	Headers map[string]string
}

// Session is one conversation with forge's agent.
type Session interface {
	// ID is the conversation's id, which a later LoadSession takes.
	ID() string
	// Mode is the approval mode; SetMode changes it from the next call.
	Mode() permission.Mode
	SetMode(permission.Mode)
	// Commands are the prompt commands the person may type as /NAME
	// (custom commands).
	Commands() []Command
	// Messages is the conversation so far, for an editor that loads it;
	// Typed is a prompt of it as the person typed it ("" when the same).
	Messages() []llm.Message
	Typed(prompt string) string
	// Todos is the model's task list as it last kept it.
	Todos() agent.Todos
	// ContextWindow is the window of the model prompts go to, in tokens;
	// 0 when unknown. Spent is what the conversation has cost so far, in
	// US dollars, and whether the model's price is known.
	ContextWindow() int
	Spent() (cost float64, priced bool)
	// Run gives the agent one prompt (a /NAME line runs that command),
	// with what the editor provides, and returns how the run ended. Every
	// event goes to emit, from the goroutine that called Run. An error
	// that is the prompt's own wraps ErrBadPrompt; any other is forge's
	// (no model to answer).
	Run(ctx context.Context, prompt string, f Front, emit func(agent.Event)) (agent.Done, error)
	// Close ends the conversation: its log is closed, its servers stopped.
	Close() error
}

// Command is a prompt command the editor can offer.
type Command struct {
	Name, Description string
	// Hint says what may follow the name; "" when nothing.
	Hint string
}

// Front is what the editor provides for one prompt: who approves calls,
// and, when it offers them, its terminals (nil otherwise: forge runs the
// commands itself).
type Front struct {
	Approver  agent.Approver
	Terminals tools.Terminals
}
