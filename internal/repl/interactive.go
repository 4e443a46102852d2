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

	"github.com/forgehq/forge/internal/version"
)

// runInteractive is the REPL on a terminal, with chzyer/readline. It is
// only used when standard input and output are both terminals: readline
// would take piped bytes for keystrokes (see notes/shell.md).
//
// The terminal is restored on every way out: /exit and Ctrl-D close
// readline; SIGTERM and SIGHUP restore the saved terminal state before
// the process ends. Readline is only ever called from this goroutine (and
// from a tool's Ask while this goroutine waits for the tool).
func (s *Shell) runInteractive(ctx context.Context) int {
	in, _ := s.app.Stdin.(*os.File)
	if in == nil {
		return s.fail(ExitFailed, "input", "the interactive shell needs a terminal")
	}
	fd := int(in.Fd())
	saved, _ := term.GetState(fd)

	hist := s.app.cfg.HistoryFile
	if hist != "" {
		if err := os.MkdirAll(filepath.Dir(hist), 0o700); err != nil {
			s.app.log.Warn().Str("component", "repl").Msg("history disabled: " + err.Error())
			hist = ""
		}
	}
	rl, err := readline.NewEx(&readline.Config{
		Prompt:            s.prompt(),
		HistoryFile:       hist,
		HistorySearchFold: true,
		// Lines are saved by the loop below, so that answers to a tool's
		// question stay out of the history (HistoryDisable/Enable race
		// with readline's own goroutine).
		DisableAutoSaveHistory: true,
		AutoComplete:           s,
		InterruptPrompt:        "^C",
		EOFPrompt:              "",
		Stdout:                 s.out,
		Stderr:                 s.errOut,
	})
	if err != nil {
		return s.fail(ExitFailed, "input", "cannot start the line editor: "+err.Error())
	}

	// SIGTERM and SIGHUP would end the process with the terminal raw.
	stops := make(chan os.Signal, 1)
	signal.Notify(stops, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(stops)
	// Ctrl-C between commands must not kill the shell; while a tool runs,
	// it cancels that tool.
	defer s.watchInterrupts()()
	// On SIGTERM or SIGHUP: remember the signal, cancel a running tool,
	// restore the terminal and make Readline return; the loop below then
	// ends with 128+signal. If it does not within a second (readline #217:
	// Close can hang), exit from here, the terminal already restored.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var killed atomic.Int32
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case sig := <-stops:
				n := int32(sig.(syscall.Signal))
				killed.Store(n)
				cancel()
				if saved != nil {
					_ = term.Restore(fd, saved)
				}
				go func() { _ = rl.Close() }()
				select {
				case <-done:
				case <-time.After(time.Second):
					if saved != nil {
						_ = term.Restore(fd, saved)
					}
					os.Exit(128 + int(n))
				}
				return
			case <-done:
				return
			}
		}
	}()

	s.ask = func(_ context.Context, question string) (string, error) {
		fmt.Fprintln(s.out, question)
		rl.SetPrompt("? ")
		defer rl.SetPrompt(s.prompt())
		line, err := rl.Readline()
		if errors.Is(err, readline.ErrInterrupt) {
			return "", context.Canceled
		}
		return line, err
	}
	defer func() { s.ask = nil }()

	if !s.jsonMode() {
		fmt.Fprintf(s.out, "forge %s. Type /help for the commands, Tab to complete, Ctrl-D to leave.\n", version.Version)
	}
	for !s.quit && ctx.Err() == nil && killed.Load() == 0 {
		rl.SetPrompt(s.prompt())
		line, err := rl.Readline()
		if errors.Is(err, readline.ErrInterrupt) {
			continue // Ctrl-C at the prompt: drop the line
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			s.fail(ExitFailed, "input", "cannot read input: "+err.Error())
			break
		}
		if strings.TrimSpace(line) != "" {
			_ = rl.SaveHistory(line)
		}
		s.r = s.app.renderer() // the terminal may have been resized
		s.Exec(ctx, line)
	}
	_ = rl.Close()
	if saved != nil {
		_ = term.Restore(fd, saved)
	}
	if n := killed.Load(); n != 0 {
		return 128 + int(n)
	}
	return ExitOK
}
