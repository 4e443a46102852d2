package builtin

import "github.com/forgehq/forge/internal/tools"

// intArg returns the integer argument name, def when absent, clamped to
// [lo, hi] (hi 0: no upper bound): validation already enforces the schema's bounds, and this keeps a
// tool called directly (without the executor) within them too.
func intArg(args tools.Args, name string, def, lo, hi int) int {
	n := def
	if args.Has(name) && args[name] != nil {
		n = args.Int(name)
	}
	if n < lo {
		n = lo
	}
	if hi > 0 && n > hi {
		n = hi
	}
	return n
}

// boolArg returns the boolean argument name, or def when absent.
func boolArg(args tools.Args, name string, def bool) bool {
	if b, ok := args[name].(bool); ok {
		return b
	}
	return def
}

// maxOutput is the output budget of a call: the context's cap, or the
// default when the tool is called without the executor.
func maxOutput(ec tools.ExecutionContext) int {
	if ec.MaxOutputSize > 0 {
		return ec.MaxOutputSize
	}
	return tools.DefaultMaxOutputSize
}
