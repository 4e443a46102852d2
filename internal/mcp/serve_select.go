package mcp

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// AllTools, among ServeOptions.Tools, serves every tool.
const AllTools = "all"

// selectTools returns the descriptors to serve, sorted by name, or an error
// naming the unknown tools or category.
func selectTools(reg *tools.Registry, opts ServeOptions) ([]tools.Descriptor, error) {
	if opts.Category != "" && !opts.Category.Valid() {
		names := make([]string, 0, 7)
		for _, c := range tools.Categories() {
			names = append(names, string(c))
		}
		return nil, fmt.Errorf("Unknown category: %s (known: %s)", opts.Category, strings.Join(names, ", "))
	}
	var picked []tools.Tool
	switch {
	case slices.Contains(opts.Tools, AllTools):
		picked = reg.ListAll()
	case len(opts.Tools) > 0:
		var unknown []string
		for _, name := range opts.Tools {
			t, ok := reg.Get(name)
			if !ok {
				unknown = append(unknown, unknownTool(name, reg.ListNames()))
				continue
			}
			picked = append(picked, t)
		}
		switch len(unknown) {
		case 0:
		case 1:
			return nil, fmt.Errorf("Unknown tool: %s", unknown[0])
		default:
			return nil, fmt.Errorf("Unknown tools: %s", strings.Join(unknown, ", "))
		}
	default:
		for _, t := range reg.ListAll() {
			if tools.IsReadOnly(t) {
				picked = append(picked, t)
			}
		}
	}
	var out []tools.Descriptor
	for _, t := range picked {
		if opts.Category == "" || t.Category() == opts.Category {
			out = append(out, tools.Describe(t))
		}
	}
	slices.SortFunc(out, func(a, b tools.Descriptor) int { return strings.Compare(a.Name, b.Name) })
	return slices.CompactFunc(out, func(a, b tools.Descriptor) bool { return a.Name == b.Name }), nil
}

// unknownTool is name with the closest known name, if one is close.
func unknownTool(name string, known []string) string {
	if s := tools.Suggest(name, known, 1); len(s) > 0 {
		return fmt.Sprintf("%s (did you mean %s?)", name, s[0])
	}
	return name
}

// announce writes the one line that says which tools are served (and
// where, when not on standard input and output) to opts.Log.
func announce(opts ServeOptions, descs []tools.Descriptor, where string) {
	var b strings.Builder
	b.WriteString("forge mcp serve: serving ")
	kind := ""
	if len(opts.Tools) == 0 {
		kind = "read-only "
	}
	switch len(descs) {
	case 0:
		b.WriteString("no " + kind + "tools")
	case 1:
		b.WriteString("1 " + kind + "tool")
	default:
		fmt.Fprintf(&b, "%d %stools", len(descs), kind)
	}
	if where != "" {
		b.WriteString(" " + where)
	}
	if opts.DryRun {
		b.WriteString(" in dry-run mode")
	}
	if len(descs) > 0 {
		names := make([]string, len(descs))
		for i, d := range descs {
			names[i] = d.Name
		}
		b.WriteString(": " + strings.Join(names, ", "))
	}
	if len(opts.Tools) == 0 {
		b.WriteString(" (choose others with --tools NAME,... or --tools all)")
	}
	b.WriteByte('\n')
	_, _ = io.WriteString(logWriter(opts), b.String())
}
