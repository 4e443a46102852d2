//go:build unix

package builtin

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// markingSandbox wraps commands under a leader that reports their exit
// as a sandbox's first process does, marks them (IN_SANDBOX), and says
// "blocked" was blocked.
type markingSandbox struct{ wrapped int }

func (m *markingSandbox) Wrap(cmd *exec.Cmd, status *os.File) (func(), error) {
	m.wrapped++
	cmd.Env = append(cmd.Env, "IN_SANDBOX=yes")
	inner := cmd.Args
	cmd.Path = "/bin/sh"
	cmd.Args = append([]string{"sh", "-c", `"$@"; c=$?; echo "$c alone " >&3; exit $c`, "leader"}, inner...)
	cmd.ExtraFiles = append(cmd.ExtraFiles, status)
	return func() {}, nil
}

func (m *markingSandbox) ReadOnly() bool { return false }

func (m *markingSandbox) Explain(output, _ string, _ time.Time) string {
	if strings.Contains(output, "blocked") {
		return "[sandbox] something was blocked"
	}
	return ""
}

// TestBashInTheSandbox: with a sandbox in its context Bash runs the
// command in it, says so in the metadata and adds what it blocked;
// sandbox: false runs it outside; so does /run, whose context has none.
func TestBashInTheSandbox(t *testing.T) {
	b := newTestBash(t)
	sb := &markingSandbox{}
	ec := testEC(t)
	ec.Sandbox = sb
	r := b.Execute(context.Background(), ec, bashArgs("echo in=$IN_SANDBOX; exit 4"))
	if r.Success || !strings.Contains(r.Error, "in=yes") || !strings.Contains(r.Error, "exit code 4") || r.Metadata["sandboxed"] != true {
		t.Errorf("in the sandbox: %+v", r)
	}
	r = b.Execute(context.Background(), ec, bashArgs("echo blocked"))
	if !r.Success || !strings.HasSuffix(strings.TrimSpace(r.Display()), "[sandbox] something was blocked") ||
		r.Metadata["sandbox_blocked"] == nil {
		t.Errorf("a blocked command: %q %+v", r.Display(), r.Metadata)
	}
	out := bashArgs("echo in=$IN_SANDBOX")
	out[tools.SandboxParam] = false
	r = b.Execute(context.Background(), ec, out)
	if !r.Success || strings.Contains(r.Display(), "in=yes") || r.Metadata["sandboxed"] != nil {
		t.Errorf("sandbox: false: %+v", r)
	}
	bg := bashArgs("echo bg=$IN_SANDBOX")
	bg["run_in_background"] = true
	r = b.Execute(context.Background(), ec, bg)
	if got := backgroundOutput(t, b, r.Metadata["bash_id"].(string)); !strings.Contains(got, "bg=yes") {
		t.Errorf("in the background: %q", got)
	}
	if sb.wrapped != 3 {
		t.Errorf("wrapped %d commands, want 3", sb.wrapped)
	}
	if !tools.RunsConfined(b) || !tools.Describe(b).Confined {
		t.Error("Bash does not say it runs confined")
	}
}
