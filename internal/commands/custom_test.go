package commands

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/custom"
)

// Custom commands join the shell's table: /help lists them with where they
// come from, Tab completes them, and one named as a command of forge's own
// is refused with a warning naming its file.
func TestCustomCommandsInTheShell(t *testing.T) {
	var out, errb bytes.Buffer
	sh := testShell(t, &out, &errb)
	env := sh.Env()
	warns := env.SetCustom([]custom.Command{
		{Name: "review", Description: "Review a path", ArgumentHint: "[path]", Body: "Review $1",
			Source: custom.Source{Path: env.Exec.WorkingDir + "/.forge/commands/review.md", Scope: custom.ScopeProject}},
		{Name: "git:commit", Body: "Commit", Source: custom.Source{Path: "/home/u/.config/forge/commands/git/commit.md", Scope: custom.ScopeUser}},
		{Name: "tools", Body: "x", Source: custom.Source{Path: "/p/tools.md", Scope: custom.ScopeProject}},
		{Name: "quit", Body: "x", Source: custom.Source{Path: "/p/quit.md", Scope: custom.ScopeProject}},
	})
	if len(warns) != 2 || !strings.Contains(warns[0], "/p/tools.md: /tools is a command of forge's own") ||
		!strings.Contains(warns[1], "/p/quit.md") {
		t.Fatalf("warnings %q", warns)
	}
	sh = NewShell(env)
	if cands, _ := sh.Complete("/re"); !contains(cands, "/review ") {
		t.Errorf("completion of /re: %q", cands)
	}
	if cands, _ := sh.Complete("/git"); !contains(cands, "/git:commit ") {
		t.Errorf("completion of /git: %q", cands)
	}
	if cands, _ := sh.Complete("/help rev"); !contains(cands, "review ") {
		t.Errorf("completion of /help rev: %q", cands)
	}
	if code := sh.Exec(context.Background(), "/help"); code != 0 {
		t.Fatalf("/help: %d %s", code, errb.String())
	}
	help := out.String()
	for _, want := range []string{"/review [path]", "Review a path", "(custom, project .forge/commands/review.md)",
		"(custom, user /home/u/.config/forge/commands/git/commit.md)"} {
		if !strings.Contains(help, want) {
			t.Errorf("/help lacks %q:\n%s", want, help)
		}
	}
	out.Reset()
	if code := sh.Exec(context.Background(), "/help review"); code != 0 || !strings.Contains(out.String(), "Review $1") {
		t.Errorf("/help review: %d\n%s", code, out.String())
	}
	// Without an agent the command fails as a prompt would.
	errb.Reset()
	if code := sh.Exec(context.Background(), "/review src/"); code != ExitFailed || !strings.Contains(errb.String(), "no agent") {
		t.Errorf("/review without an agent: %d %q", code, errb.String())
	}
	if code := sh.Exec(context.Background(), `/review "unclosed`); code != ExitUsage {
		t.Errorf("/review with an unterminated quote: %d", code)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
