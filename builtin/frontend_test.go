package builtin

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// fakeTerminals is an editor's terminals: it records the command and
// answers as told.
type fakeTerminals struct {
	got     tools.TerminalCommand
	out     tools.TerminalResult
	wait    bool // wait for the context to end
	started chan struct{}
}

func (f *fakeTerminals) Run(ctx context.Context, c tools.TerminalCommand) (tools.TerminalResult, error) {
	f.got = c
	if f.wait {
		close(f.started)
		<-ctx.Done()
		return f.out, ctx.Err()
	}
	return f.out, nil
}

// With an editor's terminals, Bash runs its command there and words the
// end as it does its own.
func TestBashInTheEditorsTerminal(t *testing.T) {
	for _, tc := range []struct {
		name   string
		term   fakeTerminals
		cancel bool
		status tools.Status
		want   string
	}{
		{name: "ok", term: fakeTerminals{out: tools.TerminalResult{Output: "hello\n", ExitCode: 0}}, status: tools.StatusSuccess, want: "hello"},
		{name: "fails", term: fakeTerminals{out: tools.TerminalResult{Output: "boom\n", ExitCode: 2}}, status: tools.StatusFailed, want: "exit code 2"},
		{name: "signal", term: fakeTerminals{out: tools.TerminalResult{ExitCode: -1, Signal: "SIGKILL"}}, status: tools.StatusFailed, want: "signal SIGKILL"},
		{name: "unknown end", term: fakeTerminals{out: tools.TerminalResult{ExitCode: -1}}, status: tools.StatusFailed, want: "did not say"},
		{name: "cut", term: fakeTerminals{out: tools.TerminalResult{Output: "tail\n", Truncated: true}}, status: tools.StatusSuccess, want: "start of the output was cut"},
		{name: "cancelled", term: fakeTerminals{wait: true, out: tools.TerminalResult{Output: "so far\n", ExitCode: -1}}, cancel: true,
			status: tools.StatusCancelled, want: "cancelled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ec := testEC(t)
			ec.CallID = "call_7"
			ec.Terminals = &tc.term
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				tc.term.started = make(chan struct{})
				go func() { <-tc.term.started; cancel() }()
			}
			ex := tools.NewExecutor(specRegistry(t, nil, execSpecs()))
			res := ex.Execute(ctx, "Bash", ec, tools.Args{"command": "echo hello"})
			if res.Status != tc.status {
				t.Fatalf("status %s, want %s: %s %s", res.Status, tc.status, res.Output, res.Error)
			}
			if text := res.Display(); !strings.Contains(text, tc.want) {
				t.Errorf("result lacks %q:\n%s", tc.want, text)
			}
			g := tc.term.got
			if len(g.Argv) != 3 || g.Argv[1] != "-c" || g.Argv[2] != "echo hello" || g.Dir != ec.WorkingDir || g.CallID != "call_7" || g.OutputLimit <= 0 {
				t.Errorf("the terminal was given %+v", g)
			}
		})
	}
}
