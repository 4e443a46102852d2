// Package langchain adapts forge tools to github.com/tmc/langchaingo: a
// forge tool becomes a langchaingo tools.Tool that agents can call, and its
// definition an llms.Tool that function-calling models are given.
package langchain

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/tools"
	"github.com/tmc/langchaingo/llms"
)

// Tool is a forge tool seen through langchaingo's tools.Tool interface. Every
// call goes through the forge executor, so validation, timeouts, dry run and
// the execution history apply as for any other call.
type Tool struct {
	exec   *tools.Executor
	ec     tools.ExecutionContext
	d      tools.Descriptor
	single string // the parameter plain-text input fills, if the tool has one
}

// New returns the adapter for the named tool of exec's registry, calls
// running in ec. It fails with the registry's not-found error.
func New(exec *tools.Executor, name string, ec tools.ExecutionContext) (*Tool, error) {
	t, err := exec.Registry().GetOrError(name)
	if err != nil {
		return nil, err
	}
	return adapt(exec, t, ec), nil
}

// All returns adapters for every tool of exec's registry, sorted by name.
func All(exec *tools.Executor, ec tools.ExecutionContext) []*Tool {
	var out []*Tool
	for _, t := range exec.Registry().ListAll() {
		out = append(out, adapt(exec, t, ec))
	}
	return out
}

func adapt(exec *tools.Executor, t tools.Tool, ec tools.ExecutionContext) *Tool {
	d := tools.Describe(t)
	return &Tool{exec: exec, ec: ec, d: d, single: singleStringParam(d.Parameters)}
}

// Name returns the forge tool's name.
func (t *Tool) Name() string { return t.d.Name }

// Description returns the forge tool's description, unchanged.
func (t *Tool) Description() string { return t.d.Description }

// Call runs the tool. input is the JSON object of arguments; as langchaingo's
// text agents send plain text, a tool with exactly one string parameter also
// takes the text itself as that parameter's value.
//
// The answer is the result as a model reads it (Result.Display): a failed
// result comes back as "Error: ..." text with a nil error, so that the agent
// shows it to the model, which can correct its call, instead of aborting the
// run (langchaingo's executor stops on an error). Only a cancelled or expired
// context is returned as an error, because then the run must stop.
func (t *Tool) Call(ctx context.Context, input string) (string, error) {
	in := strings.TrimSpace(input)
	var r tools.Result
	if t.single != "" && !strings.HasPrefix(in, "{") {
		r = t.exec.Execute(ctx, t.d.Name, t.ec, tools.Args{t.single: input})
	} else {
		r = t.exec.ExecuteJSON(ctx, t.d.Name, t.ec, json.RawMessage(in))
	}
	if err := ctx.Err(); err != nil {
		return r.Display(), fmt.Errorf("tool %s: %w", t.d.Name, err)
	}
	return r.Display(), nil
}

// singleStringParam returns the name of the tool's only parameter when it is
// a string, else the name of its only required parameter when that is a
// string, else "".
func singleStringParam(params []tools.Parameter) string {
	if len(params) == 1 && params[0].Type == tools.TypeString {
		return params[0].Name
	}
	found := ""
	for _, p := range params {
		if p.Required {
			if found != "" || p.Type != tools.TypeString {
				return ""
			}
			found = p.Name
		}
	}
	return found
}

// Definition returns the tool's definition as langchaingo gives it to
// function-calling models. Parameters is a map[string]any because some
// langchaingo providers (googleai, vertex) accept nothing else; it holds the
// same schema as tools.ExportSchema(d, tools.FormatLangChain).
func Definition(d tools.Descriptor) llms.Tool {
	var params map[string]any
	// ParametersSchema is always a valid JSON object.
	_ = json.Unmarshal(tools.ParametersSchema(d.Parameters), &params)
	return llms.Tool{Type: "function", Function: &llms.FunctionDefinition{
		Name: d.Name, Description: d.Description, Parameters: params,
	}}
}

// Definitions returns the definitions of every tool of exec's registry,
// sorted by name.
func Definitions(exec *tools.Executor) []llms.Tool {
	var out []llms.Tool
	for _, t := range exec.Registry().ListAll() {
		out = append(out, Definition(tools.Describe(t)))
	}
	return out
}

// Definition returns this tool's llms.Tool definition.
func (t *Tool) Definition() llms.Tool { return Definition(t.d) }
