//go:build linux || darwin

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"golang.org/x/term"
)

// expectTimeout is generous: CI machines are small and busy.
const expectTimeout = 20 * time.Second

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Za-z0-9]|\x1b[=>]|\r| ?\x08`)

// terminal is forge running on a pseudo-terminal, with an expect helper
// over everything it printed.
type terminal struct {
	t    *testing.T
	ptmx *os.File
	tty  *os.File
	cmd  *exec.Cmd
	done chan error

	mu   sync.Mutex
	out  bytes.Buffer
	seen int // the part of out that expect has consumed
}

// startForge runs the forge binary (the test binary under the name testscript
// gives it on $PATH) on a new 40x100 pseudo-terminal, in its own session
// with that terminal as its controlling terminal.
func startForge(t *testing.T, env ...string) (*terminal, *term.State) {
	t.Helper()
	return startForgeWith(t, nil, env...)
}

// startForgeWith is startForge in a directory that also holds files, by
// slash-separated path.
func startForgeWith(t *testing.T, files map[string]string, env ...string) (*terminal, *term.State) {
	t.Helper()
	dir := t.TempDir()
	if files == nil {
		files = map[string]string{}
	}
	files["hello.txt"] = "Hello, World!\n"
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return startForgeIn(t, dir, env...)
}

// startForgeIn runs forge in dir as startForge does.
func startForgeIn(t *testing.T, dir string, env ...string) (*terminal, *term.State) {
	t.Helper()
	bin, err := exec.LookPath("forge")
	if err != nil {
		t.Skipf("forge is not on PATH: %v", err)
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 100}); err != nil {
		t.Fatalf("setsize: %v", err)
	}
	before, err := term.GetState(int(tty.Fd()))
	if err != nil {
		t.Fatalf("terminal state: %v", err)
	}
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "NO_COLOR=1", "TERM=xterm", "FORGE_SANDBOX_MODE=off",
		"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start forge: %v", err)
	}
	tm := &terminal{t: t, ptmx: ptmx, tty: tty, cmd: cmd, done: make(chan error, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			tm.mu.Lock()
			tm.out.Write(buf[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() { tm.done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-tm.done
		}
		ptmx.Close()
		tty.Close()
	})
	return tm, before
}

// screen returns what forge printed, escapes and carriage returns removed.
func (tm *terminal) screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return ansi.ReplaceAllString(tm.out.String(), "")
}

// expect waits until the output after the last match matches re.
func (tm *terminal) expect(re string) {
	tm.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(expectTimeout)
	for {
		tm.mu.Lock()
		raw := tm.out.String()
		tm.mu.Unlock()
		if tm.seen > len(raw) {
			tm.seen = len(raw)
		}
		text := ansi.ReplaceAllString(raw[tm.seen:], "")
		if rx.MatchString(text) {
			// Consume up to the end of the raw output seen so far: later
			// expectations look at what comes next.
			tm.seen = len(raw)
			return
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for %q; output since last match:\n%s\nraw tail: %q", re, text, raw[max(0, len(raw)-80):])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (tm *terminal) send(s string) {
	tm.t.Helper()
	if _, err := tm.ptmx.Write([]byte(s)); err != nil {
		tm.t.Fatalf("write to terminal: %v", err)
	}
}

// wait waits for forge to exit and returns its status.
func (tm *terminal) wait() int {
	tm.t.Helper()
	select {
	case err := <-tm.done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return 128 + int(ws.Signal())
			}
			return ee.ExitCode()
		}
		if err != nil {
			tm.t.Fatalf("wait: %v", err)
		}
		return 0
	case <-time.After(expectTimeout):
		tm.t.Fatalf("forge did not exit; output:\n%s", tm.screen())
		return -1
	}
}

// assertRestored checks the terminal is in the state it was in before forge.
func (tm *terminal) assertRestored(before *term.State) {
	tm.t.Helper()
	after, err := term.GetState(int(tm.tty.Fd()))
	if err != nil {
		tm.t.Fatalf("terminal state: %v", err)
	}
	if *after != *before {
		tm.t.Errorf("terminal not restored:\nbefore %+v\nafter  %+v", *before, *after)
	}
}

// The REPL on a terminal: a command and its panel, Tab completion, Ctrl-C
// cancelling a running tool, Ctrl-C at the prompt, Ctrl-D leaving with the
// terminal as it was.
func TestInteractiveShell(t *testing.T) {
	tm, before := startForge(t)
	tm.expect(`forge> *$`)

	tm.send("/run calculator operation=add a=2 b=3\r")
	tm.expect(`(?s)Status: ✓ Success.*│ 5 .*forge> *$`)

	// Tab completes the tool name (and adds a space), then the parameter.
	tm.send("/run Rea\t")
	tm.expect(`/run Read *$`)
	tm.send("fi\t")
	tm.expect(`file_path= *$`)
	tm.send("hello.txt\r")
	tm.expect(`(?s)Tool: Read.*Hello, World!.*forge> *$`)

	// Ctrl-C at the prompt drops the line.
	tm.send("/run this is dropped\x03")
	tm.expect(`\^C`)
	tm.send("/context\r")
	tm.expect(`(?s)Execution Context.*forge> *$`)
	if strings.Contains(tm.screen(), "this is dropped\n") {
		t.Errorf("the interrupted line ran")
	}

	// Ctrl-C while a tool runs cancels the tool; the shell stays. The
	// first ^C may arrive before the tool has started, so send it until
	// the cancelled panel shows.
	tm.send("/run Bash command=\"sleep 30\"\r")
	cancelled := regexp.MustCompile(`Cancelled`)
	deadline := time.Now().Add(expectTimeout)
	for !cancelled.MatchString(tm.screen()) {
		if time.Now().After(deadline) {
			t.Fatalf("no cancelled panel; output:\n%s", tm.screen())
		}
		time.Sleep(300 * time.Millisecond)
		tm.send("\x03")
	}
	tm.expect(`(?s)Cancelled.*forge> *$`)

	// ask_question reads its answer through the same line editor.
	tm.send("/run ask_question question=\"Your name?\"\r")
	tm.expect(`Your name\?(.|\n)*\? *$`)
	tm.send("Ada\r")
	tm.expect(`(?s)Tool: ask_question.*│ Ada .*forge> *$`)

	tm.send("/set dry_run true\r")
	tm.expect(`forge \[dry-run\]> *$`)

	tm.send("\x04") // Ctrl-D
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d, want 0; output:\n%s", code, tm.screen())
	}
	tm.assertRestored(before)

	hist := filepath.Join(tm.cmd.Dir, "state", "forge", "history")
	b, err := os.ReadFile(hist)
	if err != nil || !strings.Contains(string(b), "/context") {
		t.Errorf("history file %s: %q, %v", hist, b, err)
	}
	if strings.Contains(string(b), "Ada") {
		t.Errorf("an answer to a tool's question went into the history: %q", b)
	}
}

// SIGTERM at the prompt ends forge with the terminal restored, bracketed
// paste off.
func TestInteractiveSIGTERMRestoresTerminal(t *testing.T) {
	tm, before := startForge(t)
	tm.expect(`forge> *$`)
	if err := tm.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := tm.wait(); code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit status %d, want %d", code, 128+int(syscall.SIGTERM))
	}
	tm.assertRestored(before)
	tm.assertPasteOff()
}

// The agent on a terminal: a prompt streams its answer, an edit is put to
// the person with its diff and applied on y, and Ctrl-C cancels a running
// call and returns to the prompt with the conversation intact.
func TestInteractiveAgent(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: "Reading.", ToolCalls: []llmtest.ToolCall{{Name: "Edit",
			Arguments: json.RawMessage(`{"file_path": "hello.txt", "old_string": "World", "new_string": "forge"}`)}}},
		{Text: "Changed **World** to forge."},
		{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: json.RawMessage(`{"command": "sleep 30"}`)}}},
		{Text: "Still here."},
	}})
	tm, before := startForge(t, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL(), "FORGE_APPROVAL=ask")
	tm.expect(`prompt to openai \(gpt-5-mini\)\.(.|\n)*forge> *$`)
	tm.send("greet the world\r")
	tm.expect(`(?s)Allow Edit\?.*-Hello, World!.*\+Hello, forge!.*\[y\] yes, once.*\? *$`)
	tm.send("y\r")
	tm.expect(`(?s)Changed (\*\*)?World(\*\*)? to forge\..*forge> *$`)
	b, err := os.ReadFile(filepath.Join(tm.cmd.Dir, "hello.txt"))
	if err != nil || string(b) != "Hello, forge!\n" {
		t.Errorf("hello.txt = %q, %v", b, err)
	}
	tm.send("wait a while\r")
	tm.expect(`(?s)Allow Bash\?.*sleep 30.*\? *$`)
	tm.send("y\r")
	// Whether ^C comes while the call runs or just before, it is cancelled.
	time.Sleep(300 * time.Millisecond)
	tm.send("\x03")
	tm.expect(`(?s)⊘ Bash\(sleep 30\): cancelled.*forge> *$`)
	tm.send("are you there?\r")
	tm.expect(`(?s)Still here\..*forge> *$`)
	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d; output:\n%s", code, tm.screen())
	}
	tm.assertRestored(before)
	if f := srv.Failures(); len(f) > 0 {
		t.Errorf("the fake provider failed: %v", f)
	}
}

// On a terminal, the approval question shows the real change of an edit to
// a CRLF file, and a long change cut short with [s] show all: s prints
// every line and asks again, n refuses and writes nothing.
func TestInteractiveApprovalShowAll(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&long, "generated line %d\n", i)
	}
	write, err := json.Marshal(map[string]string{"file_path": "long.txt", "content": long.String()})
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{Name: "Edit",
			Arguments: json.RawMessage(`{"file_path": "crlf.txt", "old_string": "two\nthree", "new_string": "2\n3"}`)}}},
		{Text: "Edited."},
		{ToolCalls: []llmtest.ToolCall{{Name: "Write", Arguments: write}}},
		{Text: "Not written, then."},
	}})
	tm, before := startForgeWith(t, map[string]string{"crlf.txt": "one\r\ntwo\r\nthree\r\n"},
		"FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL(), "FORGE_APPROVAL=ask")
	tm.expect(`forge> *$`)
	tm.send("fix the numbers\r")
	tm.expect(`(?s)Allow Edit\?.*-two\n *-three\n *\+2\n *\+3\n.*\[y\] yes, once.*\[n\] no\s+\[t\] no, and tell the model why\n\? *$`)
	tm.send("y\r")
	tm.expect(`(?s)Edited\..*forge> *$`)
	if b, err := os.ReadFile(filepath.Join(tm.cmd.Dir, "crlf.txt")); err != nil || string(b) != "one\r\n2\r\n3\r\n" {
		t.Errorf("crlf.txt = %q, %v", b, err)
	}
	tm.send("write a long file\r")
	tm.expect(`(?s)Allow Write\?.*\+generated line 57\n *… 43 more lines: \[s\] shows all\n.*\[s\] show all +\[n\] no\s+\[t\][^\n]*\n\? *$`)
	tm.send("s\r")
	tm.expect(`(?s)Allow Write\?.*\+generated line 58\n.*\+generated line 100\n[^+]*\[y\] yes, once +\[a\] always[^\[]*\[A\][^\[]*\[n\] no\s+\[t\][^\n]*\n\? *$`)
	if strings.Contains(tm.screen()[strings.LastIndex(tm.screen(), "Allow Write?"):], "[s]") {
		t.Errorf("the question with every line still offers show all:\n%s", tm.screen())
	}
	tm.send("n\r")
	tm.expect(`(?s)denied by you.*Not written, then\..*forge> *$`)
	if _, err := os.Stat(filepath.Join(tm.cmd.Dir, "long.txt")); err == nil {
		t.Error("long.txt was written after n")
	}
	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d; output:\n%s", code, tm.screen())
	}
	tm.assertRestored(before)
	if f := srv.Failures(); len(f) > 0 {
		t.Errorf("the fake provider failed: %v", f)
	}
}

// On a terminal, forge asks once whether to trust a project whose settings
// widen what it may do; yes applies them and is remembered.
func TestInteractiveTrustQuestion(t *testing.T) {
	tm, _ := startForgeWith(t, map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".forge/config.yaml": "approval: yolo\n"})
	tm.expect(`asks for more than forge allows by default:\s+approval: yolo\s+Trust .* and apply them\? .*\[y/N\] *$`)
	tm.send("y\r")
	tm.expect(`forge \[yolo\]> *$`)
	tm.send("/config\r")
	tm.expect(`(?s)\(trusted\).*approval +yolo +project file\s.*forge \[yolo\]> *$`)
	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d; output:\n%s", code, tm.screen())
	}
	b, err := os.ReadFile(filepath.Join(tm.cmd.Dir, "state", "forge", "trusted.json"))
	if err != nil || !strings.Contains(string(b), tm.cmd.Dir) {
		t.Errorf("trust was not remembered: %q, %v", b, err)
	}
}

// Refusing trust says so and goes on without the project's settings;
// Ctrl-C at the question says nothing was trusted and ends forge with
// 130. Neither is remembered.
func TestInteractiveTrustQuestionRefused(t *testing.T) {
	files := map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".forge/config.yaml": "approval: yolo\n"}
	tm, _ := startForgeWith(t, files)
	tm.expect(`\[y/N\] *$`)
	tm.send("n\r")
	tm.expect(`(?s)Not trusted: forge goes on without the settings above\. To apply them later, run: forge trust \S+\n.*forge> *$`)
	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d; output:\n%s", code, tm.screen())
	}

	again, before := startForgeIn(t, tm.cmd.Dir)
	again.expect(`\[y/N\] *$`)
	again.send("\x03")
	again.expect(`\nInterrupted: nothing was trusted, and forge did not start\.\n`)
	if code := again.wait(); code != 130 {
		t.Errorf("exit status %d after Ctrl-C, want 130; output:\n%s", code, again.screen())
	}
	again.assertRestored(before)
	if strings.Contains(again.screen(), "forge>") {
		t.Errorf("the shell started after Ctrl-C:\n%s", again.screen())
	}
	if b, err := os.ReadFile(filepath.Join(tm.cmd.Dir, "state", "forge", "trusted.json")); err == nil && strings.Contains(string(b), tm.cmd.Dir) {
		t.Errorf("trust was remembered: %q", b)
	}
}
