package commands

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
)

// funcTool is a test tool: its parameters and a function.
type funcTool struct {
	name, desc string
	cat        tools.Category
	params     []tools.Parameter
	run        func(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result
}

func (f funcTool) Name() string                  { return f.name }
func (f funcTool) Description() string           { return f.desc }
func (f funcTool) Category() tools.Category      { return f.cat }
func (f funcTool) Parameters() []tools.Parameter { return f.params }
func (f funcTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	return f.run(ctx, ec, args)
}

// testRegistry holds small tools whose behaviour the tests control: echo
// (text, count 1..3), size, wait (until cancelled) and ask.
func testRegistry(t testing.TB) *tools.Registry {
	t.Helper()
	reg := tools.NewRegistry()
	textParams := []tools.Parameter{
		{Name: "text", Type: tools.TypeString, Description: "Text to echo", Required: true},
		{Name: "count", Type: tools.TypeInteger, Description: "Times to repeat", Minimum: tools.Float(1), Maximum: tools.Float(3)},
	}
	echo := funcTool{"echo", "Echo the text", tools.CategoryOther, textParams,
		func(_ context.Context, _ tools.ExecutionContext, a tools.Args) tools.Result {
			n := max(a.Int("count"), 1)
			text := a.String("text")
			return tools.OK(strings.Repeat(text, n), "bytes", len(text)*n)
		}}
	size := funcTool{"size", "Report the length of text", tools.CategoryOther, textParams,
		func(_ context.Context, _ tools.ExecutionContext, a tools.Args) tools.Result {
			return tools.OK(fmt.Sprint(len(a.String("text"))))
		}}
	wait := funcTool{"wait", "Wait until cancelled", tools.CategoryExecution, nil,
		func(ctx context.Context, _ tools.ExecutionContext, _ tools.Args) tools.Result {
			<-ctx.Done()
			return tools.Fail(ctx.Err().Error())
		}}
	ask := funcTool{"ask", "Ask the person", tools.CategoryTask,
		[]tools.Parameter{{Name: "question", Type: tools.TypeString}},
		func(ctx context.Context, ec tools.ExecutionContext, a tools.Args) tools.Result {
			if ec.Asker == nil {
				return tools.Fail("no asker")
			}
			answer, err := ec.Asker.Ask(ctx, a.String("question"))
			if err != nil {
				return tools.Fail(err.Error())
			}
			return tools.OK("answer: " + answer)
		}}
	if err := reg.RegisterMany(echo, size, wait, ask); err != nil {
		t.Fatal(err)
	}
	return reg
}

// testShell returns a shell over the test registry in a temporary working
// directory, writing to out and errOut.
func testShell(t testing.TB, out, errOut *bytes.Buffer) *Shell {
	t.Helper()
	reg := testRegistry(t)
	env := &Env{
		IO:       IOStreams{In: strings.NewReader(""), Out: out, Err: errOut},
		Registry: reg, Executor: tools.NewExecutor(reg),
		Exec: tools.NewExecutionContext(t.TempDir()), Output: "text",
		Renderer: func() *render.Renderer { return render.New(render.Options{ParamOrder: ParamOrder(reg)}) },
	}
	return NewShell(env)
}
