package builtin

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/forgehq/forge/internal/tools"
)

var calculatorDescriptor = tools.Descriptor{
	ReadOnly: true,
	Name:     "calculator",
	Description: "Perform basic arithmetic operations. Adds, subtracts, multiplies or divides two numbers and returns the exact result " +
		"(shortest decimal form that reads back as the same number).",
	Category: tools.CategoryOther,
	Parameters: []tools.Parameter{
		{Name: "operation", Type: tools.TypeString, Description: "The operation to perform", Required: true,
			Enum: []any{"add", "subtract", "multiply", "divide"}},
		{Name: "a", Type: tools.TypeNumber, Description: "First number", Required: true},
		{Name: "b", Type: tools.TypeNumber, Description: "Second number", Required: true},
	},
}

// calculatorTool does arithmetic for the model: not loop-breaking, the
// agent goes on with the result.
type calculatorTool struct{ described }

func newCalculator(context.Context, tools.Deps) (tools.Tool, error) {
	return calculatorTool{described{calculatorDescriptor}}, nil
}

// IsLoopBreaking is false: a computation is a step towards an answer, never
// the end of a task.
func (calculatorTool) IsLoopBreaking() bool { return false }

// DryRun says which operation would be computed.
func (calculatorTool) DryRun(_ tools.ExecutionContext, args tools.Args) string {
	return fmt.Sprintf("Would compute %s of %s and %s", args.String("operation"), formatNumber(args.Float("a")), formatNumber(args.Float("b")))
}

// Execute computes the result. The output is the number in its shortest
// exact decimal form (a fixed "%.2f" would turn 1/3 into 0.33 and 0.001
// into 0.00, and a model would compute on a wrong value); metadata
// "result" holds it as a float64.
func (calculatorTool) Execute(ctx context.Context, _ tools.ExecutionContext, args tools.Args) tools.Result {
	if err := ctx.Err(); err != nil {
		return tools.Fail("Cancelled: " + err.Error())
	}
	a, b := args.Float("a"), args.Float("b")
	var x float64
	switch op := args.String("operation"); op {
	case "add":
		x = a + b
	case "subtract":
		x = a - b
	case "multiply":
		x = a * b
	case "divide":
		if b == 0 {
			return tools.Fail("Cannot divide by zero")
		}
		x = a / b
	default:
		return tools.Fail(fmt.Sprintf("Unknown operation: %s (known: add, subtract, multiply, divide)", op))
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return tools.Fail(fmt.Sprintf("The result of %s is out of range (beyond ±1.8e308)", args.String("operation")))
	}
	if x == 0 {
		x = 0 // no "-0"
	}
	return tools.OK(formatNumber(x), "result", x, "operation", args.String("operation"))
}

// formatNumber writes x in the shortest form that parses back to x: plain
// decimals for ordinary magnitudes, exponent notation for huge and tiny ones.
func formatNumber(x float64) string {
	if ax := math.Abs(x); ax != 0 && (ax >= 1e21 || ax < 1e-6) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}
