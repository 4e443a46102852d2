package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// fakeSandbox reports what it is given and runs nothing.
type fakeSandbox struct {
	report SandboxReport
	ran    []string
	code   int
}

func (f *fakeSandbox) Report(string) SandboxReport { return f.report }

func (f *fakeSandbox) Run(_ context.Context, _ string, argv []string, _ io.Reader, out, _ io.Writer) (int, string, error) {
	f.ran = argv
	io.WriteString(out, "ran "+strings.Join(argv, " ")+"\n")
	if f.code != 0 {
		return f.code, "[sandbox] the fake blocked it", nil
	}
	return 0, "", nil
}

func TestSandboxCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		report SandboxReport
		code   int
		want   []string
	}{
		{"confined", SandboxReport{Mode: "workspace-write", Mechanism: "Linux namespaces", Writable: []string{"/p", "/tmp"},
			ReadOnly: []string{"/p/.git/hooks"}, Hidden: []string{"/h/.ssh"}, Hosts: []string{}}, ExitOK,
			[]string{"Sandbox: workspace-write, by Linux namespaces", "Writable:\n  /p\n  /tmp", "Read-only inside them:\n  /p/.git/hooks",
				"Hidden:\n  /h/.ssh", "Network (through forge's proxy): none"}},
		{"unavailable", SandboxReport{Mode: "workspace-write", Unavailable: "no user namespaces"}, ExitFailed,
			[]string{"none on this machine: no user namespaces", "Bash asks before each one"}},
		{"off", SandboxReport{Mode: "off"}, ExitOK, []string{"Sandbox: off"}},
		{"read-only", SandboxReport{Mode: "read-only", Mechanism: "m", Scratch: []string{"/tmp"}, Hosts: []string{"go.dev"}}, ExitOK,
			[]string{"Private copies (writes vanish):\n  /tmp", "Network (through forge's proxy):\n  go.dev"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			sh := testShell(t, &out, &errOut)
			sh.env.Sandbox = &fakeSandbox{report: tc.report}
			if code := sh.Exec(context.Background(), "/sandbox check"); code != tc.code {
				t.Errorf("exit %d, want %d; %s", code, tc.code, errOut.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
	var out bytes.Buffer
	sh := testShell(t, &out, &bytes.Buffer{})
	sh.env.Output = "json"
	sh.env.Sandbox = &fakeSandbox{report: SandboxReport{Mode: "workspace-write", Mechanism: "m", Writable: []string{"/p"}}}
	sh.Exec(context.Background(), "/sandbox")
	var v struct {
		Sandbox SandboxReport `json:"sandbox"`
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || v.Sandbox.Mechanism != "m" || v.Sandbox.Writable[0] != "/p" {
		t.Errorf("JSON %q: %v", out.String(), err)
	}
}

func TestSandboxRun(t *testing.T) {
	var out, errOut bytes.Buffer
	sh := testShell(t, &out, &errOut)
	fake := &fakeSandbox{code: 1}
	sh.env.Sandbox = fake
	if code := sh.Exec(context.Background(), "/sandbox run -- sh -c 'touch /x'"); code != ExitFailed {
		t.Errorf("exit %d", code)
	}
	if strings.Join(fake.ran, "|") != "sh|-c|touch /x" || !strings.Contains(errOut.String(), "[sandbox] the fake blocked it") {
		t.Errorf("ran %q; stderr %q", fake.ran, errOut.String())
	}
	if code := sh.Exec(context.Background(), "/sandbox run --"); code != ExitUsage {
		t.Errorf("no command: exit %d", code)
	}
	sh.env.Sandbox = nil
	if code := sh.Exec(context.Background(), "/sandbox check"); code != ExitFailed {
		t.Errorf("no sandbox control: exit %d", code)
	}
}
