// Package repl is forge's input loop, and only that: it reads lines (with a
// line editor on a terminal, plainly otherwise), keeps the history, offers
// completion and turns Ctrl-C into the cancellation of the running line.
// What a line means is the Dispatcher's business; repl knows lines, not
// commands or tools.
package repl

import "context"

// Exit statuses the loops return; the Dispatcher's own statuses follow
// forge's conventions (0 success, 130 cancelled).
const (
	exitOK        = 0
	exitFailed    = 1
	exitCancelled = 130
)

// Dispatcher runs the lines the loop reads.
type Dispatcher interface {
	// Dispatch runs one line; ask reads an answer to a question from the
	// same input (a tool that asks the person). It returns the line's exit
	// status and whether the session should end.
	Dispatch(ctx context.Context, line string, ask func(ctx context.Context, question string) (string, error)) (code int, quit bool)
	// ReportError reports a problem with the input itself (a line too long,
	// an unreadable input) as the dispatcher reports its own errors.
	ReportError(kind, msg string)
	// Prompt is the interactive prompt, asked before each line.
	Prompt() string
}

// TypedDispatcher is a Dispatcher that is also told how a line looked as
// it was typed, each long paste as its mark ("[pasted 6 lines, 312
// bytes]"), so that what shows or keeps the line can show it as the
// person saw it. The interactive loop calls DispatchTyped instead of
// Dispatch; line is what runs, every paste in full.
type TypedDispatcher interface {
	DispatchTyped(ctx context.Context, line, typed string, ask func(ctx context.Context, question string) (string, error)) (code int, quit bool)
}

// ModeCycler is a Dispatcher whose mode one key changes at the prompt
// (Shift+Tab, on a terminal that sends it): CycleMode goes to the next
// mode, and the prompt is drawn again, from Prompt, to show it.
type ModeCycler interface {
	CycleMode()
}

// Completer offers completions on a terminal.
type Completer interface {
	// Complete returns whole-word candidates for the last word of line (the
	// text before the cursor) and that partial word.
	Complete(line string) (candidates []string, partial string)
}

// KeyAsker is a Dispatcher whose questions can be answered with a single
// key (an approval's y, a, n). The interactive loop gives it, before the
// first line, the function that puts such a question: it returns the key
// pressed, or "" for Enter alone. Elsewhere answers are lines.
type KeyAsker interface {
	SetAskKey(askKey func(ctx context.Context, question, keys string) (string, error))
}
