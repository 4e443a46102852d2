package render

import (
	"encoding/json"

	"github.com/forgehq/forge/internal/tools"
)

// Printer turns what the commands produce into output: panels and plain
// lines for people (NewText), or one JSON object per value for programs
// (NewJSON). Commands hand it values and never ask which it is.
type Printer interface {
	// Result shows one finished tool call.
	Result(c Call)
	// ToolList lists tools by category; ToolDetails shows one.
	ToolList(ds []tools.Descriptor)
	ToolDetails(d tools.Descriptor)
	ToolNotFound(name string, suggestions []string)
	// Schemas shows exported schemas; one says a single tool was asked
	// for, which text shows as an object rather than an array.
	Schemas(f tools.Format, schemas []json.RawMessage, one bool)
	History(total int64, xs []tools.Execution)
	HistoryCleared()
	Context(c ContextView)
	Settings(s []Setting)
	SettingChanged(s Setting)
	Registry(st tools.Stats)
	MCPServers(servers []MCPServer)
	Plugins(dirs []string, ps []PluginView)
	// RegistrationFailed shows a tool that could not be registered.
	RegistrationFailed(name string, err error)
	CommandList(cs []CommandInfo, footer string)
	CommandHelp(c CommandInfo)
	Version(v VersionInfo)
	Exit()
	// Value shows a value no other method covers: text for people, v
	// (encoded as one JSON object) for programs. A new command can print
	// with it without a method of its own. The text is forge's own words:
	// on a terminal its lines are wrapped at spaces to the width.
	Value(text string, v any)
	// Verbatim is Value for text whose lines must stay as they are (what
	// a tool printed, a diff): never wrapped, however wide.
	Verbatim(text string, v any)
	// Resumed shows a conversation that goes on from a kept session:
	// where it left off for people, rv.Value for programs.
	Resumed(rv ResumedView)
	// UnknownCommand reports a line that names no command.
	UnknownCommand(msg string, suggestions []string)
	// Error reports a failure that is not a tool result; kind is a short
	// machine-readable word ("usage", "input", "error").
	Error(kind, msg string)
	// Run starts showing an agent run.
	Run(info RunInfo, opts RunOptions) RunView
}

// Call is one finished tool call as the printer needs it.
type Call struct {
	Tool   string
	Args   tools.Args
	Result tools.Result
	// Descriptor is the tool's declaration, for a validation failure's
	// panel; the zero value when the tool is unknown.
	Descriptor tools.Descriptor
	// Presentation is how the tool presents this call (tools.Present).
	Presentation tools.Presentation
	// Suggestions are the closest tool names when the tool is unknown.
	Suggestions []string
}

// ContextView is the execution context with the shell's output mode.
type ContextView struct {
	Context tools.ExecutionContext
	Output  string
}

// Setting is one of the shell's settings and its value as shown.
type Setting struct {
	Key   string
	Value any
}

// MCPServer is one configured MCP server as /mcp shows it.
type MCPServer struct {
	Name      string
	Transport string
	// State is "connected", "failed", "not started" or "closed".
	State string
	Error string
	Tools []MCPTool
}

// MCPTool is one tool of an MCP server: its name in forge and on the server.
type MCPTool struct {
	Name        string
	Remote      string
	Description string
}

// PluginView is one plugin manifest as /plugins shows it.
type PluginView struct {
	Name        string
	Path        string
	Category    string
	Description string
	Command     []string
	Error       string
}

// CommandInfo describes one shell command for /help.
type CommandInfo struct {
	Name    string   `json:"name"`
	Aliases []string `json:"aliases,omitempty"`
	Usage   string   `json:"usage"`
	Summary string   `json:"summary"`
	// Source says where a custom command comes from: "custom, project
	// .forge/commands/review.md"; "" for forge's own.
	Source  string `json:"source,omitempty"`
	Help    string `json:"help,omitempty"`
	Example string `json:"example,omitempty"`
}

// VersionInfo is what forge version prints.
type VersionInfo struct {
	Version string `json:"version"`
	Go      string `json:"go"`
	OS      string `json:"os"`
	Arch    string `json:"arch"`
}
