package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/chzyer/readline"
	"golang.org/x/term"
)

// Terminal is what the interactive loop runs on.
type Terminal struct {
	// In must be a terminal; Out and Err are where the editor writes.
	In       *os.File
	Out, Err io.Writer
	// HistoryFile keeps the lines between sessions; "" keeps none.
	HistoryFile string
	// Banner is written once before the first prompt, when not empty.
	Banner string
	// Warn reports a problem that does not stop the shell (no history).
	Warn func(msg string)
}

// Interactive is the loop on a terminal, with chzyer/readline. It is only
// for a terminal on both ends: readline would take piped bytes for
// keystrokes.
//
// The terminal is restored on every way out (raw mode off, bracketed paste
// off): /exit and Ctrl-D close the editor; a panic in a line unwinds
// through it; SIGTERM and SIGHUP restore the saved terminal state before
// the process ends with 128+signal. Readline is only ever called from this
// goroutine (and from a question asked while this goroutine waits for the
// line that asks it).
func Interactive(ctx context.Context, t Terminal, d Dispatcher, c Completer) int {
	fd := int(t.In.Fd())
	saved, _ := term.GetState(fd)
	hist := historyFile(t)
	defer keepPrivate(hist)
	e, err := newEditor(t, d.Prompt(), hist, c)
	if err != nil {
		d.ReportError("input", "cannot start the line editor: "+err.Error())
		return exitFailed
	}
	restore := func() {
		_ = e.exitRaw()
		e.leaveLine()
		if saved != nil {
			_ = term.Restore(fd, saved)
		}
	}
	defer restore()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var killed atomic.Int32
	done := make(chan struct{})
	defer close(done)
	// Registered before the loop starts: a signal that came before the
	// handler would end the process with the terminal raw.
	stops := make(chan os.Signal, 1)
	signal.Notify(stops, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(stops)
	go watchEndSignals(stops, e.rl, cancel, restore, &killed, done)
	// Ctrl-C between lines must not end the shell; while a line runs, it
	// cancels that line.
	w := watchInterrupts()
	defer w.stop()

	if mc, ok := d.(ModeCycler); ok {
		e.onModeKey = func() string {
			mc.CycleMode()
			return d.Prompt()
		}
	}
	if k, ok := d.(KeyAsker); ok {
		k.SetAskKey(func(_ context.Context, question, keys string) (string, error) {
			return e.askKey(question, keys)
		})
	}
	if t.Banner != "" {
		fmt.Fprintln(t.Out, t.Banner)
	}
	readLines(ctx, e, d, w, &killed)
	e.close()
	restore()
	if n := killed.Load(); n != 0 {
		return 128 + int(n)
	}
	return exitOK
}

// readLines is the loop proper: prompt, read, save in the history, run.
func readLines(ctx context.Context, e *editor, d Dispatcher, w *interrupts, killed *atomic.Int32) {
	ask := func(_ context.Context, question string) (string, error) { return e.ask(question) }
	for ctx.Err() == nil && killed.Load() == 0 {
		line, shown, typed, err := e.readPromptLine(d.Prompt())
		if errors.Is(err, readline.ErrInterrupt) {
			continue // Ctrl-C at the prompt: drop the line
		}
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			d.ReportError("input", "cannot read input: "+err.Error())
			return
		}
		e.saveHistory(typed)
		e.beginLine()
		lctx, end := w.line(ctx)
		var quit bool
		if td, ok := d.(TypedDispatcher); ok {
			_, quit = td.DispatchTyped(lctx, line, shown, ask)
		} else {
			_, quit = d.Dispatch(lctx, line, ask)
		}
		end()
		e.endLine()
		if quit {
			return
		}
	}
}

// watchEndSignals handles SIGTERM and SIGHUP, which would otherwise end the
// process with the terminal raw: it remembers the signal, cancels the
// running line, restores the terminal and makes Readline return, so that
// the loop ends with 128+signal. If it does not within a second (readline's
// Close can hang while another goroutine reads), it exits from here, the
// terminal already restored.
func watchEndSignals(stops <-chan os.Signal, rl *readline.Instance, cancel func(), restore func(), killed *atomic.Int32, done <-chan struct{}) {
	select {
	case sig := <-stops:
		n := int32(sig.(syscall.Signal))
		killed.Store(n)
		cancel()
		restore()
		go func() { _ = rl.Close() }()
		select {
		case <-done:
		case <-time.After(time.Second):
			restore()
			os.Exit(128 + int(n))
		}
	case <-done:
	}
}

// historyFile is t's history file, created private (0600: the lines typed
// may hold secrets) when it does not exist yet, or "" when it cannot be.
// readline itself would create it readable by everyone.
func historyFile(t Terminal) string {
	if t.HistoryFile == "" {
		return ""
	}
	err := os.MkdirAll(filepath.Dir(t.HistoryFile), 0o700)
	if err == nil {
		var f *os.File
		if f, err = os.OpenFile(t.HistoryFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
			err = f.Close()
		}
	}
	if err != nil {
		if t.Warn != nil {
			t.Warn("history disabled: " + err.Error())
		}
		return ""
	}
	return t.HistoryFile
}

// keepPrivate sets path back to 0600 after readline may have rewritten it
// (it compacts a long history into a new file of mode 0666).
func keepPrivate(path string) {
	if path != "" {
		_ = os.Chmod(path, 0o600)
	}
}

// completer adapts a Completer to readline: it returns the suffixes that
// complete the word before the cursor, and that word's length in runes.
type completer struct{ c Completer }

func (a completer) Do(line []rune, pos int) ([][]rune, int) {
	if a.c == nil {
		return nil, 0
	}
	if pos > len(line) {
		pos = len(line)
	}
	cands, partial := a.c.Complete(string(line[:pos]))
	out := make([][]rune, 0, len(cands))
	for _, c := range cands {
		if strings.HasPrefix(c, partial) {
			out = append(out, []rune(c[len(partial):]))
		}
	}
	return out, len([]rune(partial))
}
