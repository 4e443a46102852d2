package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm/llmtest"
)

// TestAskEndsSandboxedProcessesOnSignal: forge ask, whose model had Bash
// start processes in the sandbox that leave their group, double-fork and
// ignore SIGTERM, ends them all when it gets SIGTERM. Their pids inside
// the sandbox are not forge's, so they are found by their command lines.
func TestAskEndsSandboxedProcessesOnSignal(t *testing.T) {
	if ok, _ := scriptCondition("sandbox"); !ok {
		t.Skip("no sandbox on this machine (forge sandbox check says why)")
	}
	mark := fmt.Sprintf("%d", 40000+os.Getpid()%20000)
	command := `(setsid sh -c 'exec sleep ` + mark + `1' >/dev/null 2>&1 &); ` +
		`(sh -c 'exec sleep ` + mark + `2' >/dev/null 2>&1 &); ` +
		`sh -c 'trap "" TERM; exec sleep ` + mark + `3' >/dev/null 2>&1 & ` +
		`touch started; sleep ` + mark + `4`
	args, _ := json.Marshal(map[string]string{"command": command})
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: args}}},
		{Text: "never reached"},
	}})
	dir := t.TempDir()
	cmd := forgeCommand(t, dir, "ask", "run the script")
	cmd.Env = append(cmd.Env, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL(), "FORGE_SANDBOX_MODE=workspace-write")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil && countSleeps(mark) == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the sandboxed processes did not start: %d running\n%s", countSleeps(mark), readOutput(dir))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !sleepsConfined(mark) {
		t.Error("the command's processes are in forge's own pid namespace: not sandboxed")
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd); code != 143 {
		t.Errorf("forge ask exited with %d, want 143\n%s", code, readOutput(dir))
	}
	deadline = time.Now().Add(10 * time.Second)
	for countSleeps(mark) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d sandboxed processes outlived forge", countSleeps(mark))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sleepsConfined says the sleeps marked mark run in a pid namespace other
// than this process's.
func sleepsConfined(mark string) bool {
	own, _ := os.Readlink("/proc/self/ns/pid")
	for _, pid := range sleeps(mark) {
		if ns, err := os.Readlink("/proc/" + pid + "/ns/pid"); err != nil || ns == own {
			return false
		}
	}
	return true
}

// countSleeps counts the live sleep processes whose argument starts with
// mark.
func countSleeps(mark string) int { return len(sleeps(mark)) }

// sleeps are the pids of the live sleep processes whose argument starts
// with mark.
func sleeps(mark string) []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		st, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if strings.HasPrefix(string(b), "sleep\x00"+mark) && !strings.Contains(string(st), ") Z ") {
			out = append(out, e.Name())
		}
	}
	return out
}
