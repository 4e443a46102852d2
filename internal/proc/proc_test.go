//go:build unix

package proc

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestStartWaitExit(t *testing.T) {
	g, err := Start(Shell(), "echo hi; exit 7", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(g.Out)
	g.Out.Close()
	if ex := g.Exit(); ex.Code != 7 || ex.Signal != "" || ex.String() != "exit code 7" {
		t.Errorf("exit %+v", ex)
	}
	if string(out) != "hi\n" {
		t.Errorf("out %q", out)
	}
}

func TestTerminateGroup(t *testing.T) {
	g, err := Start(Shell(), "sleep 300 & sleep 300 & wait", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Out.Close()
	time.Sleep(50 * time.Millisecond)
	if !Alive(g.Pgid) {
		t.Fatal("group not alive")
	}
	if err := Terminate(g.Pgid, 500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	<-g.Done()
	if ex := g.Exit(); ex.Signal != "SIGTERM" || !strings.Contains(ex.String(), "killed by signal SIGTERM") {
		t.Errorf("exit %+v", ex)
	}
	deadline := time.Now().Add(2 * time.Second)
	for Alive(g.Pgid) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if Alive(g.Pgid) {
		t.Error("group survived")
	}
	// Ending a gone group is fine; pid 1 and 0 are refused.
	if err := Terminate(g.Pgid, 0); err != nil {
		t.Error(err)
	}
	if err := Terminate(1, 0); err == nil {
		t.Error("pgid 1 accepted")
	}
}

func TestStartFailure(t *testing.T) {
	if _, err := Start("/nonexistent/shell", "true", t.TempDir(), nil); err == nil {
		t.Error("missing shell accepted")
	}
}

// Start without an environment gives the command forge's, without its
// secrets; with one, exactly that one.
func TestStartEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-forge")
	t.Setenv("FORGE_TEST_PLAIN", "plain-value")
	for _, c := range []struct {
		name      string
		env       []string
		want, not []string
	}{
		{"forge's without secrets", nil, []string{"FORGE_TEST_PLAIN=plain-value"}, []string{"OPENAI_API_KEY"}},
		{"the given one", []string{"ONLY=this"}, []string{"ONLY=this"}, []string{"FORGE_TEST_PLAIN", "OPENAI_API_KEY"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := Start("/bin/sh", "env", t.TempDir(), c.env)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := io.ReadAll(g.Out)
			g.Out.Close()
			g.Exit()
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("environment lacks %q:\n%s", w, out)
				}
			}
			for _, n := range c.not {
				if strings.Contains(string(out), n) {
					t.Errorf("environment has %q", n)
				}
			}
		})
	}
}
