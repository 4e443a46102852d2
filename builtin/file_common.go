package builtin

import (
	"errors"
	"fmt"

	"github.com/forgehq/forge/builtin/internal/fsutil"
	"github.com/forgehq/forge/internal/tools"
)

// readRefusal is the read policy's refusal of path, for a dry run to
// report, or "" when the path may be read (or is invalid, which the dry run
// reports its own way).
func readRefusal(ec tools.ExecutionContext, path string) string {
	if !ec.ConfineReads {
		return ""
	}
	target, err := fsutil.ReadTarget(ec.WorkingDir, ec.AllowedRoots, path, true)
	if err != nil {
		if errors.Is(err, fsutil.ErrOutsideRoots) {
			return err.Error()
		}
		return ""
	}
	_ = target.Close()
	return ""
}

// changedSinceChecked is the refusal of a file that is no longer the one
// the approval policy judged: a link on its way was swapped since.
func changedSinceChecked(path string) string {
	return fmt.Sprintf("Refusing %s: it is not the file that was checked before this call (a link on its way changed since); "+
		"call again to have the path checked anew", path)
}

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
