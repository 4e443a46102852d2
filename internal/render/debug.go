package render

import (
	"strconv"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// Registry draws the "Tool Registry State" panel: the instance's
// identity, the number of tools, every category with its count (categories
// outside tools.Categories() follow, sorted), and the names of the tools,
// comma-separated and wrapped.
func (r *Renderer) Registry(s tools.Stats) string {
	p := r.newPanel()
	p.title("Tool Registry State")
	p.section()
	id := s.ID
	if id == "" {
		id = "(none)"
	}
	p.field(0, "Instance ID: ", id, nil)
	p.field(0, "Total Tools: ", strconv.Itoa(s.Total), nil)
	p.blank()
	p.text("By Category:", &r.st.label, 0)
	cats := append(tools.Categories(), unknownCategories(s.ByCategory)...)
	col := 0
	for _, c := range cats {
		col = max(col, textWidth(sanitizeLines(categoryLabel(c))[0])+len(":"))
	}
	col += 2 // two spaces after the longest label, where the counts line up: "EXECUTION:  3 tools"
	for _, c := range cats {
		label := sanitizeLines(categoryLabel(c))[0] + ":"
		p.field(2, label+spaces(col-textWidth(label)), plural(s.ByCategory[c], "tool"), nil)
	}
	p.blank()
	p.text("Registered Tools:", &r.st.label, 0)
	if len(s.Names) == 0 {
		p.text("(none)", &r.st.hint, 2)
	} else {
		p.text(strings.Join(s.Names, ", "), nil, 2)
	}
	return p.String()
}

// History draws the "Tool Execution History" panel. total counts
// every execution, including those the bounded history has dropped; xs are
// the ones to show, oldest first. Each entry: "#seq  [time]", Tool, Params
// (compact JSON, shortened with "...}" to fit one row), Status, Error for a
// failed call, and Duration.
func (r *Renderer) History(total int64, xs []tools.Execution) string {
	p := r.newPanel()
	p.title("Tool Execution History")
	p.section()
	p.field(0, "Total Executions: ", strconv.FormatInt(total, 10), nil)
	p.blank()
	switch {
	case len(xs) == 0 && total == 0:
		p.text("No executions yet.", &r.st.hint, 0)
		return p.String()
	case len(xs) == 0:
		p.text("No executions to show.", &r.st.hint, 0)
		return p.String()
	case int64(len(xs)) < total:
		p.text("Showing "+plural(len(xs), "execution")+" of "+strconv.FormatInt(total, 10)+".", &r.st.hint, 0)
		p.blank()
	}
	seqW := 3 // "#1" and two spaces before the time; a longer number widens every row
	for _, x := range xs {
		seqW = max(seqW, len(strconv.FormatInt(x.Seq, 10))+1)
	}
	for _, x := range xs {
		head := "#" + strconv.FormatInt(x.Seq, 10)
		head += spaces(seqW + 1 - len(head))
		if !x.StartedAt.IsZero() {
			head += "[" + x.StartedAt.Format("2006-01-02 15:04:05") + "]"
		}
		p.text(strings.TrimRight(head, " "), &r.st.title, 0)
		p.field(4, "Tool: ", x.ToolName, nil)
		r.params(p, x)
		_, word, st := r.status(x.Result)
		p.field(4, "Status: ", word, st)
		if effectiveStatus(x.Result) == tools.StatusFailed && x.Result.Error != "" {
			p.field(4, "Error: ", x.Result.Error, nil)
		}
		ms := x.DurationMS
		if ms == 0 {
			ms = x.Result.DurationMS
		}
		p.field(4, "Duration: ", formatDuration(ms), nil)
		p.blank()
	}
	return p.String()
}

// params adds an execution's parameters as one row of compact JSON; when
// they do not fit, whole entries are dropped from the end and "...}" closes
// the object: {"command": "sleep 300", ...}.
func (r *Renderer) params(p *panel, x tools.Execution) {
	const label = "Params: "
	avail := r.inner - 4 - len(label)
	if p.fitIndent(4, len(label)) < 4+len(label) {
		// Too narrow for a one-row summary: wrap it instead.
		p.field(4, label, compactJSON(map[string]any(x.Parameters)), nil)
		return
	}
	var order []string
	if r.order != nil {
		order = r.order(x.ToolName)
	}
	m := map[string]any(x.Parameters)
	full := sanitizeLines(compactJSONOrdered(m, order))[0]
	if textWidth(full) <= avail {
		p.field(4, label, full, nil)
		return
	}
	const more = "...}"
	var b strings.Builder
	b.WriteByte('{')
	n := 0
	for _, k := range objectKeys(m, order) {
		var e strings.Builder
		e.WriteString(quoteJSON(k))
		e.WriteString(": ")
		writeCompact(&e, m[k], 1)
		entry := sanitizeLines(e.String())[0]
		sep := ""
		if n > 0 {
			sep = ", "
		}
		// The entry must leave room for ", ...}" after it.
		if textWidth(b.String())+len(sep)+textWidth(entry)+len(", "+more) > avail {
			if n == 0 {
				// Not even the first entry fits: cut it.
				room := avail - 1 - len(more)
				b.WriteString(fitWidth(entry, room))
			} else {
				b.WriteString(", ")
			}
			break
		}
		b.WriteString(sep)
		b.WriteString(entry)
		n++
	}
	b.WriteString(more)
	p.field(4, label, b.String(), nil)
}

// compactJSONOrdered is compactJSON of an object with the keys in order
// first.
func compactJSONOrdered(m map[string]any, order []string) string {
	var b strings.Builder
	writeObject(&b, m, order, 0)
	return b.String()
}

// Context draws the "Execution Context" panel: working directory,
// session and agent, dry run, timeout, output cap, and the metadata with
// sorted keys; "(none)" where a value is empty. A zero timeout or output cap
// shows the default the executor applies.
func (r *Renderer) Context(ec tools.ExecutionContext) string {
	p := r.newPanel()
	p.title("Execution Context")
	p.section()
	orNone := func(s string) string {
		if s == "" {
			return "(none)"
		}
		return s
	}
	timeout := ec.Timeout
	if timeout <= 0 {
		timeout = tools.DefaultTimeout
	}
	maxOut := ec.MaxOutputSize
	if maxOut <= 0 {
		maxOut = tools.DefaultMaxOutputSize
	}
	rows := [][2]string{
		{"Working Directory:", orNone(ec.WorkingDir)},
		{"Session ID:", orNone(ec.SessionID)},
		{"Agent ID:", orNone(ec.AgentID)},
		{"Dry Run:", strconv.FormatBool(ec.DryRun)},
		{"Timeout:", formatSeconds(timeout)},
		{"Max Output Size:", formatCount(maxOut) + " bytes"},
	}
	if len(ec.AllowedRoots) > 0 {
		rows = append(rows, [2]string{"Allowed Roots:", strings.Join(ec.AllowedRoots, ", ")})
	}
	for _, row := range rows {
		p.field(0, row[0]+spaces(len("Working Directory: ")-len(row[0])), row[1], nil)
	}
	p.blank()
	p.text("Metadata:", &r.st.label, 0)
	if len(ec.Metadata) == 0 {
		p.text("(none)", &r.st.hint, 2)
	}
	for _, k := range objectKeys(ec.Metadata, nil) {
		p.field(2, sanitizeLines(k)[0]+": ", formatValue(ec.Metadata[k]), nil)
	}
	return p.String()
}
