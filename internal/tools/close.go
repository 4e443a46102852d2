package tools

import (
	"errors"
	"fmt"
	"io"
)

// Close closes every built tool that implements io.Closer: the registered
// plain tools, the built instances of registered lazy tools, and the built
// instances of lazy tools removed since the last Close. It returns the
// errors joined, each naming its tool. The tools stay registered; a lazy
// singleton closed here is built afresh on its next use. Close is meant for
// shutdown: plain tools are closed each time it is called.
func (r *Registry) Close() error {
	r.mu.Lock()
	s := r.load()
	retired := r.retired
	r.retired = nil
	r.mu.Unlock()

	var errs []error
	for _, t := range s.sorted {
		var err error
		if l, ok := t.(*lazyTool); ok {
			err = l.Close()
		} else {
			err = closeTool(t)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	for _, l := range retired {
		if err := l.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// closeTool closes t when it is an io.Closer, naming it in the error.
// A panicking Close is reported as an error, not propagated.
func closeTool(t Tool) (err error) {
	c, ok := t.(io.Closer)
	if !ok {
		return nil
	}
	name := safeName(t)
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("close tool %s: panic: %v", name, p)
		}
	}()
	if err := c.Close(); err != nil {
		return fmt.Errorf("close tool %s: %w", name, err)
	}
	return nil
}

// safeName returns t.Name(), or "?" when Name panics.
func safeName(t Tool) (name string) {
	defer func() {
		if recover() != nil {
			name = "?"
		}
	}()
	return t.Name()
}
