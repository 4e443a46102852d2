package builtin

import (
	"context"
	"math"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

func TestCalculator(t *testing.T) {
	cases := []struct {
		op   string
		a, b float64
		want string
		err  string
	}{
		{"add", 5, 3, "8", ""},
		{"subtract", 5, 8, "-3", ""},
		{"multiply", 15, 23, "345", ""},
		{"divide", 1, 3, "0.3333333333333333", ""},
		{"divide", 0.001, 1, "0.001", ""},
		{"add", 0.1, 0.2, "0.30000000000000004", ""},
		{"multiply", 1e200, 1e10, "1e+210", ""},
		{"multiply", -0.0, 5, "0", ""},
		{"divide", 5, 0, "", "Cannot divide by zero"},
		{"multiply", 1e300, 1e300, "", "The result of multiply is out of range (beyond ±1.8e308)"},
		{"power", 2, 3, "", "Unknown operation: power (known: add, subtract, multiply, divide)"},
	}
	for _, c := range cases {
		r := calculatorTool{}.Execute(context.Background(), tools.ExecutionContext{}, tools.Args{"operation": c.op, "a": c.a, "b": c.b})
		if c.err != "" {
			if r.Success || r.Error != c.err {
				t.Errorf("%s(%v, %v): got %+v, want error %q", c.op, c.a, c.b, r, c.err)
			}
			continue
		}
		if !r.Success || r.Output != c.want {
			t.Errorf("%s(%v, %v) = %+v, want %s", c.op, c.a, c.b, r, c.want)
		}
		if x, ok := r.Metadata["result"].(float64); !ok || math.IsNaN(x) {
			t.Errorf("metadata result %v", r.Metadata["result"])
		}
	}
}

func TestCalculatorDryRunAndCancel(t *testing.T) {
	args := tools.Args{"operation": "divide", "a": 10.0, "b": 4.0}
	if got := (calculatorTool{}).DryRun(tools.ExecutionContext{}, args); got != "Would compute divide of 10 and 4" {
		t.Errorf("%q", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := (calculatorTool{}).Execute(ctx, tools.ExecutionContext{}, args); r.Success {
		t.Errorf("%+v", r)
	}
	if (calculatorTool{}).IsLoopBreaking() {
		t.Error("calculator is loop-breaking")
	}
}
