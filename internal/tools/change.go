package tools

import (
	"errors"
	"fmt"
)

// Change is what a call would do to one file, worked out exactly as the
// tool would apply it, with nothing written: what a person approving the
// call needs to see.
type Change struct {
	// Path is the file the call would write, absolute, links resolved.
	Path string
	// Created says the file does not exist yet: Old is empty.
	Created bool
	// Old is the file's content now, New the content the call would
	// leave. Both are empty when Unshown is set.
	Old, New []byte
	// Unshown, when set, says why the contents cannot be shown (a binary
	// file, one too large to read): the call itself may still succeed.
	Unshown string
}

// ChangePreviewer is implemented by tools that change files (Write, Edit,
// NotebookEdit): PreviewChange works out a call's change by the same code
// that applies it, and writes nothing. An error is the failure the call
// itself would report, in the tool's words.
type ChangePreviewer interface {
	PreviewChange(ec ExecutionContext, args Args) (Change, error)
}

// ErrNoPreview is what PreviewChange returns for a tool that does not
// preview its changes.
var ErrNoPreview = errors.New("the tool does not preview its changes")

// PreviewChange returns the change t would make for a call with args, as
// ChangePreviewer describes it: the arguments validated and completed with
// their defaults first, as the executor does before a call. The error wraps
// ErrNoPreview when t does not preview its changes; any other error is why
// the call would fail. A tool that panics while previewing gives a Change
// that says so: the question must still be asked, and say what it cannot
// show.
func PreviewChange(t Tool, ec ExecutionContext, args Args) (c Change, err error) {
	cp, ok := t.(ChangePreviewer)
	if !ok || cp == nil {
		return Change{}, ErrNoPreview
	}
	valid, verr := ValidateFor(t, args)
	if verr != nil {
		return Change{}, errors.New(verr.Message)
	}
	defer func() {
		if p := recover(); p != nil {
			c, err = Change{Unshown: fmt.Sprintf("working out the change failed (%v)", p)}, nil
		}
	}()
	return cp.PreviewChange(ec.withDefaults(), valid)
}
