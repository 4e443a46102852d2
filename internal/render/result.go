package render

import (
	"fmt"
	"strings"
	"unicode/utf8"

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

// Result draws the panel of one call's result: Tool and Status; then the
// output (success), the dry-run description, or the error with the details
// the tool presents (Bash's command) and any output the failed call
// produced; then the duration.
func (r *Renderer) Result(tool string, res tools.Result, pres tools.Presentation) string {
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
		r.details(p, pres.Details)
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

// details adds the labelled values a tool presents with its result.
func (r *Renderer) details(p *panel, ds []tools.Detail) {
	for _, d := range ds {
		if d.Value != "" {
			p.field(0, d.Label+": ", shortDetail(d.Value), nil)
		}
	}
}

// maxDetail bounds a detail in a panel: a detail names what failed (a
// command), and a 200 KB command would bury the error under it.
const maxDetail = 2000

// shortDetail is v, cut at maxDetail bytes on a character boundary with a
// note of how much was left out.
func shortDetail(v string) string {
	if len(v) <= maxDetail {
		return v
	}
	cut := maxDetail
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return v[:cut] + fmt.Sprintf("… (%d more bytes)", len(v)-cut)
}

// output adds a tool's output, or a dim "(no output)".
func (r *Renderer) output(p *panel, out string) {
	if out == "" {
		p.text("(no output)", &r.st.hint, 0)
		return
	}
	p.text(strings.TrimSuffix(out, "\n"), nil, 0)
}

// ExecutionFailed draws the "Error: Tool Execution Failed" panel for a call
// whose tool presents it as a failed execution (pres.Failure): Tool, the
// tool's details (Bash's command), the error, any output, the outcome and a
// hint.
func (r *Renderer) ExecutionFailed(tool string, res tools.Result, pres tools.Presentation) string {
	f := pres.Failure
	if f == nil {
		f = &tools.Failure{Error: res.Error}
	}
	p := r.newPanel()
	p.title("Error: Tool Execution Failed")
	p.section()
	p.field(0, "Tool: ", tool, &r.st.title)
	r.details(p, pres.Details)
	if f.Error != "" {
		p.blank()
		p.field(0, "Error: ", f.Error, &r.st.failure)
	}
	if out := outputText(res.Output); out != "" {
		p.blank()
		p.text("Output:", &r.st.label, 0)
		r.output(p, out)
	}
	p.blank()
	summary := f.Summary
	if summary == "" {
		summary = "The command failed."
	}
	p.text(summary, nil, 0)
	if f.Hint != "" {
		p.text(f.Hint, &r.st.hint, 0)
	}
	return p.String()
}
