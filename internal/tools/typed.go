package tools

import (
	"context"
	"fmt"
	"reflect"
)

// TypedFunc is the body of a typed tool: it receives the arguments decoded
// into its own struct. A returned error becomes a failed Result whose message
// is the error's text; it never aborts the caller.
type TypedFunc[In any] func(ctx context.Context, ec ExecutionContext, in In) (Result, error)

// TypedOption configures a typed tool.
type TypedOption func(*typedConfig)

type typedConfig struct {
	loopBreaking bool
	dryRun       func(ExecutionContext, any) string
	dryRunType   reflect.Type
}

// LoopBreaking marks the tool as one after which an agent loop stops
// (seed 004: task_completion, ask_question).
func LoopBreaking() TypedOption {
	return func(c *typedConfig) { c.loopBreaking = true }
}

// WithDryRun lets the tool say what it would do in a dry run ("Would write 150
// bytes to /path"); the executor prefixes "[Dry Run] ". In must be the tool's
// own argument type (NewTyped refuses another).
func WithDryRun[In any](describe func(ec ExecutionContext, in In) string) TypedOption {
	return func(c *typedConfig) {
		c.dryRunType = reflect.TypeFor[In]()
		c.dryRun = func(ec ExecutionContext, in any) string { return describe(ec, in.(In)) }
	}
}

// NewTyped defines a tool from a Go function over a struct of arguments, so
// that its author writes no map lookups. The parameters are derived from In's
// exported fields:
//
//	type ReadArgs struct {
//		FilePath string `json:"file_path" desc:"Absolute path to the file to read"`
//		Offset   int    `json:"offset,omitempty" desc:"Line to start from" min:"0"`
//		Limit    int    `json:"limit" desc:"Lines to read" default:"2000" min:"1" max:"10000"`
//		Format   string `json:"format" default:"text" enum:"text,json"`
//	}
//
// The name is the json tag's (the field name without one; "-" skips the
// field); the description comes from `desc`, `description` or `jsonschema`;
// `default`, `enum` (comma-separated), `min` and `max` (or `minimum` and
// `maximum`: finite numbers, for numeric fields and slices of them),
// `minLength` and `maxLength` (or `minItems` and `maxItems`: for strings and
// slices) set the constraints; a tag that cannot apply to its field, or two
// synonyms at once, is an error. A field is required unless it is a pointer,
// has omitempty or has a default. Strings, booleans, integers (small integer
// kinds get their range as minimum and maximum, which tags may narrow but not
// widen), floats, slices (array with items), structs (object with
// properties, embedded structs flattened) and maps with string keys
// (free-form object) are supported; anything else is an error.
//
// The executor validates the arguments against these parameters, applies
// the defaults, and the tool decodes them into In directly (no JSON round
// trip) before calling fn.
func NewTyped[In any](name, description string, category Category, fn TypedFunc[In], opts ...TypedOption) (Tool, error) {
	var cfg typedConfig
	for _, o := range opts {
		o(&cfg)
	}
	in := reflect.TypeFor[In]()
	if fn == nil {
		return nil, &ToolError{ToolName: name, Message: "no function given", Err: ErrInvalidTool}
	}
	if cfg.dryRun != nil && cfg.dryRunType != in {
		return nil, &ToolError{ToolName: name, Message: fmt.Sprintf("WithDryRun takes %s, the tool's arguments are %s", cfg.dryRunType, in), Err: ErrInvalidTool}
	}
	d := newDeriver()
	params, err := d.structParams(in)
	if err != nil {
		return nil, &ToolError{ToolName: name, Message: "arguments " + in.String() + ": " + err.Error(), Err: ErrInvalidTool}
	}
	t := &typedTool[In]{
		d:     Descriptor{Name: name, Description: description, Category: category, Parameters: params, LoopBreaking: cfg.loopBreaking},
		fn:    fn,
		plans: d.plans,
	}
	if err := CheckTool(t.d); err != nil {
		return nil, err
	}
	if cfg.dryRun != nil {
		return &typedDryRunTool[In]{typedTool: t, describe: cfg.dryRun}, nil
	}
	return t, nil
}

// MustTyped is NewTyped for tools defined at package level: it panics on a
// malformed definition, a programming error.
func MustTyped[In any](name, description string, category Category, fn TypedFunc[In], opts ...TypedOption) Tool {
	t, err := NewTyped(name, description, category, fn, opts...)
	if err != nil {
		panic(err)
	}
	return t
}

type typedTool[In any] struct {
	d     Descriptor
	fn    TypedFunc[In]
	plans map[reflect.Type][]fieldPlan // read-only after construction
}

func (t *typedTool[In]) Name() string            { return t.d.Name }
func (t *typedTool[In]) Description() string     { return t.d.Description }
func (t *typedTool[In]) Category() Category      { return t.d.Category }
func (t *typedTool[In]) Parameters() []Parameter { return t.d.Parameters }
func (t *typedTool[In]) IsLoopBreaking() bool    { return t.d.LoopBreaking }

// Execute decodes args into In and calls the function. Arguments that cannot
// be decoded (a call that bypassed validation) give a failed result of kind
// validation.
func (t *typedTool[In]) Execute(ctx context.Context, ec ExecutionContext, args Args) Result {
	in, err := t.decode(args)
	if err != nil {
		r := Fail(err.Error())
		r.ErrorKind = KindValidation
		return r
	}
	r, err := t.fn(ctx, ec, in)
	if err != nil {
		f := Fail(err.Error())
		f.Metadata = r.Metadata
		return f
	}
	return r
}

// decode fills In from validated arguments.
func (t *typedTool[In]) decode(args Args) (In, error) {
	var in In
	err := decodeValue(t.plans, reflect.ValueOf(&in).Elem(), map[string]any(args), "")
	return in, err
}

// typedDryRunTool is a typed tool with a dry-run description; a separate type
// so that tools without one do not implement DryRunner and get the
// executor's generic dry-run line.
type typedDryRunTool[In any] struct {
	*typedTool[In]
	describe func(ExecutionContext, any) string
}

func (t *typedDryRunTool[In]) DryRun(ec ExecutionContext, args Args) string {
	in, err := t.decode(args)
	if err != nil {
		return fmt.Sprintf("Would execute %s, but its arguments are invalid: %v", t.d.Name, err)
	}
	return t.describe(ec, in)
}
