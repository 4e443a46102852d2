package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
)

// A server may ask the person for input in the middle of a call
// (elicitation/create). The question goes to whoever can answer the call
// that is running: the Asker of its execution context. With none (a
// headless run, or no call of that server running) the request is
// declined, so the server goes on without.

// maxTries is how many times a field is asked for before the whole
// request is cancelled.
const maxTries = 3

// askers are the Askers of the calls running on one server, the latest
// last: a question goes to the person who started the latest call.
type askers struct {
	mu   sync.Mutex
	list []*tools.Asker
}

// push adds a call's Asker and returns the function that removes it.
func (a *askers) push(asker tools.Asker) func() {
	if asker == nil {
		return func() {}
	}
	p := &asker
	a.mu.Lock()
	a.list = append(a.list, p)
	a.mu.Unlock()
	return func() {
		a.mu.Lock()
		a.list = slices.DeleteFunc(a.list, func(x *tools.Asker) bool { return x == p })
		a.mu.Unlock()
	}
}

func (a *askers) current() tools.Asker {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.list) == 0 {
		return nil
	}
	return *a.list[len(a.list)-1]
}

// declined is the answer when nobody can answer.
var declined = &mcp.ElicitResult{Action: "decline"}

// elicit answers one elicitation request of server through asker: the
// message, whether to answer, then each field of the requested schema,
// checked as the schema says (type, enum, bounds, length) and asked again
// when wrong.
func elicit(ctx context.Context, asker tools.Asker, server string, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if asker == nil || p == nil || (p.Mode != "" && p.Mode != "form") {
		return declined, nil
	}
	fields, err := formFields(p.RequestedSchema)
	if err != nil {
		return declined, nil
	}
	q := fmt.Sprintf("MCP server %s asks: %s\nAnswer? [y]es, [n]o (decline), [c]ancel: ", server, oneLine(p.Message))
	ans, err := asker.Ask(ctx, q)
	if err != nil {
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	switch strings.ToLower(strings.TrimSpace(ans)) {
	case "y", "yes":
	case "c", "cancel":
		return &mcp.ElicitResult{Action: "cancel"}, nil
	default:
		return declined, nil
	}
	content := map[string]any{}
	for _, f := range fields {
		v, ok, err := askField(ctx, asker, f)
		if err != nil {
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}
		if ok {
			content[f.name] = v
		}
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

// field is one property of a requested schema: a flat object of strings,
// numbers, integers, booleans and enums.
type field struct {
	name, title, desc, typ string
	required               bool
	enum                   []string
	def                    any
	min, max               *float64
	minLen, maxLen         *int
}

// formFields reads a requested schema's properties, required ones first,
// each group by name.
func formFields(schema any) ([]field, error) {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	var s struct {
		Properties map[string]struct {
			Type        string                   `json:"type"`
			Title       string                   `json:"title"`
			Description string                   `json:"description"`
			Enum        []string                 `json:"enum"`
			OneOf       []struct{ Const string } `json:"oneOf"`
			Default     any                      `json:"default"`
			Minimum     *float64                 `json:"minimum"`
			Maximum     *float64                 `json:"maximum"`
			MinLength   *int                     `json:"minLength"`
			MaxLength   *int                     `json:"maxLength"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	var out []field
	for name, p := range s.Properties {
		f := field{name: name, title: p.Title, desc: p.Description, typ: p.Type, required: slices.Contains(s.Required, name),
			enum: p.Enum, def: p.Default, min: p.Minimum, max: p.Maximum, minLen: p.MinLength, maxLen: p.MaxLength}
		for _, o := range p.OneOf {
			f.enum = append(f.enum, o.Const)
		}
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b field) int {
		if a.required != b.required {
			if a.required {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	return out, nil
}

// askField asks for one field until its answer is valid; ok is false for
// an optional field left empty.
func askField(ctx context.Context, asker tools.Asker, f field) (v any, ok bool, err error) {
	q := "  " + fieldQuestion(f)
	for range maxTries {
		ans, err := asker.Ask(ctx, q)
		if err != nil {
			return nil, false, err
		}
		ans = strings.TrimSpace(ans)
		if ans == "" {
			if f.def != nil {
				return f.def, true, nil
			}
			if !f.required {
				return nil, false, nil
			}
			q = "  required; " + fieldQuestion(f)
			continue
		}
		v, msg := parseField(f, ans)
		if msg == "" {
			return v, true, nil
		}
		q = "  " + msg + "; " + fieldQuestion(f)
	}
	return nil, false, fmt.Errorf("no valid answer for %s", f.name)
}

// fieldQuestion is the prompt for f: its title, description, choices and
// default; a question after a wrong answer starts with what was wrong.
func fieldQuestion(f field) string {
	var b strings.Builder
	if f.title != "" {
		b.WriteString(oneLine(f.title))
	} else {
		b.WriteString(f.name)
	}
	if f.desc != "" {
		b.WriteString(" (" + oneLine(f.desc) + ")")
	}
	switch {
	case len(f.enum) > 0:
		b.WriteString(" [" + strings.Join(f.enum, "/") + "]")
	case f.typ == "boolean":
		b.WriteString(" [y/n]")
	}
	if f.def != nil {
		b.WriteString(" default " + jsonText(f.def))
	}
	if !f.required {
		b.WriteString(", optional")
	}
	b.WriteString(": ")
	return b.String()
}

// parseField turns an answer into f's type, or says what is wrong.
func parseField(f field, ans string) (any, string) {
	if len(f.enum) > 0 {
		if slices.Contains(f.enum, ans) {
			return ans, ""
		}
		return nil, "one of " + strings.Join(f.enum, ", ")
	}
	switch f.typ {
	case "boolean":
		switch strings.ToLower(ans) {
		case "y", "yes", "true":
			return true, ""
		case "n", "no", "false":
			return false, ""
		}
		return nil, "yes or no"
	case "integer", "number":
		n, err := strconv.ParseFloat(ans, 64)
		switch {
		case f.typ == "integer" && (err != nil || n != math.Trunc(n)):
			return nil, "a whole number"
		case err != nil:
			return nil, "a number"
		}
		if f.min != nil && n < *f.min {
			return nil, "at least " + strconv.FormatFloat(*f.min, 'g', -1, 64)
		}
		if f.max != nil && n > *f.max {
			return nil, "at most " + strconv.FormatFloat(*f.max, 'g', -1, 64)
		}
		if f.typ == "integer" {
			return int64(n), ""
		}
		return n, ""
	}
	n := len([]rune(ans))
	if f.minLen != nil && n < *f.minLen {
		return nil, fmt.Sprintf("at least %d characters", *f.minLen)
	}
	if f.maxLen != nil && n > *f.maxLen {
		return nil, fmt.Sprintf("at most %d characters", *f.maxLen)
	}
	return ans, ""
}

// oneLine is s with its line breaks as spaces: a server's text must not
// lay out the question.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
