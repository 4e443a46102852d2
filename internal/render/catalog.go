package render

import (
	"slices"
	"strconv"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// ToolList draws the "Available Tools (N)" panel: the tools
// grouped by category in tools.Categories() order (categories outside it
// follow, sorted), empty categories left out, each under a heading
// "FILE (5)"; within a category the tools keep the order of ds. Each row is
// the name, padded to the longest name plus one, and the first sentence of
// the description, wrapped under itself.
func (r *Renderer) ToolList(ds []tools.Descriptor) string {
	p := r.newPanel()
	p.title("Available Tools (" + strconv.Itoa(len(ds)) + ")")
	p.section()
	p.blank()
	if len(ds) == 0 {
		p.text("No tools registered.", &r.st.hint, 0)
		p.blank()
		return p.String()
	}
	groups := make(map[tools.Category][]tools.Descriptor)
	col := 0
	for _, d := range ds {
		groups[d.Category] = append(groups[d.Category], d)
		col = max(col, textWidth(sanitizeLines(d.Name)[0]))
	}
	// The name column is as wide as the longest name plus one, but at most a
	// third of the panel: a longer name gets a row of its own.
	col = min(col+1, max(r.inner/3, 8))
	for _, c := range categoryOrder(groups) {
		list := groups[c]
		p.text(categoryLabel(c)+" ("+strconv.Itoa(len(list))+")", &r.st.heading, 0)
		for _, d := range list {
			name := sanitizeLines(d.Name)[0]
			summary := firstSentence(d.Description)
			if nw := textWidth(name); nw < col {
				p.labeled(2, name+spaces(col-nw), &r.st.name, summary, nil)
				continue
			}
			p.text(name, &r.st.name, 2)
			if summary != "" {
				p.text(summary, nil, 2+col)
			}
		}
		p.blank()
	}
	return p.String()
}

// categoryOrder lists the categories present in groups: the known ones in
// display order, then any others sorted.
func categoryOrder(groups map[tools.Category][]tools.Descriptor) []tools.Category {
	var out []tools.Category
	for _, c := range tools.Categories() {
		if len(groups[c]) > 0 {
			out = append(out, c)
		}
	}
	return append(out, unknownCategories(groups)...)
}

// unknownCategories lists, sorted, the keys of m that are not among
// tools.Categories(): they follow the known ones in every panel.
func unknownCategories[V any](m map[tools.Category]V) []tools.Category {
	var extra []tools.Category
	for c := range m {
		if !c.Valid() {
			extra = append(extra, c)
		}
	}
	slices.Sort(extra)
	return extra
}

// categoryLabel writes a category as the panels do: FILE, EXECUTION.
func categoryLabel(c tools.Category) string {
	if c == "" {
		return "(NONE)"
	}
	return strings.ToUpper(string(c))
}

// firstSentence is the summary of a description for the tool list: its
// first line, cut after the first sentence, without the final period.
func firstSentence(desc string) string {
	desc = strings.TrimSpace(desc)
	if i := strings.IndexByte(desc, '\n'); i >= 0 {
		desc = strings.TrimSpace(desc[:i])
	}
	if i := strings.Index(desc, ". "); i >= 0 {
		desc = desc[:i]
	}
	return strings.TrimSuffix(desc, ".")
}

// ToolDetails draws the "Tool Details" panel of one tool: Tool,
// Category, the description wrapped, and each parameter with its type,
// "[required]" or "[optional, default: X]", its description, its
// constraints, and the items and properties of arrays and objects indented
// beneath it.
func (r *Renderer) ToolDetails(d tools.Descriptor) string {
	p := r.newPanel()
	p.field(0, "Tool: ", d.Name, &r.st.title)
	p.field(0, "Category: ", categoryLabel(d.Category), nil)
	if d.LoopBreaking {
		p.field(0, "Ends the agent loop: ", "yes", nil)
	}
	p.section()
	p.text("Description:", &r.st.label, 0)
	if strings.TrimSpace(d.Description) == "" {
		p.text("(none)", &r.st.hint, 0)
	} else {
		p.text(strings.TrimSpace(d.Description), nil, 0)
	}
	p.section()
	p.text("Parameters:", &r.st.label, 0)
	p.blank()
	if len(d.Parameters) == 0 {
		p.text("This tool takes no parameters.", &r.st.hint, 2)
		p.blank()
	}
	for _, q := range d.Parameters {
		r.parameter(p, q, 2, 0)
		p.blank()
	}
	return p.String()
}

// maxParamDepth bounds how deep ToolDetails follows items and properties: a
// descriptor whose Items point back at themselves must not recurse forever.
const maxParamDepth = 8

// parameter adds one parameter's block at indent, and those of its items and
// properties below it, further indented.
func (r *Renderer) parameter(p *panel, q tools.Parameter, indent, depth int) {
	head := " (" + typeName(q) + ") " + requirement(q)
	if q.Name == "" {
		head = head[1:]
	}
	p.flow(indent, q.Name, &r.st.name, head, nil, indent+4)
	r.parameterBody(p, q, indent+2, depth)
}

// parameterBody adds the description, constraints, items and properties of
// q at indent.
func (r *Renderer) parameterBody(p *panel, q tools.Parameter, indent, depth int) {
	if depth >= maxParamDepth {
		p.text("…", &r.st.hint, indent)
		return
	}
	if desc := strings.TrimSpace(q.Description); desc != "" {
		p.text(desc, nil, indent)
	}
	if c := constraints(q, true); c != "" {
		p.field(indent, "Constraints: ", c, nil)
	}
	if q.Items != nil {
		p.text("Items ("+typeName(*q.Items)+"):", &r.st.label, indent)
		r.parameterBody(p, *q.Items, indent+2, depth+1)
	}
	if len(q.Properties) > 0 {
		p.text("Properties:", &r.st.label, indent)
		for _, sub := range q.Properties {
			r.parameter(p, sub, indent+2, depth+1)
		}
	}
}

// requirement is "[required]", "[optional, default: 0]" or "[optional]".
func requirement(q tools.Parameter) string {
	switch {
	case q.Required:
		return "[required]"
	case q.Default != nil:
		return "[optional, default: " + compactJSON(q.Default) + "]"
	}
	return "[optional]"
}
