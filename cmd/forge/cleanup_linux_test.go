package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm/llmtest"
)

// escapees is a Bash command whose processes try every way out of the
// command's process group: p1 calls setsid (a session and group of its
// own), p2 is double-forked (its parent exits, so it is reparented), p3
// ignores SIGTERM (so does the sleep it runs). Each writes its pid to a
// file of that name. The command then waits, unless tail is given.
const escapees = `echo $$ > p0; ` +
	`(setsid sh -c 'echo $$ > p1; exec sleep 300' >/dev/null 2>&1 &); ` +
	`(sh -c 'echo $$ > p2; exec sleep 300' >/dev/null 2>&1 &); ` +
	`sh -c 'trap "" TERM; echo $$ > p3; while :; do sleep 1; done' >/dev/null 2>&1 & `

// escapeePids are the files escapees writes.
var escapeePids = []string{"p0", "p1", "p2", "p3"}

// TestForgeEndsToolProcessesOnSignal runs Bash on a command whose processes
// escape its group, in forge's modes (forge run, forge -c, a script on
// standard input), sends forge a signal while the command runs, and checks
// that forge exits with 128+signal (SIGINT: the cancelled status, also 130)
// and that none of the processes outlives it.
func TestForgeEndsToolProcessesOnSignal(t *testing.T) {
	const script = "/run Bash command='sh escape.sh'"
	for _, c := range []struct {
		name  string
		args  []string
		stdin string
		sig   syscall.Signal
		code  int
	}{
		{"run/SIGTERM", []string{"run", "Bash", "command=" + escapees + "sleep 300"}, "", syscall.SIGTERM, 143},
		{"run/SIGHUP", []string{"run", "Bash", "command=" + escapees + "sleep 300"}, "", syscall.SIGHUP, 129},
		{"run/SIGINT", []string{"run", "Bash", "command=" + escapees + "sleep 300"}, "", syscall.SIGINT, 130},
		{"-c/SIGTERM", []string{"-c", script}, "", syscall.SIGTERM, 143},
		{"stdin/SIGTERM", nil, script + "\n", syscall.SIGTERM, 143},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "escape.sh"), []byte(escapees+"sleep 300\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := forgeCommand(t, dir, c.args...)
			if c.stdin != "" {
				cmd.Stdin = strings.NewReader(c.stdin)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pids := waitPidFiles(t, dir, escapeePids)
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			if code := waitExit(t, cmd); code != c.code {
				t.Errorf("forge exited with %d, want %d\n%s", code, c.code, readOutput(dir))
			}
			waitAllGone(t, pids)
		})
	}
}

// TestForgeEndsToolProcessesAtExit: processes a command left behind end when
// forge exits by itself, the ones that left the group too.
func TestForgeEndsToolProcessesAtExit(t *testing.T) {
	dir := t.TempDir()
	// The command waits for its escapees to write their pids: forge ends
	// them as soon as it exits.
	cmd := forgeCommand(t, dir, "run", "Bash", "command="+escapees+
		"while ! [ -s p1 ] || ! [ -s p2 ] || ! [ -s p3 ]; do sleep 0.05; done; echo done")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd); code != 0 {
		t.Fatalf("forge exited with %d\n%s", code, readOutput(dir))
	}
	waitAllGone(t, readPidFiles(t, dir, escapeePids))
}

// forgeCommand is the forge binary (the test binary as testscript puts it
// on PATH) running args in dir, with its output in a file there: a pipe
// would keep cmd.Wait waiting for processes that hold it.
func forgeCommand(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	bin, err := exec.LookPath("forge")
	if err != nil {
		t.Skipf("forge is not on PATH: %v", err)
	}
	out, err := os.Create(filepath.Join(dir, "forge.out"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "NO_COLOR=1", "FORGE_SANDBOX_MODE=off",
		"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	cmd.Stdout, cmd.Stderr = out, out
	t.Cleanup(func() {
		if cmd.Process != nil && cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd
}

func readOutput(dir string) string {
	b, _ := os.ReadFile(filepath.Join(dir, "forge.out"))
	return string(b)
}

// waitPidFiles waits until the command has written every pid file.
func waitPidFiles(t *testing.T, dir string, names []string) []int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if pids, ok := tryPidFiles(dir, names); ok {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command did not write its pid files\n%s", readOutput(dir))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func readPidFiles(t *testing.T, dir string, names []string) []int {
	t.Helper()
	pids, ok := tryPidFiles(dir, names)
	if !ok {
		t.Fatalf("missing pid files\n%s", readOutput(dir))
	}
	return pids
}

func tryPidFiles(dir string, names []string) ([]int, bool) {
	var pids []int
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil || !strings.HasSuffix(string(b), "\n") {
			return nil, false
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			return nil, false
		}
		pids = append(pids, pid)
	}
	return pids, true
}

// waitExit waits for forge to exit and returns its status (-1 when a
// signal killed it).
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode()
	case <-time.After(30 * time.Second):
		t.Fatal("forge did not exit")
	}
	return 0
}

// waitAllGone fails unless every process soon is gone (or a zombie: dead,
// waiting for a parent that may never reap it in a container).
func waitAllGone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var alive []int
		for _, pid := range pids {
			if running(pid) {
				alive = append(alive, pid)
			}
		}
		if len(alive) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range pids { // do not leave them to the next test
				_ = syscall.Kill(-pid, syscall.SIGKILL)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Fatalf("processes %v outlived forge", alive)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// running reports whether pid is a live process (not a zombie).
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return false
	}
	return s[i+2] != 'Z' && s[i+2] != 'X'
}

// The interactive shell: SIGTERM while a command runs ends forge with the
// terminal restored and none of the command's processes left.
func TestInteractiveSIGTERMEndsToolProcesses(t *testing.T) {
	tm, before := startForge(t)
	tm.expect(`forge> *$`)
	dir := tm.cmd.Dir
	if err := os.WriteFile(filepath.Join(dir, "escape.sh"), []byte(escapees+"sleep 300\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm.send("/run Bash command='sh escape.sh'\r")
	pids := waitPidFiles(t, dir, escapeePids)
	if err := tm.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := tm.wait(); code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit status %d, want %d", code, 128+int(syscall.SIGTERM))
	}
	tm.assertRestored(before)
	waitAllGone(t, pids)
}

// TestAskEndsToolProcessesOnSignal: forge ask, whose model had Bash start
// processes that escape their group, ends them all when it gets SIGTERM.
func TestAskEndsToolProcessesOnSignal(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: json.RawMessage(`{"command": "sh escape.sh"}`)}}},
		{Text: "never reached"},
	}})
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "escape.sh"), []byte(escapees+"sleep 300\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := forgeCommand(t, dir, "ask", "--approval", "yolo", "run the script")
	cmd.Env = append(cmd.Env, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids := waitPidFiles(t, dir, escapeePids)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd); code != 143 {
		t.Errorf("forge ask exited with %d, want 143\n%s", code, readOutput(dir))
	}
	waitAllGone(t, pids)
}

// TestMCPServeEndsToolProcesses: forge mcp serve, whose client had Bash
// start processes that escape their group, ends them all when it gets
// SIGTERM and when its client hangs up (closes forge's standard input).
func TestMCPServeEndsToolProcesses(t *testing.T) {
	for _, c := range []struct {
		name string
		stop func(cmd *exec.Cmd, stdin io.Closer) error
		code int
	}{
		{"SIGTERM", func(cmd *exec.Cmd, _ io.Closer) error { return cmd.Process.Signal(syscall.SIGTERM) }, 143},
		{"client hangs up", func(_ *exec.Cmd, stdin io.Closer) error { return stdin.Close() }, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "escape.sh"), []byte(escapees+"sleep 300\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			// yolo: the command runs even where no sandbox can be built.
			cmd := forgeCommand(t, dir, "mcp", "serve", "--tools", "Bash", "--approval", "yolo")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for _, msg := range []string{
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`,
				`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"Bash","arguments":{"command":"sh escape.sh"}}}`,
			} {
				if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
					t.Fatal(err)
				}
			}
			pids := waitPidFiles(t, dir, escapeePids)
			if err := c.stop(cmd, stdin); err != nil {
				t.Fatal(err)
			}
			if code := waitExit(t, cmd); code != c.code {
				t.Errorf("forge mcp serve exited with %d, want %d\n%s", code, c.code, readOutput(dir))
			}
			waitAllGone(t, pids)
		})
	}
}
