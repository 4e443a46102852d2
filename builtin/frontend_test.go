package builtin

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// fakeFiles is an editor's buffers: the text it holds by path, and the
// writes it was asked for.
type fakeFiles struct {
	mu     sync.Mutex
	text   map[string]string
	reads  []string
	writes map[string]string
}

func (f *fakeFiles) ReadText(_ context.Context, path string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads = append(f.reads, path)
	t, ok := f.text[path]
	if !ok {
		return "", errors.New("no buffer")
	}
	return t, nil
}

func (f *fakeFiles) WriteText(_ context.Context, path, text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.writes == nil {
		f.writes = map[string]string{}
	}
	f.writes[path] = text
	return nil
}

// With an editor holding the files, Read shows its buffer, and Write and
// Edit go through it: the disk is left to the editor.
func TestFileToolsThroughTheEditor(t *testing.T) {
	wd := realTempDir(t)
	writeFiles(t, wd, map[string]string{"a.go": "package a\n"})
	a := filepath.Join(wd, "a.go")
	files := &fakeFiles{text: map[string]string{a: "package a // unsaved\n\nfunc A() {}\n"}}
	ec := tools.NewExecutionContext(wd)
	ec.Files = files
	ex := fileExecutor(t, nil)
	ctx := context.Background()

	out := wantOK(t, ex.Execute(ctx, "Read", ec, tools.Args{"file_path": "a.go"}))
	if !strings.Contains(out, "// unsaved") || !strings.Contains(out, "func A()") {
		t.Errorf("Read did not show the editor's buffer:\n%s", out)
	}
	wantOK(t, ex.Execute(ctx, "Edit", ec, tools.Args{"file_path": a, "old_string": "func A() {}", "new_string": "func B() {}"}))
	if got := files.writes[a]; got != "package a // unsaved\n\nfunc B() {}\n" {
		t.Errorf("Edit wrote %q through the editor", got)
	}
	res := ex.Execute(ctx, "Write", ec, tools.Args{"file_path": "b.go", "content": "package b\n"})
	wantOK(t, res)
	if created, _ := res.Metadata["created"].(bool); !created {
		t.Errorf("Write of a new file: created = %v", res.Metadata["created"])
	}
	if got := files.writes[filepath.Join(wd, "b.go")]; got != "package b\n" {
		t.Errorf("Write wrote %q through the editor", got)
	}
	if got := mustRead(t, a); got != "package a\n" {
		t.Errorf("the disk changed under the editor: %q", got)
	}
	if _, err := os.Stat(filepath.Join(wd, "b.go")); err == nil {
		t.Error("Write wrote the disk as well as the editor")
	}
	// The paths are still forge's to judge: nothing outside the roots.
	wantFail(t, ex.Execute(ctx, "Write", ec, tools.Args{"file_path": "/etc/forge-test", "content": "x"}), "outside")
	if _, ok := files.writes["/etc/forge-test"]; ok {
		t.Error("a write outside the working directory reached the editor")
	}
	// The change shown for approval is the editor's text.
	tool, _ := ex.Registry().Get("Edit")
	c, err := tools.PreviewChange(tool, ec, tools.Args{"file_path": a, "old_string": "// unsaved", "new_string": "// saved"})
	if err != nil || !strings.Contains(string(c.Old), "// unsaved") {
		t.Errorf("PreviewChange = %q, %v; want the editor's text", c.Old, err)
	}
}

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
			ex := tools.NewExecutor(specRegistry(t, nil, execSpecs(&shellHolder{})))
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

// While a command the agent started runs in the background, the file
// tools read and write the disk themselves, on the file they checked: the
// editor opens a path by name, following links, and that command could
// swap a link in between forge's check and the editor's open. Once it has
// ended, the editor's buffers are used again.
func TestEditorFilesNotWhileABackgroundCommandRuns(t *testing.T) {
	wd := realTempDir(t)
	writeFiles(t, wd, map[string]string{"a.txt": "on disk\n"})
	a := filepath.Join(wd, "a.txt")
	h := &shellHolder{}
	ex := tools.NewExecutor(specRegistry(t, nil, fileSpecs(h), execSpecs(h)))
	files := &fakeFiles{text: map[string]string{a: "in the editor\n"}}
	ec := tools.NewExecutionContext(wd)
	ec.Files = files
	ctx := context.Background()

	bg := wantOK(t, ex.Execute(ctx, "Bash", tools.NewExecutionContext(wd), tools.Args{"command": "sleep 30", "run_in_background": true}))
	if out := wantOK(t, ex.Execute(ctx, "Read", ec, tools.Args{"file_path": "a.txt"})); !strings.Contains(out, "on disk") {
		t.Errorf("Read beside a background command went to the editor:\n%s", out)
	}
	wantOK(t, ex.Execute(ctx, "Write", ec, tools.Args{"file_path": "a.txt", "content": "written\n"}))
	wantOK(t, ex.Execute(ctx, "Edit", ec, tools.Args{"file_path": "a.txt", "old_string": "written", "new_string": "edited"}))
	if got := mustRead(t, a); got != "edited\n" {
		t.Errorf("the disk has %q, want the Write and the Edit", got)
	}
	if len(files.reads) != 0 || len(files.writes) != 0 {
		t.Errorf("the editor was asked for %v and given %v beside a background command", files.reads, files.writes)
	}

	id := strings.Fields(strings.TrimPrefix(bg, "Command running in background with ID: "))[0]
	wantOK(t, ex.Execute(ctx, "KillShell", tools.NewExecutionContext(wd), tools.Args{"shell_id": id}))
	if out := wantOK(t, ex.Execute(ctx, "Read", ec, tools.Args{"file_path": "a.txt"})); !strings.Contains(out, "in the editor") {
		t.Errorf("Read after the command ended did not show the editor's buffer:\n%s", out)
	}
}
