package langchain

import (
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
	"github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"
)

// The adapter satisfies langchaingo's tools.Tool.
var _ lctools.Tool = (*Tool)(nil)

type readArgs struct {
	FilePath string `json:"file_path" desc:"Absolute path to the file to read"`
	Limit    int    `json:"limit" desc:"Maximum number of lines to read" default:"2000" min:"1" max:"10000"`
}

func setup(t *testing.T) *tools.Executor {
	t.Helper()
	reg := tools.NewRegistry()
	read := tools.MustTyped("Read", "Read contents of a file from the filesystem", tools.CategoryFile,
		func(ctx context.Context, ec tools.ExecutionContext, in readArgs) (tools.Result, error) {
			if in.FilePath == "/slow" {
				<-ctx.Done()
				return tools.Fail("stopped"), nil
			}
			return tools.OK("contents of " + in.FilePath + " (limit " + strconv.Itoa(in.Limit) + ")"), nil
		})
	type sumArgs struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	sum := tools.MustTyped("Sum", "Add two numbers", tools.CategoryOther,
		func(_ context.Context, _ tools.ExecutionContext, in sumArgs) (tools.Result, error) {
			return tools.OK(in.A + in.B), nil
		})
	if err := reg.RegisterMany(read, sum); err != nil {
		t.Fatal(err)
	}
	return tools.NewExecutor(reg)
}

// Scenario: Convert to LangChain tool
func TestConvertToLangChainTool(t *testing.T) {
	exec := setup(t)
	lt, err := New(exec, "Read", tools.NewExecutionContext(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	var asLC lctools.Tool = lt
	if asLC.Name() != "Read" || asLC.Description() != "Read contents of a file from the filesystem" {
		t.Errorf("name %q description %q", asLC.Name(), asLC.Description())
	}
	cases := []struct{ input, want string }{
		{`{"file_path": "/a", "limit": 5}`, "contents of /a (limit 5)"},
		{`/plain/text/path`, "contents of /plain/text/path (limit 2000)"}, // the default applies
		{`{"limit": 5}`, "Error: Missing required parameter: file_path"},
		{`{"file_path": "/a", "limit": "5"}`, "Error: Invalid type for limit: expected integer"},
		{`{"file_path": "/a", "bogus": 1}`, "Error: Unknown parameter: bogus (valid parameters: file_path, limit)"},
	}
	for _, c := range cases {
		got, err := asLC.Call(context.Background(), c.input)
		if err != nil || got != c.want {
			t.Errorf("Call(%s) = %q, %v; want %q", c.input, got, err, c.want)
		}
	}
	if n := len(exec.Executions()); n != len(cases) {
		t.Errorf("%d executions recorded, want %d", n, len(cases))
	}
}

func TestCallJSONOnly(t *testing.T) {
	exec := setup(t)
	sum, err := New(exec, "Sum", tools.ExecutionContext{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := sum.Call(context.Background(), `{"a": 2, "b": 3}`); err != nil || got != "5" {
		t.Errorf("got %q %v", got, err)
	}
	got, err := sum.Call(context.Background(), `2 + 3`)
	if err != nil || !strings.HasPrefix(got, "Error: ") {
		t.Errorf("plain text to a JSON-only tool: %q %v", got, err)
	}
	if got, err := sum.Call(context.Background(), ``); err != nil || got != "Error: Missing required parameter: a" {
		t.Errorf("empty input: %q %v", got, err)
	}
	if _, err := New(exec, "Nope", tools.ExecutionContext{}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("unknown tool: %v", err)
	}
}

// A cancelled run stops the agent: the error is returned.
func TestCallCancelled(t *testing.T) {
	exec := setup(t)
	lt, _ := New(exec, "Read", tools.ExecutionContext{Timeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	if _, err := lt.Call(ctx, `/slow`); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("got %v", err)
	}
}

func TestAll(t *testing.T) {
	exec := setup(t)
	all := All(exec, tools.ExecutionContext{})
	if len(all) != 2 || all[0].Name() != "Read" || all[1].Name() != "Sum" {
		t.Fatalf("%v", all)
	}
	defs := Definitions(exec)
	if len(defs) != 2 || defs[1].Function.Name != "Sum" || !reflect.DeepEqual(all[1].Definition(), defs[1]) {
		t.Errorf("%+v", defs)
	}
}

// The llms.Tool definition is the schema forge exports as "langchain".
func TestDefinitionMatchesExport(t *testing.T) {
	exec := setup(t)
	for _, name := range []string{"Read", "Sum"} {
		tool, _ := exec.Registry().Get(name)
		d := tools.Describe(tool)
		def := Definition(d)
		got, err := json.Marshal(def)
		if err != nil {
			t.Fatal(err)
		}
		exported, err := tools.ExportSchema(d, tools.FormatLangChain)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		_ = json.Unmarshal(got, &a)
		_ = json.Unmarshal(exported, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s:\nllms.Tool %s\nexport    %s", name, got, exported)
		}
		var back llms.Tool
		if err := json.Unmarshal(exported, &back); err != nil || back.Type != "function" || back.Function.Name != name || back.Function.Description != d.Description {
			t.Errorf("export does not decode as llms.Tool: %v %+v", err, back)
		}
		if _, ok := def.Function.Parameters.(map[string]any); !ok {
			t.Errorf("parameters are %T", def.Function.Parameters)
		}
	}
}

func TestSingleStringParam(t *testing.T) {
	s := func(name string, req bool) tools.Parameter {
		return tools.Parameter{Name: name, Type: tools.TypeString, Required: req}
	}
	i := tools.Parameter{Name: "n", Type: tools.TypeInteger, Required: true}
	cases := []struct {
		params []tools.Parameter
		want   string
	}{
		{nil, ""},
		{[]tools.Parameter{s("q", false)}, "q"},
		{[]tools.Parameter{s("q", true), s("opt", false)}, "q"},
		{[]tools.Parameter{s("q", true), s("r", true)}, ""},
		{[]tools.Parameter{i}, ""},
		{[]tools.Parameter{i, s("q", true)}, ""},
	}
	for _, c := range cases {
		if got := singleStringParam(c.params); got != c.want {
			t.Errorf("%v: %q, want %q", c.params, got, c.want)
		}
	}
}
