package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/proc"
	"github.com/forgehq/forge/internal/tools"
)

// maxStderr bounds what is kept of a plugin's standard error.
const maxStderr = 64 << 10

// waitDelay is how long forge waits for a plugin's pipes to close after
// the plugin exited or was killed (a grandchild may hold them open).
const waitDelay = 500 * time.Millisecond

// Plugin is the tool a manifest describes. It holds no process between
// calls: every call runs the command afresh.
type Plugin struct {
	m *Manifest
	// passEnv are the secret-looking variables of forge's environment the
	// command inherits all the same (Manager's WithPassEnv).
	passEnv []string
}

// Manifest returns the plugin's manifest.
func (p *Plugin) Manifest() *Manifest { return p.m }

// Name returns the manifest's name.
func (p *Plugin) Name() string { return p.m.Name }

// Description returns the manifest's description.
func (p *Plugin) Description() string { return p.m.Description }

// Category returns the manifest's category (other when not given).
func (p *Plugin) Category() tools.Category { return p.m.Category }

// Parameters returns the manifest's parameters: the executor validates the
// arguments against them before Execute.
func (p *Plugin) Parameters() []tools.Parameter { return p.m.Parameters }

// IsReadOnly returns the manifest's read_only: the plugin's own word that
// it changes nothing.
func (p *Plugin) IsReadOnly() bool { return p.m.ReadOnly }

// RunsConfined says the plugin's command runs in the sandbox of the
// call's execution context, when it has one (the agent's calls).
func (p *Plugin) RunsConfined() bool { return true }

// CallTimeout returns the manifest's timeout; 0 means the context's.
func (p *Plugin) CallTimeout(tools.ExecutionContext, tools.Args) time.Duration { return p.m.Timeout }

// DryRun says what would run, without running it.
func (p *Plugin) DryRun(ec tools.ExecutionContext, args tools.Args) string {
	b, _ := json.Marshal(args)
	return fmt.Sprintf("Would run plugin %s (%s) with %s", p.m.Name, strings.Join(p.m.Command, " "), b)
}

// program resolves the command's program: a path with a separator is
// relative to the manifest's directory, a bare name is looked up in PATH.
func (p *Plugin) program() (string, error) {
	prog := p.m.Command[0]
	if !strings.ContainsRune(prog, filepath.Separator) && !strings.ContainsRune(prog, '/') {
		return exec.LookPath(prog)
	}
	if !filepath.IsAbs(prog) {
		prog = filepath.Join(p.m.Dir, prog)
	}
	abs, err := filepath.Abs(prog)
	if err != nil {
		return "", err
	}
	return abs, nil
}

// Execute runs the command once (the protocol, documented in
// docs/extending.md):
//
//   - standard input is the arguments as one JSON object, validated and
//     with defaults applied;
//   - the working directory is the execution context's;
//   - the environment is forge's without the variables whose names look
//     secret (KEY, TOKEN, SECRET, PASSWORD; proc.Environ) except those the
//     configuration passes on, plus FORGE_PLUGIN (the tool's name),
//     FORGE_PLUGIN_DIR (the manifest's directory), FORGE_WORKING_DIR,
//     FORGE_SESSION_ID, FORGE_ARGS (the same JSON as standard input) and,
//     for shell scripts, FORGE_ARG_<NAME> for each argument (the name
//     upper-cased, other characters as _; a string as it is, any other
//     value as JSON); a value over 32 KiB is on standard input only;
//   - the command runs in its own process group, killed as a whole when the
//     call times out or is cancelled, and when the command has exited (so
//     nothing it started outlives the call);
//   - standard output is read up to the output cap; when it is a JSON object
//     with only the keys output, error and metadata, it is the result
//     ({"output": ..., "error": "...", "metadata": {...}}; a non-empty error
//     fails the call); otherwise it is the output, as text;
//   - a non-zero exit status fails the call, with standard error (its
//     first 64 KiB) in the message;
//   - standard error is also the call's live output as it is written.
func (p *Plugin) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	prog, err := p.program()
	if err != nil {
		return tools.Fail(fmt.Sprintf("Plugin %s: cannot run %s: %v", p.m.Name, p.m.Command[0], err), "manifest", p.m.Path)
	}
	if args == nil {
		args = tools.Args{}
	}
	input, err := json.Marshal(args)
	if err != nil {
		return tools.Fail(fmt.Sprintf("Plugin %s: cannot encode arguments: %v", p.m.Name, err))
	}
	limit := ec.MaxOutputSize
	if limit <= 0 {
		limit = tools.DefaultMaxOutputSize
	}
	// Room for the JSON envelope around an output of the full size.
	stdout := &capped{limit: limit + limit/4 + 4096}
	stderr := &capped{limit: maxStderr}

	cmd := exec.CommandContext(ctx, prog, p.m.Command[1:]...)
	cmd.Dir = ec.WorkingDir
	cmd.Stdin = bytes.NewReader(input)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if ec.LiveOutput != nil {
		// Standard error is where a plugin says how far it has got: shown
		// as it comes (the running call's line, progress to an MCP client).
		cmd.Stderr = io.MultiWriter(stderr, ec.LiveOutput)
	}
	cmd.Env = p.env(ec, args, input)
	cmd.WaitDelay = waitDelay
	// A group (and session) of its own: cancellation ends the whole group,
	// so a plugin that is a shell pipeline stops entirely.
	cmd.SysProcAttr = proc.GroupAttr()
	cmd.Cancel = func() error { return proc.Terminate(cmd.Process.Pid, 0) }
	if ec.Sandbox != nil {
		release, err := ec.Sandbox.Wrap(cmd, nil)
		if err != nil {
			return tools.Fail(fmt.Sprintf("Plugin %s: cannot run in the sandbox: %v", p.m.Name, err))
		}
		defer release()
	}

	start := time.Now()
	err = cmd.Run()
	if cmd.Process != nil {
		_ = proc.Terminate(cmd.Process.Pid, 0) // stragglers: nothing outlives the call
	}
	elapsed := time.Since(start)
	if ctx.Err() != nil {
		// The executor reports the timeout or cancellation; this result is
		// for callers holding the tool directly.
		r := tools.Fail(fmt.Sprintf("Plugin %s stopped: %v", p.m.Name, context.Cause(ctx)))
		r.Status, r.ErrorKind = tools.StatusCancelled, tools.KindCancelled
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			r.Status, r.ErrorKind = tools.StatusTimedOut, tools.KindTimeout
		}
		return r
	}
	r := p.result(err, stdout, stderr, limit, elapsed)
	if ec.Sandbox != nil {
		// Also after a success: what the sandbox set aside is told then.
		if hint := ec.Sandbox.Explain(stderr.String(), ec.WorkingDir, start); hint != "" {
			if out, ok := r.Output.(string); ok && r.Success {
				r.Output = strings.TrimSuffix(out, "\n") + "\n" + hint
			} else if !r.Success {
				r.Error += "\n" + hint
			}
			r = r.WithMeta("sandbox_blocked", hint)
		}
	}
	return r
}

// result turns what the process did into a Result.
func (p *Plugin) result(runErr error, stdout, stderr *capped, limit int, elapsed time.Duration) tools.Result {
	reply := parseReply(stdout.Bytes())
	meta := map[string]any{"plugin": p.m.Name, "command_ms": elapsed.Milliseconds()}
	for k, v := range reply.Metadata {
		meta[k] = v
	}
	errText := strings.TrimSpace(stderr.String())
	if stderr.dropped > 0 {
		errText += fmt.Sprintf("\n... [stderr truncated: %d bytes dropped]", stderr.dropped)
	}
	if runErr != nil {
		var exit *exec.ExitError
		msg := ""
		if errors.As(runErr, &exit) {
			meta["exit_code"] = exit.ExitCode()
			msg = fmt.Sprintf("Plugin %s failed with exit status %d", p.m.Name, exit.ExitCode())
			if exit.ExitCode() < 0 {
				msg = fmt.Sprintf("Plugin %s was killed: %v", p.m.Name, exit)
			}
		} else if errors.Is(runErr, exec.ErrWaitDelay) {
			// The command exited 0 but something it started kept the pipes
			// open; the group was killed. The output read so far stands.
			runErr = nil
		} else {
			msg = fmt.Sprintf("Plugin %s could not run: %v", p.m.Name, runErr)
		}
		if runErr != nil {
			if reply.Error != "" {
				msg += ": " + reply.Error
			}
			if errText != "" {
				msg += "\n" + errText
				meta["stderr"] = errText
			}
			r := tools.Fail(msg)
			r.Metadata = meta
			r.Output = reply.Output
			return r
		}
	}
	if errText != "" {
		meta["stderr"] = errText
	}
	if reply.Error != "" {
		r := tools.Fail(reply.Error)
		r.Metadata, r.Output = meta, reply.Output
		return r
	}
	out := reply.Output
	if s, ok := out.(string); ok && (len(s) > limit || stdout.dropped > 0) {
		dropped := stdout.dropped
		if len(s) > limit {
			dropped += int64(len(s) - limit)
			s = s[:limit]
		}
		out = s + fmt.Sprintf("\n... [output truncated: %d bytes dropped]", dropped)
		meta["truncated"] = true
	}
	r := tools.OK(out)
	r.Metadata = meta
	return r
}

// maxArgsEnv bounds FORGE_ARGS: the kernel refuses larger single strings
// in the environment (128 KiB on Linux), and a huge environment slows exec.
const maxArgsEnv = 32 << 10

// env is the command's environment: forge's without its secrets, plus the
// FORGE_* variables Execute describes.
func (p *Plugin) env(ec tools.ExecutionContext, args tools.Args, input []byte) []string {
	env := append(proc.Environ(os.Environ(), p.passEnv),
		"FORGE_PLUGIN="+p.m.Name,
		"FORGE_PLUGIN_DIR="+p.m.Dir,
		"FORGE_WORKING_DIR="+ec.WorkingDir,
		"FORGE_SESSION_ID="+ec.SessionID,
	)
	if len(input) <= maxArgsEnv && !bytes.ContainsRune(input, 0) {
		env = append(env, "FORGE_ARGS="+string(input))
	}
	for _, name := range slices.Sorted(maps.Keys(args)) {
		var val string
		if s, ok := args[name].(string); ok {
			val = s
		} else {
			b, err := json.Marshal(args[name])
			if err != nil {
				continue
			}
			val = string(b)
		}
		if len(val) > maxArgsEnv || strings.ContainsRune(val, 0) {
			continue
		}
		env = append(env, "FORGE_ARG_"+envName(name)+"="+val)
	}
	return env
}

// envName turns a parameter name into an environment variable suffix.
func envName(name string) string {
	b := []byte(strings.ToUpper(name))
	for i, c := range b {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

// capped is an io.Writer that keeps the first limit bytes and counts the
// rest, so that a chatty plugin can neither exhaust memory nor block on a
// full pipe.
type capped struct {
	buf     bytes.Buffer
	limit   int
	dropped int64
}

func (c *capped) Write(b []byte) (int, error) {
	room := c.limit - c.buf.Len()
	if room >= len(b) {
		return c.buf.Write(b)
	}
	if room > 0 {
		c.buf.Write(b[:room])
	}
	c.dropped += int64(len(b) - max(room, 0))
	return len(b), nil
}

func (c *capped) Bytes() []byte  { return c.buf.Bytes() }
func (c *capped) String() string { return c.buf.String() }
