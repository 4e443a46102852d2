package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/chzyer/readline"
)

// The terminal's bracketed paste mode: while it is on, the terminal wraps
// what the person pastes in ESC[200~ and ESC[201~, so that a paste's lines
// are not taken for Enter and its Tabs not for completion.
const (
	bracketedPasteOn  = "\x1b[?2004h"
	bracketedPasteOff = "\x1b[?2004l"
)

// continuePrompt is the prompt of a line that continues the one above.
const continuePrompt = "... "

// editor reads at the terminal: chzyer/readline, fed the terminal's bytes
// through an inputFilter. Raw mode is on only while it reads; while a
// line runs the terminal is quiet (no echo, Ctrl-C still a signal) and
// keeps what is typed for the next prompt; bracketed paste is on in both.
type editor struct {
	rl     *readline.Instance
	in     *inputFilter
	pastes *pastes
	out    io.Writer

	mu  sync.Mutex
	raw *readline.State // the terminal's state before raw mode, while in it
	fd  int
	// unquiet restores the terminal as a line ends; nil between lines.
	unquiet func()

	// onModeKey, when set, changes the mode and returns the prompt that
	// shows it (Shift+Tab); atPrompt says the line being read is the
	// first of a line for the dispatcher, where the key acts.
	onModeKey func() string
	atPrompt  atomic.Bool
}

func newEditor(t Terminal, prompt, history string, c Completer) (*editor, error) {
	e := &editor{pastes: &pastes{}, out: t.Out, fd: int(t.In.Fd())}
	e.in = newInputFilter(t.In, e.pastes.add)
	rl, err := readline.NewEx(&readline.Config{
		Prompt:            prompt,
		HistoryFile:       history,
		HistorySearchFold: true,
		// Lines are saved by the loop, so that answers to a tool's question
		// stay out of the history (HistoryDisable/Enable race with
		// readline's own goroutine).
		DisableAutoSaveHistory: true,
		AutoComplete:           completer{c},
		InterruptPrompt:        "^C",
		EOFPrompt:              "",
		Stdin:                  e.in,
		Stdout:                 t.Out,
		Stderr:                 t.Err,
		FuncMakeRaw:            e.enterRaw,
		FuncExitRaw:            e.exitRaw,
		Listener:               readline.FuncListener(e.listen),
	})
	if err != nil {
		return nil, err
	}
	e.rl = rl
	return e, nil
}

// listen acts on the mode key (Shift+Tab) at the prompt, after readline
// took it as a key that changes nothing: the mode changes, and the line
// is drawn again with the prompt that shows it. Anywhere else (a
// question, a continued line) the key does nothing.
func (e *editor) listen(line []rune, pos int, key rune) ([]rune, int, bool) {
	if string(key) != modeKey || !e.in.takeModeKey() || e.onModeKey == nil || !e.atPrompt.Load() {
		return nil, 0, false
	}
	e.rl.SetPrompt(e.onModeKey())
	return line, pos, true
}

// readPromptLine reads a line for the dispatcher (readLine), the mode key
// acting on its first line.
func (e *editor) readPromptLine(prompt string) (line, shown string, typed []string, err error) {
	e.atPrompt.Store(true)
	defer e.atPrompt.Store(false)
	return e.readLine(prompt, true)
}

// beginLine is called as a line starts to run: the terminal stops
// echoing, and what is typed is kept for the next prompt, a paste
// marked as one (bracketed paste stays on).
func (e *editor) beginLine() {
	e.mu.Lock()
	if e.unquiet == nil {
		e.unquiet, _ = quietInput(e.fd) // if it fails, keys echo as before
	}
	_, _ = io.WriteString(e.out, bracketedPasteOn)
	e.mu.Unlock()
	e.in.beginTurn()
}

// endLine is called as the line ends: the terminal is as before it.
func (e *editor) endLine() {
	e.in.endTurn()
	e.leaveLine()
}

// leaveLine puts back the terminal a running line changed; it is also a
// way out of the shell (a signal) while a line runs.
func (e *editor) leaveLine() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.unquiet != nil {
		_, _ = io.WriteString(e.out, bracketedPasteOff)
		e.unquiet()
		e.unquiet = nil
	}
}

// afterQuestion goes back to keeping what is typed, once a question
// asked while a line runs is answered (reading it turned bracketed paste
// off).
func (e *editor) afterQuestion() {
	e.mu.Lock()
	if e.unquiet != nil {
		_, _ = io.WriteString(e.out, bracketedPasteOn)
	}
	e.mu.Unlock()
	e.in.resumeTurn()
}

// enterRaw puts the terminal in raw mode with bracketed paste on, before
// each read.
func (e *editor) enterRaw() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	st, err := readline.MakeRaw(e.fd)
	if err != nil {
		return err
	}
	if e.raw == nil {
		e.raw = st
	}
	_, _ = io.WriteString(e.out, bracketedPasteOn)
	return nil
}

// exitRaw turns bracketed paste off and restores the terminal, after each
// read and on every way out (it may be called more than once).
func (e *editor) exitRaw() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.raw == nil {
		return nil
	}
	_, _ = io.WriteString(e.out, bracketedPasteOff)
	st := e.raw
	e.raw = nil
	return readline.Restore(e.fd, st)
}

// readLine reads what the person sends at prompt: a line, or several when
// each but the last ends with a backslash (Ctrl-J and Alt-Enter type one),
// joined by newlines, with every paste in place of its mark; shown is the
// same with the marks. typed are the lines as they were typed, for the
// history. Ctrl-C drops them all; Ctrl-D on a continued line sends what
// came before it. At the prompt (typeAhead) each line begins with what
// was typed while the last line ran.
func (e *editor) readLine(prompt string, typeAhead bool) (line, shown string, typed []string, err error) {
	var parts []string
	for {
		if typeAhead {
			e.in.takeLine()
		}
		e.rl.SetPrompt(prompt)
		l, err := e.rl.Readline()
		if errors.Is(err, io.EOF) && len(parts) > 0 {
			break
		}
		if err != nil {
			return "", "", typed, err
		}
		typed = append(typed, l)
		more, ok := strings.CutSuffix(l, `\`)
		if !ok {
			parts = append(parts, l)
			break
		}
		parts = append(parts, more)
		prompt = continuePrompt
		e.atPrompt.Store(false)
	}
	shown = strings.Join(parts, "\n")
	return e.pastes.expand(shown), shown, typed, nil
}

// ask puts a question whose answer is a line (or several, as a prompt):
// after a "? " of its own, or, for a question that ends with a space,
// on the question's last line, where the cursor is left.
func (e *editor) ask(question string) (string, error) {
	prompt := "? "
	if strings.HasSuffix(question, " ") {
		before, last, ok := cutLastLine(question)
		if ok {
			fmt.Fprintln(e.out, before)
		}
		question, prompt = "", last
	}
	if question != "" {
		fmt.Fprintln(e.out, question)
	}
	e.in.pauseTurn()
	defer e.afterQuestion()
	line, _, _, err := e.readLine(prompt, false)
	if errors.Is(err, readline.ErrInterrupt) {
		return "", context.Canceled
	}
	return line, err
}

// cutLastLine cuts text before its last line; ok is false when it has
// only one.
func cutLastLine(text string) (before, last string, ok bool) {
	i := strings.LastIndexByte(text, '\n')
	if i < 0 {
		return "", text, false
	}
	return text[:i], text[i+1:], true
}

// askKey puts a question answered by one key of keys, taken without Enter;
// Enter alone answers "". Anything else is ignored, a paste above all: a
// pasted "y" must not allow a call.
func (e *editor) askKey(question, keys string) (string, error) {
	fmt.Fprintln(e.out, question)
	e.in.pauseTurn()
	defer e.afterQuestion()
	e.in.setKeys(keys)
	defer e.in.setKeys("")
	e.rl.SetPrompt("? ")
	line, err := e.rl.Readline()
	if errors.Is(err, readline.ErrInterrupt) {
		return "", context.Canceled
	}
	return strings.TrimSpace(line), err
}

// saveHistory keeps the lines typed, not those answering a question.
func (e *editor) saveHistory(typed []string) {
	for _, l := range typed {
		if strings.TrimSpace(l) != "" {
			_ = e.rl.SaveHistory(l)
		}
	}
}

// close ends the editor and leaves the terminal as it was.
func (e *editor) close() {
	_ = e.rl.Close()
	_ = e.in.Close()
	_ = e.exitRaw()
}
