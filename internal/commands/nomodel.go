package commands

import (
	"errors"
	"fmt"
)

// NoModelError is the error of what needs a model when none is
// configured. Its Hint is the one line that says how to connect one.
type NoModelError struct{ Hint string }

func (e *NoModelError) Error() string { return e.Hint }

// failModel reports err, the failure to get, switch or reach the model,
// and returns ExitFailed. No model at all is the shell's first state, not
// a fault: on text output it is the one line that says how to connect
// one, as the banner says it.
func (e *Env) failModel(err error) int {
	var nm *NoModelError
	if errors.As(err, &nm) && !e.JSON() {
		fmt.Fprintln(e.IO.Err, nm.Hint)
		return ExitFailed
	}
	return e.Fail(ExitFailed, "model", err.Error())
}
