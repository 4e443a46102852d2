package render

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/forgehq/forge/internal/tools"
)

// status returns the glyph and word of a result's state, and its style.
func (r *Renderer) status(res tools.Result) (glyph, word string, st *lipgloss.Style) {
	switch effectiveStatus(res) {
	case tools.StatusSuccess:
		return "✓", "Success", &r.st.success
	case tools.StatusDryRun:
		return "◐", "Dry Run", &r.st.warning
	case tools.StatusTimedOut:
		return "⏱", "Timed Out", &r.st.warning
	case tools.StatusCancelled:
		return "⊘", "Cancelled", &r.st.warning
	}
	return "✗", "Failed", &r.st.failure
}

// effectiveStatus is res.Status, or success/failed from res.Success when the
// status was left empty (a result built by hand).
func effectiveStatus(res tools.Result) tools.Status {
	switch res.Status {
	case tools.StatusSuccess, tools.StatusFailed, tools.StatusDryRun, tools.StatusTimedOut, tools.StatusCancelled:
		return res.Status
	}
	if res.Success {
		return tools.StatusSuccess
	}
	return tools.StatusFailed
}

// Result draws the panel of one call's result (seed 002 section 3): Tool and
// Status; then the output (success), the dry-run description, or the error
// with the command that ran (failed, timed out, cancelled: the Bash
// "command" argument of params, when present) and any output the failed call
// produced; then the duration.
func (r *Renderer) Result(tool string, res tools.Result, params tools.Args) string {
	p := r.newPanel()
	glyph, word, st := r.status(res)
	p.field(0, "Tool: ", tool, &r.st.title)
	p.field(0, "Status: ", glyph+" "+word, st)
	p.section()
	out := outputText(res.Output)
	switch effectiveStatus(res) {
	case tools.StatusSuccess:
		p.text("Output:", &r.st.label, 0)
		r.output(p, out)
	case tools.StatusDryRun:
		r.output(p, out)
	default:
		msg := res.Error
		if msg == "" {
			msg = "(no message)"
		}
		p.field(0, "Error: ", msg, nil)
		if cmd, ok := params["command"].(string); ok && cmd != "" {
			p.field(0, "Command: ", cmd, nil)
		}
		if out != "" {
			p.blank()
			p.text("Output:", &r.st.label, 0)
			r.output(p, out)
		}
	}
	p.section()
	p.field(0, "Duration: ", formatDuration(res.DurationMS), nil)
	return p.String()
}

// output adds a tool's output, or a dim "(no output)".
func (r *Renderer) output(p *panel, out string) {
	if out == "" {
		p.text("(no output)", &r.st.hint, 0)
		return
	}
	p.text(strings.TrimSuffix(out, "\n"), nil, 0)
}

// ExecutionFailed draws the "Error: Tool Execution Failed" panel (seed 002
// section 9) for a failed command: Tool, Command, Error, any output, the exit
// code from res.Metadata["exit_code"], and a hint chosen from the error and
// the exit code.
func (r *Renderer) ExecutionFailed(tool string, res tools.Result, params tools.Args) string {
	p := r.newPanel()
	p.title("Error: Tool Execution Failed")
	p.section()
	p.field(0, "Tool: ", tool, &r.st.title)
	if cmd, ok := params["command"].(string); ok && cmd != "" {
		p.field(0, "Command: ", cmd, nil)
	}
	code, hasCode := exitCode(res.Metadata)
	// Bash ends its error with the exit-code sentence for the model's sake;
	// the panel has a line of its own for it.
	msg := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(res.Error), "The command failed with exit code "+code+"."))
	if msg != "" {
		p.blank()
		p.field(0, "Error: ", msg, &r.st.failure)
	}
	if out := outputText(res.Output); out != "" {
		p.blank()
		p.text("Output:", &r.st.label, 0)
		r.output(p, out)
	}
	p.blank()
	if hasCode {
		p.text("The command failed with exit code "+code+".", nil, 0)
	} else {
		p.text("The command failed.", nil, 0)
	}
	p.text(executionHint(res.Error, code), &r.st.hint, 0)
	return p.String()
}

// exitCode reads metadata["exit_code"] whatever numeric type carries it.
func exitCode(md map[string]any) (string, bool) {
	v, ok := md["exit_code"]
	if !ok || v == nil {
		return "", false
	}
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return formatFloat(x), true
	case json.Number:
		return string(x), true
	case string:
		return x, true
	}
	return compactJSON(v), true
}

// executionHint suggests what to do about a failed command.
func executionHint(msg, code string) string {
	low := strings.ToLower(msg)
	switch {
	case strings.Contains(low, "permission") || strings.Contains(low, "not permitted") || code == "126":
		return "Check permissions and try again."
	case strings.Contains(low, "not found") || strings.Contains(low, "no such file") || code == "127":
		return "Check that the command and the files it names exist, then try again."
	case code == "130" || code == "137" || code == "143":
		return "The command was stopped by a signal."
	}
	return "Check the command and its output, then try again."
}
