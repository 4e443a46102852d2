package repl

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

func cmdTools(_ context.Context, s *Shell, rest string) int {
	fs := newFlags("/tools")
	cat := fs.String("category", "", "")
	names, code, ok := s.parseFlags("/tools", fs, rest)
	if !ok {
		return code
	}
	if len(names) > 1 {
		return s.usage("/tools", "too many arguments")
	}
	name := ""
	if len(names) == 1 {
		name = names[0]
	}
	return s.showTools(*cat, name)
}

// showTools lists the tools (of one category when cat is set) or, with a
// name, shows one tool's details.
func (s *Shell) showTools(cat, name string) int {
	if name != "" {
		t, ok := s.app.reg.Get(name)
		if !ok {
			return s.toolNotFound(name)
		}
		d := tools.Describe(t)
		if s.jsonMode() {
			writeJSONLine(s.out, map[string]any{"tools": []toolJSON{newToolJSON(d)}})
			return ExitOK
		}
		s.print(s.r.ToolDetails(d))
		return ExitOK
	}
	ts := s.app.reg.ListAll()
	if cat != "" {
		c, err := parseCategory(cat)
		if err != nil {
			return s.fail(ExitUsage, "usage", err.Error())
		}
		ts = s.app.reg.ListByCategory(c)
	}
	ds := make([]tools.Descriptor, len(ts))
	for i, t := range ts {
		ds[i] = tools.Describe(t)
	}
	if s.jsonMode() {
		out := make([]toolJSON, len(ds))
		for i, d := range ds {
			out[i] = newToolJSON(d)
		}
		writeJSONLine(s.out, map[string]any{"tools": out})
		return ExitOK
	}
	s.print(s.r.ToolList(ds))
	return ExitOK
}

// toolNotFound shows the Tool Not Found panel with up to three suggestions.
func (s *Shell) toolNotFound(name string) int {
	sugg := tools.Suggest(name, s.app.reg.ListNames(), 3)
	if s.jsonMode() {
		o := errorJSON("unknown_tool", "Unknown tool: "+name)
		o.Error.Suggestions = sugg
		writeJSONLine(s.out, o)
		return ExitUsage
	}
	s.print(s.r.ToolNotFound(name, sugg))
	return ExitUsage
}

// parseCategory accepts a category name in any case.
func parseCategory(s string) (tools.Category, error) {
	c := tools.Category(strings.ToLower(s))
	if c.Valid() {
		return c, nil
	}
	return "", fmt.Errorf("Unknown category: %s (known: %s)", s, strings.Join(categoryNames(), ", "))
}

func categoryNames() []string {
	var out []string
	for _, c := range tools.Categories() {
		out = append(out, string(c))
	}
	return out
}

func formatNames() []string {
	var out []string
	for _, f := range tools.Formats() {
		out = append(out, string(f))
	}
	return out
}

func cmdRun(ctx context.Context, s *Shell, rest string) int {
	name, args := cutWord(rest)
	if name == "" {
		return s.usage("/run", "missing tool name")
	}
	return s.runTool(ctx, name, args)
}

func cmdSchema(_ context.Context, s *Shell, rest string) int {
	fs := newFlags("/schema")
	format := fs.StringP("format", "f", string(tools.FormatOpenAI), "")
	cat := fs.String("category", "", "")
	names, code, ok := s.parseFlags("/schema", fs, rest)
	if !ok {
		return code
	}
	return s.showSchemas(names, *format, *cat)
}

// showSchemas prints schemas: indented JSON for people and for pasting (an
// object for one tool, an array otherwise), or {"format","schemas"} with -o
// json.
func (s *Shell) showSchemas(names []string, format, cat string) int {
	f, err := tools.ParseFormat(format)
	if err != nil {
		return s.fail(ExitUsage, "usage", err.Error())
	}
	var schemas []json.RawMessage
	switch {
	case len(names) > 0 && cat != "":
		return s.fail(ExitUsage, "usage", "give tool names or --category, not both")
	case len(names) > 0:
		for _, n := range names {
			t, ok := s.app.reg.Get(n)
			if !ok {
				return s.toolNotFound(n)
			}
			sc, err := tools.ExportSchema(tools.Describe(t), f)
			if err != nil {
				return s.fail(ExitFailed, "schema", err.Error())
			}
			schemas = append(schemas, sc)
		}
	case cat != "":
		c, err := parseCategory(cat)
		if err != nil {
			return s.fail(ExitUsage, "usage", err.Error())
		}
		if schemas, err = s.app.exec.SchemasByCategory(c, f); err != nil {
			return s.fail(ExitFailed, "schema", err.Error())
		}
	default:
		if schemas, err = s.app.exec.Schemas(f); err != nil {
			return s.fail(ExitFailed, "schema", err.Error())
		}
	}
	if schemas == nil {
		schemas = []json.RawMessage{}
	}
	if s.jsonMode() {
		writeJSONLine(s.out, map[string]any{"format": f, "schemas": schemas})
		return ExitOK
	}
	var v any = schemas
	if len(names) == 1 {
		v = schemas[0]
	}
	b, err := indentJSON(v)
	if err != nil {
		return s.fail(ExitFailed, "schema", err.Error())
	}
	_, _ = s.out.Write(b)
	return ExitOK
}
