package builtin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/forgehq/forge/builtin/internal/capture"
	"github.com/forgehq/forge/builtin/internal/cfg"
	"github.com/forgehq/forge/internal/proc"
	"github.com/forgehq/forge/internal/tools"
)

// Bash's limits, in milliseconds: the timeout argument's default and
// bounds, as the tool's schema declares them.
const (
	bashDefaultTimeoutMS = 120000
	bashMinTimeoutMS     = 1000
	bashMaxTimeoutMS     = 600000
	// bashDrain is how long a finished command's remaining output is read
	// before children that still hold the pipe are left to run on.
	bashDrain = 100 * time.Millisecond
	// bashSpillMax bounds the file that keeps an output too long for the
	// result: a command may print without end, and the disk is not.
	bashSpillMax = 256 << 20
	// bashSpillTotal bounds all such files together: two outputs at their
	// largest; older files make room for newer ones.
	bashSpillTotal = 2 * bashSpillMax
)

var bashDescriptor = tools.Descriptor{
	Name:      "Bash",
	Presenter: bashPresenter{},
	Description: "Execute a bash command. The command runs with `bash -c` in the working directory, in a process group of its own, " +
		"with standard input empty; standard output and error are returned together (beyond the output cap the head and the tail are kept, " +
		"with a line saying how much was left out, and the whole output is saved to a private temporary file the result names, " +
		"removed when forge exits). " +
		"A non-zero exit status is a failure that gives the exit code. " +
		"The timeout (milliseconds, default 120000, at most 600000) ends the whole process group; the output printed until then is returned. " +
		"Environment variables whose names contain KEY, TOKEN, SECRET or PASSWORD are not passed to the command unless configured. " +
		"With run_in_background the command starts and its id is returned at once: read its output with BashOutput, end it with KillShell. " +
		"When forge has a sandbox, the command runs in it: it may write only in the project, the temporary directory and the toolchains' caches, " +
		"cannot see where credentials are kept, and reaches no network but the hosts the person allowed; what it blocked is said in the result.",
	Category: tools.CategoryExecution,
	Confined: true,
	Parameters: []tools.Parameter{
		{Name: "command", Type: tools.TypeString, Description: "The command to execute", Required: true},
		{Name: "description", Type: tools.TypeString, Description: "What the command does, in five to ten words " +
			"(\"Run the unit tests\"): the person sees it with the command"},
		{Name: "timeout", Type: tools.TypeInteger, Description: "Timeout in milliseconds", Default: bashDefaultTimeoutMS,
			Minimum: tools.Float(bashMinTimeoutMS), Maximum: tools.Float(bashMaxTimeoutMS)},
		{Name: "run_in_background", Type: tools.TypeBoolean, Description: "Run command in background", Default: false},
		{Name: tools.SandboxParam, Type: tools.TypeBoolean, Default: true, Description: "Run the command in forge's sandbox (the default). " +
			"false runs it outside the sandbox, with all the person's rights, and always asks the person first (refused where nobody can answer): " +
			"use it only when the sandbox blocked something the task needs."},
	},
	Adopt: bashAdoptions,
}

// bashAdoptions are the arguments other agents' shell tools take that
// mean something to Bash: Claude Code's dangerouslyDisableSandbox is
// sandbox: false (which asks the person first, as it does there), and
// its false changes nothing.
var bashAdoptions = tools.Adoptions{{From: "dangerouslyDisableSandbox", Adopt: func(v any) (string, any, bool) {
	off, ok := v.(bool)
	if !ok {
		return "", nil, false
	}
	if !off {
		return "", nil, true
	}
	return tools.SandboxParam, false, true
}}}

// bashTool runs shell commands. It is safe for concurrent use.
type bashTool struct {
	described
	shell  string
	shells *shellTable // also holds the kill grace, which KillShell and Close use too
	// outputDir is where outputs too long for a result are kept whole;
	// "" is the system's temporary directory. spills are those files,
	// removed by Close.
	outputDir string
	spills    *capture.Spills
	// environ is forge's environment (os.Environ), which commands inherit
	// without its secrets (proc.Environ).
	environ func() []string
}

// The keys of tools.Bash.
var (
	bashShellKey     = cfg.StringKey("shell", "")
	bashKillGraceKey = cfg.DurationKey("kill_grace", defaultKillGrace)
	bashOutputDirKey = cfg.StringKey("output_dir", "")
)

// newBash builds Bash from its configuration: shell (a path; default bash,
// else /bin/sh), kill_grace (SIGTERM to SIGKILL, default 1s) and output_dir
// (where outputs too long for a result are kept whole; default the
// system's temporary directory).
func newBash(h *shellHolder) tools.Factory {
	return func(_ context.Context, deps tools.Deps) (tools.Tool, error) {
		shell, err := bashShellKey.Get(deps.Config)
		if err != nil {
			return nil, err
		}
		if shell == "" {
			shell = proc.Shell()
		}
		grace, err := bashKillGraceKey.Get(deps.Config)
		if err != nil {
			return nil, err
		}
		outDir, err := bashOutputDirKey.Get(deps.Config)
		if err != nil {
			return nil, err
		}
		t := h.table()
		t.setGrace(grace)
		return &bashTool{described: described{bashDescriptor}, shell: shell, shells: t, outputDir: outDir,
			spills: capture.NewSpills(outDir, bashSpillTotal), environ: os.Environ}, nil
	}
}

// Close ends every background command and removes the files that kept
// long outputs whole (Registry.Close, when forge exits).
func (b *bashTool) Close() error { return errors.Join(b.shells.Close(), b.spills.Close()) }

// CallTimeout makes the timeout argument the call's deadline; without it,
// the shorter of 120 s and the context's timeout. A background command's
// call returns at once: the context's timeout applies to starting it.
// Validated arguments carry the default (120000): it counts as not given,
// so Execute finds the same limit as the executor did from the raw ones.
func (b *bashTool) CallTimeout(ec tools.ExecutionContext, raw tools.Args) time.Duration {
	if raw.Bool("run_in_background") {
		return 0
	}
	if raw.Has("timeout") {
		if ms := raw.Int("timeout"); ms > 0 && ms != bashDefaultTimeoutMS {
			return time.Duration(ms) * time.Millisecond
		}
	}
	d := bashDefaultTimeoutMS * time.Millisecond
	if ec.Timeout > 0 && ec.Timeout < d {
		d = ec.Timeout
	}
	return d
}

// DryRun says what would run, and where.
func (b *bashTool) DryRun(ec tools.ExecutionContext, args tools.Args) string {
	dir := ec.WorkingDir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if args.Bool("run_in_background") {
		return fmt.Sprintf("Would run in background: %s (in %s)", args.String("command"), dir)
	}
	return fmt.Sprintf("Would run: %s (in %s)", args.String("command"), dir)
}

// Execute runs the command and waits for it to exit.
func (b *bashTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	command := args.String("command")
	if strings.TrimSpace(command) == "" {
		return tools.Fail("The command is empty.")
	}
	if strings.IndexByte(command, 0) >= 0 {
		return tools.Fail("The command contains a NUL byte, which no shell can run.")
	}
	dir, err := workingDir(ec)
	if err != nil {
		return tools.Fail(err.Error())
	}
	if err := ctx.Err(); err != nil {
		return notStarted(err)
	}
	env := append(proc.Environ(b.environ(), ec.PassEnv), ec.Env...)
	sb := tools.SandboxFor(b, ec, args)
	if args.Bool("run_in_background") {
		return b.background(command, dir, env, sb)
	}
	// The executor already set this deadline (CallTimeout); setting it here
	// too makes a direct call behave the same.
	limit := b.callLimit(ctx, ec, args)
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	rn := bashRun{command: command, dir: dir, env: env, sb: sb}
	if argv, ok := b.terminalLine(ec, rn); ok {
		return b.inTerminal(ctx, ec, rn, argv, limit)
	}
	return b.foreground(ctx, ec, rn, limit)
}

// bashRun is one command as Bash starts it: where, with what environment,
// and in which sandbox (nil: none).
type bashRun struct {
	command, dir string
	env          []string
	sb           tools.Sandbox
}

// workingDir is the directory commands run in: the context's, or forge's own.
func workingDir(ec tools.ExecutionContext) (string, error) {
	dir := ec.WorkingDir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("The working directory is unknown: %w", err)
		}
		return wd, nil
	}
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return "", fmt.Errorf("Working directory does not exist: %s", dir)
	}
	return dir, nil
}

// outputLimit is the byte budget of one result's output: the context's cap,
// less room for the line that says what was left out.
func outputLimit(ec tools.ExecutionContext) int {
	n := maxOutput(ec)
	if n > 256 {
		n -= 64
	}
	return n
}

// bashOutputLimit is the part of the output cap a foreground command's
// output may fill: the rest is for the lines Bash adds (what was left out,
// where the whole output is, what still runs), which the cap must not cut.
func (b *bashTool) bashOutputLimit(ec tools.ExecutionContext) int {
	n := maxOutput(ec)
	dir := b.outputDir
	if dir == "" {
		dir = os.TempDir()
	}
	return n - min(n/2, 400+len(dir))
}

// switchWriter forwards to a writer that can be replaced while a copy runs:
// a foreground command's children that outlive it keep writing, and their
// output moves from the call's buffer to a background shell.
type switchWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *switchWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *switchWriter) set(w io.Writer) {
	s.mu.Lock()
	s.w = w
	s.mu.Unlock()
}

// watched is out, with what it is given also shown to live as it comes,
// when there is a live view: whatever live does, out gets everything.
// Children adopted as a background shell stop being shown (the sink is
// switched away from this writer), and so does a call that is over.
func watched(out, live io.Writer) io.Writer {
	if live == nil {
		return out
	}
	return teeWriter{out: out, live: live}
}

type teeWriter struct{ out, live io.Writer }

func (t teeWriter) Write(p []byte) (int, error) {
	n, err := t.out.Write(p)
	_, _ = t.live.Write(p)
	return n, err
}

func (b *bashTool) foreground(ctx context.Context, ec tools.ExecutionContext, rn bashRun, limit time.Duration) tools.Result {
	start := time.Now()
	command := rn.command
	g, err := proc.StartConfined(b.shell, command, rn.dir, rn.env, rn.sb)
	if err != nil {
		return tools.Fail(fmt.Sprintf("Could not start the command: %v", err))
	}
	out := capture.NewSpill(b.bashOutputLimit(ec), b.spills, bashSpillMax)
	defer out.Close()
	sink := &switchWriter{w: watched(out, ec.LiveOutput)}
	drained := make(chan struct{})
	go func() {
		io.Copy(sink, g.Out)
		g.Out.Close()
		close(drained)
	}()

	// Wait for the shell to exit, not for the pipe to close: a background
	// child may hold the pipe for hours.
	cut := cutTimer(ctx, limit)
	defer cut.Stop()
	select {
	case <-g.Done():
	case <-cut.C:
		return b.timedOut(g, sink, out, drained, limit, start)
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return b.timedOut(g, sink, out, drained, limit, start)
		}
		return b.cancelled(g, out, start)
	}
	ex := g.Exit()

	// Read what is left, briefly.
	leftover := false
	select {
	case <-drained:
	case <-time.After(bashDrain):
		leftover = true
	}
	var note string
	if leftover || proc.Alive(g.Pgid) {
		if s, err := b.shells.adopt(command, g.Pgid, ex, drained); err == nil {
			sink.set(s.out)
			note = fmt.Sprintf("\n[Processes started by this command are still running as %s (process group %d): "+
				"read their output with BashOutput, end them with KillShell; forge ends them when it exits.]", s.id, g.Pgid)
		} else {
			proc.Terminate(g.Pgid, b.shells.killGrace())
			note = "\n[Processes started by this command were still running and have been ended: " + err.Error() + "]"
		}
	} else if leftover {
		// A process outside the group holds the pipe: stop collecting.
		sink.set(io.Discard)
	}
	out.Close()

	text := out.String()
	meta := []any{"exit_code", ex.Code, "bytes", out.Total(), "truncated", out.Truncated(), "pgid", g.Pgid, "duration_ms", time.Since(start).Milliseconds()}
	if ex.Signal != "" {
		meta = append(meta, "signal", ex.Signal)
	}
	blocked := ""
	if rn.sb != nil {
		meta = append(meta, "sandboxed", true)
		if blocked = rn.sb.Explain(text, rn.dir, start); blocked != "" {
			meta = append(meta, "sandbox_blocked", blocked)
			blocked = "\n" + blocked
		}
	}
	if fn := out.FileNote(); fn != "" {
		text = strings.TrimSuffix(text, "\n") + "\n" + fn + "\n"
		if p := out.Path(); p != "" {
			meta = append(meta, "output_file", p)
		}
	}
	switch {
	case ex.Signal != "":
		return failWithOutput(fmt.Sprintf("The command was killed by signal %s.", ex.Signal)+blocked, text+note, meta)
	case ex.Code != 0:
		return failWithOutput(fmt.Sprintf("The command failed with exit code %d.", ex.Code)+blocked, text+note, meta)
	}
	if text == "" {
		text = "(no output)"
	}
	return tools.OK(text+note+blocked, meta...)
}

// cancelled ends the process group of a command whose call was cancelled
// and returns what it printed.
func (b *bashTool) cancelled(g *proc.Group, out *capture.Spill, start time.Time) tools.Result {
	proc.Terminate(g.Pgid, b.shells.killGrace())
	ex := proc.Exit{Code: -1, Signal: "SIGKILL"}
	select {
	case <-g.Done():
		ex = g.Exit()
	case <-time.After(2 * time.Second): // SIGKILL was sent; do not hang on a stuck process
	}
	r := tools.Fail("The command was cancelled; its process group was ended.",
		"exit_code", ex.Code, "bytes", out.Total(), "truncated", out.Truncated(), "pgid", g.Pgid,
		"duration_ms", time.Since(start).Milliseconds())
	if ex.Signal != "" {
		r = r.WithMeta("signal", ex.Signal)
	}
	r.Status, r.ErrorKind = tools.StatusCancelled, tools.KindCancelled
	if text := strings.TrimRight(out.String(), "\n"); text != "" {
		r.Error = text + "\n\n" + r.Error
	}
	return r
}

// failWithOutput is a failed result whose error is the command's output
// followed by the reason, in the order of the wireframe's Execution Error
// panel. The output is in the error only (a model reads the error of a
// failed result), so that panels do not show it twice.
func failWithOutput(reason, out string, meta []any) tools.Result {
	msg := reason
	if t := strings.TrimRight(out, "\n"); t != "" {
		msg = t + "\n\n" + reason
	}
	return tools.Fail(msg, meta...)
}

// notStarted is the result of a call whose context ended before the command
// could start.
func notStarted(err error) tools.Result {
	return markStopped(tools.Fail("The command was not started: "+err.Error()+"."), err)
}

// markStopped gives r the status and error kind of a call that err (a
// context's error) ended: timed out at a deadline, cancelled otherwise.
func markStopped(r tools.Result, err error) tools.Result {
	r.Status, r.ErrorKind = tools.StatusCancelled, tools.KindCancelled
	if errors.Is(err, context.DeadlineExceeded) {
		r.Status, r.ErrorKind = tools.StatusTimedOut, tools.KindTimeout
	}
	return r
}

func (b *bashTool) background(command, dir string, env []string, sb tools.Sandbox) tools.Result {
	s, err := b.shells.start(b.shell, command, dir, env, sb)
	if err != nil {
		return tools.Fail(fmt.Sprintf("Could not start the command: %v", err))
	}
	return tools.OK(fmt.Sprintf("Command running in background with ID: %s (process group %d).\n"+
		"Read its output with BashOutput (bash_id=%s); end it with KillShell (shell_id=%s).", s.id, s.pgid, s.id, s.id),
		"bash_id", s.id, "pgid", s.pgid, "background", true)
}

// oneLine shortens s to one line of at most n characters, for listings.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
