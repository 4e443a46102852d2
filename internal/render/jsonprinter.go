package render

import (
	"bytes"
	"encoding/json"
	"io"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// NewJSON returns the Printer of -o json: one compact JSON object per value,
// on one line of out, errors included, so that a program reading out sees
// everything in order.
func NewJSON(out io.Writer) Printer { return jsonPrinter{out: out} }

type jsonPrinter struct{ out io.Writer }

// resultJSON is a tool result.
type resultJSON struct {
	Tool        string         `json:"tool"`
	Status      tools.Status   `json:"status"`
	Success     bool           `json:"success"`
	Output      any            `json:"output"`
	Error       string         `json:"error"`
	ErrorKind   string         `json:"error_kind"`
	DurationMS  float64        `json:"duration_ms"`
	Metadata    map[string]any `json:"metadata"`
	Suggestions []string       `json:"suggestions,omitempty"`
}

func newResultJSON(tool string, r tools.Result) resultJSON {
	md := r.Metadata
	if md == nil {
		md = map[string]any{}
	}
	return resultJSON{Tool: tool, Status: r.Status, Success: r.Success, Output: r.Output, Error: r.Error,
		ErrorKind: string(r.ErrorKind), DurationMS: r.DurationMS, Metadata: md}
}

type errorObject struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	Kind        string   `json:"kind"`
	Message     string   `json:"message"`
	Suggestions []string `json:"suggestions,omitempty"`
}

type toolJSON struct {
	Name         string            `json:"name"`
	Category     tools.Category    `json:"category"`
	Description  string            `json:"description"`
	LoopBreaking bool              `json:"loop_breaking,omitempty"`
	Parameters   []tools.Parameter `json:"parameters"`
	ReadOnly     bool              `json:"read_only,omitempty"`
}

func newToolJSON(d tools.Descriptor) toolJSON {
	ps := d.Parameters
	if ps == nil {
		ps = []tools.Parameter{}
	}
	return toolJSON{Name: d.Name, Category: d.Category, Description: d.Description, LoopBreaking: d.LoopBreaking,
		ReadOnly: d.ReadOnly, Parameters: ps}
}

type executionJSON struct {
	Seq         int64      `json:"seq"`
	Tool        string     `json:"tool"`
	Parameters  tools.Args `json:"parameters"`
	StartedAt   string     `json:"started_at"`
	CompletedAt string     `json:"completed_at"`
	resultJSON
}

type contextJSON struct {
	WorkingDir     string         `json:"working_dir"`
	SessionID      string         `json:"session_id"`
	AgentID        string         `json:"agent_id"`
	DryRun         bool           `json:"dry_run"`
	TimeoutSeconds float64        `json:"timeout_seconds"`
	MaxOutputSize  int            `json:"max_output_size"`
	AllowedRoots   []string       `json:"allowed_roots"`
	Metadata       map[string]any `json:"metadata"`
	Output         string         `json:"output"`
}

type mcpToolJSON struct {
	Name        string `json:"name"`
	Remote      string `json:"remote"`
	Description string `json:"description,omitempty"`
}

type mcpServerJSON struct {
	Name      string        `json:"name"`
	Transport string        `json:"transport"`
	State     string        `json:"state"`
	Error     string        `json:"error,omitempty"`
	Tools     []mcpToolJSON `json:"tools"`
}

type pluginJSON struct {
	Name        string   `json:"name,omitempty"`
	Path        string   `json:"path"`
	Category    string   `json:"category,omitempty"`
	Description string   `json:"description,omitempty"`
	Command     []string `json:"command,omitempty"`
	Loaded      bool     `json:"loaded"`
	Error       string   `json:"error,omitempty"`
}

func (p jsonPrinter) Result(c Call) {
	rj := newResultJSON(c.Tool, c.Result)
	rj.Suggestions = c.Suggestions
	p.write(rj)
}

func (p jsonPrinter) ToolList(ds []tools.Descriptor) {
	out := make([]toolJSON, len(ds))
	for i, d := range ds {
		out[i] = newToolJSON(d)
	}
	p.write(map[string]any{"tools": out})
}

func (p jsonPrinter) ToolDetails(d tools.Descriptor) {
	p.write(map[string]any{"tools": []toolJSON{newToolJSON(d)}})
}

func (p jsonPrinter) ToolNotFound(name string, suggestions []string) {
	p.write(errorObject{Error: errorBody{Kind: "unknown_tool", Message: "Unknown tool: " + name, Suggestions: suggestions}})
}

func (p jsonPrinter) Schemas(f tools.Format, schemas []json.RawMessage, _ bool) {
	if schemas == nil {
		schemas = []json.RawMessage{}
	}
	p.write(map[string]any{"format": f, "schemas": schemas})
}

func (p jsonPrinter) History(total int64, xs []tools.Execution) {
	out := make([]executionJSON, len(xs))
	for i, x := range xs {
		out[i] = executionJSON{Seq: x.Seq, Tool: x.ToolName, Parameters: x.Parameters,
			StartedAt: x.StartedAt.Format(time.RFC3339Nano), CompletedAt: x.CompletedAt.Format(time.RFC3339Nano),
			resultJSON: newResultJSON(x.ToolName, x.Result)}
		if out[i].Parameters == nil {
			out[i].Parameters = tools.Args{}
		}
	}
	p.write(map[string]any{"total": total, "executions": out})
}

func (p jsonPrinter) HistoryCleared() { p.write(map[string]any{"cleared": true}) }

func (p jsonPrinter) Context(c ContextView) {
	ec := c.Context
	roots := ec.AllowedRoots
	if roots == nil {
		roots = []string{}
	}
	md := ec.Metadata
	if md == nil {
		md = map[string]any{}
	}
	p.write(map[string]any{"context": contextJSON{WorkingDir: ec.WorkingDir, SessionID: ec.SessionID, AgentID: ec.AgentID,
		DryRun: ec.DryRun, TimeoutSeconds: ec.Timeout.Seconds(), MaxOutputSize: ec.MaxOutputSize, AllowedRoots: roots,
		Metadata: md, Output: c.Output}})
}

func (p jsonPrinter) Settings(s []Setting) {
	m := make(map[string]any, len(s))
	for _, st := range s {
		m[st.Key] = st.Value
	}
	p.write(map[string]any{"settings": m})
}

func (p jsonPrinter) SettingChanged(s Setting) {
	p.write(map[string]any{"set": map[string]any{"key": s.Key, "value": s.Value}})
}

func (p jsonPrinter) Registry(st tools.Stats) {
	names := st.Names
	if names == nil {
		names = []string{}
	}
	p.write(map[string]any{"registry": map[string]any{
		"id": st.ID, "total": st.Total, "by_category": st.ByCategory, "names": names}})
}

func (p jsonPrinter) MCPServers(servers []MCPServer) {
	out := struct {
		Servers []mcpServerJSON `json:"servers"`
	}{Servers: []mcpServerJSON{}}
	for _, sv := range servers {
		j := mcpServerJSON{Name: sv.Name, Transport: sv.Transport, State: sv.State, Error: sv.Error, Tools: []mcpToolJSON{}}
		for _, t := range sv.Tools {
			j.Tools = append(j.Tools, mcpToolJSON(t))
		}
		out.Servers = append(out.Servers, j)
	}
	p.write(out)
}

func (p jsonPrinter) Plugins(dirs []string, ps []PluginView) {
	out := struct {
		Dirs    []string     `json:"dirs"`
		Plugins []pluginJSON `json:"plugins"`
	}{Dirs: dirs, Plugins: []pluginJSON{}}
	for _, in := range ps {
		out.Plugins = append(out.Plugins, pluginJSON{Name: in.Name, Path: in.Path, Category: in.Category,
			Description: in.Description, Command: in.Command, Loaded: in.Error == "", Error: in.Error})
	}
	p.write(out)
}

// RegistrationFailed is silent in JSON: the refusal is part of the
// /plugins answer that follows it.
func (p jsonPrinter) RegistrationFailed(string, error) {}

func (p jsonPrinter) CommandList(cs []CommandInfo, _ string) {
	es := make([]CommandInfo, len(cs))
	for i, c := range cs {
		es[i] = CommandInfo{Name: c.Name, Aliases: c.Aliases, Usage: c.Usage, Summary: c.Summary, Source: c.Source}
	}
	p.write(map[string]any{"commands": es})
}

func (p jsonPrinter) CommandHelp(c CommandInfo) { p.write(map[string]any{"command": c}) }

func (p jsonPrinter) Version(v VersionInfo) { p.write(v) }

func (p jsonPrinter) Value(_ string, v any) { p.write(v) }

func (p jsonPrinter) Verbatim(_ string, v any) { p.write(v) }

func (p jsonPrinter) Resumed(rv ResumedView) { p.write(rv.Value) }

func (p jsonPrinter) Exit() { p.write(map[string]any{"exit": true}) }

func (p jsonPrinter) UnknownCommand(msg string, suggestions []string) {
	p.write(errorObject{Error: errorBody{Kind: "unknown_command", Message: msg, Suggestions: suggestions}})
}

func (p jsonPrinter) Error(kind, msg string) {
	p.write(errorObject{Error: errorBody{Kind: kind, Message: msg}})
}

func (p jsonPrinter) write(v any) { WriteJSONLine(p.out, v) }

// EncodeJSON returns v as one compact line of JSON, newline included. HTML
// characters stay as they are (<, >, &): the reader is a person, a program
// or jq, not a browser. No control character is left raw, C1 controls
// included (escapeControls).
func EncodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escapeControls(b.Bytes()), nil
}

// WriteJSONLine writes v to w as one compact line; a value that cannot be
// encoded becomes an error object, so that every line stays JSON.
func WriteJSONLine(w io.Writer, v any) {
	b, err := EncodeJSON(v)
	if err != nil {
		b, _ = EncodeJSON(errorObject{Error: errorBody{Kind: "internal", Message: "cannot encode output as JSON: " + err.Error()}})
	}
	_, _ = w.Write(b)
}
