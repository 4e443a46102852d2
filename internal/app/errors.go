package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/render"
)

// exitError carries an exit status out of a cobra RunE. When reported is
// true the message has been shown already (a panel, a JSON line).
type exitError struct {
	code     int
	err      error
	reported bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageErr marks err as a usage error: exit status 2, message on stderr.
func usageErr(err error) error {
	return &exitError{code: commands.ExitUsage, err: err}
}

// exitWith ends the command with code; its output has been written.
func exitWith(code int) error {
	if code == commands.ExitOK {
		return nil
	}
	return &exitError{code: code, reported: true}
}

// exitStatus turns the error of root.Execute into an exit status, printing
// the messages nobody has printed yet. Errors from cobra itself (unknown
// flag, wrong number of arguments) are usage errors.
func (a *App) exitStatus(err error) int {
	if err == nil {
		return commands.ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if !ee.reported && ee.err != nil {
			kind := "error"
			if ee.code == commands.ExitUsage {
				kind = "usage"
			}
			a.reportError(kind, ee.err.Error())
		}
		return ee.code
	}
	a.reportError("usage", err.Error())
	return commands.ExitUsage
}

// reportError prints a message that is not a panel: a JSON error object on
// standard output with -o json, else "Error: ..." on standard error.
func (a *App) reportError(kind, msg string) {
	a.printer().Error(kind, msg)
}

// printer is the printer of messages that may come before the command's
// environment is set up: JSON with -o json, else text.
func (a *App) printer() render.Printer {
	if a.jsonOutput() {
		return render.NewJSON(a.ios.Out)
	}
	return render.NewText(render.TextOptions{Out: a.ios.Out, Err: a.ios.Err})
}

// jsonOutput reports whether -o json is in effect. Errors that stop a
// command before its configuration is loaded (a wrong number of
// arguments, an unknown flag) still honour --output and FORGE_OUTPUT.
func (a *App) jsonOutput() bool {
	if a.ready {
		return a.cfg.Output == "json"
	}
	// The flags may not have been parsed (an unknown flag stops pflag):
	// look at the words themselves, the last one winning as in pflag.
	out := ""
	for i, w := range a.args {
		switch {
		case w == "--":
			return out == "json" || (out == "" && a.getenv("FORGE_OUTPUT") == "json")
		case (w == "-o" || w == "--output") && i+1 < len(a.args):
			out = a.args[i+1]
		case strings.HasPrefix(w, "--output="):
			out = strings.TrimPrefix(w, "--output=")
		case strings.HasPrefix(w, "-o") && !strings.HasPrefix(w, "--") && len(w) > 2:
			out = strings.TrimPrefix(strings.TrimPrefix(w, "-o"), "=")
		}
	}
	if out != "" {
		return out == "json"
	}
	return a.getenv("FORGE_OUTPUT") == "json"
}
