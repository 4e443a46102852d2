//go:build unix

package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/memory"
)

// The project's instructions reach the system prompt only from regular
// files inside the project; any other gets one notice naming it and why,
// and its content never reaches the prompt.
func TestInstructionsFiles(t *testing.T) {
	const secret = "AKIA-SECRET-KEY"
	tests := []struct {
		name string
		// setup makes the project in proj (its working directory is
		// proj/sub when sub is set) and returns the Root to pass.
		setup  func(t *testing.T, proj, outside string) (root string)
		sub    bool
		want   string // in the prompt
		notice string // in the one notice; "" for none
	}{
		{name: "a regular file", setup: func(t *testing.T, proj, _ string) string {
			write(t, filepath.Join(proj, "AGENTS.md"), "Use tabs.")
			return ""
		}, want: "Project instructions (AGENTS.md):\nUse tabs."},
		{name: "a link to a file inside the project", setup: func(t *testing.T, proj, _ string) string {
			write(t, filepath.Join(proj, "docs", "agents.md"), "Use tabs.")
			link(t, "docs/agents.md", filepath.Join(proj, "AGENTS.md"))
			return ""
		}, want: "Use tabs."},
		{name: "a link up to the project's root, from a subdirectory", sub: true, setup: func(t *testing.T, proj, _ string) string {
			write(t, filepath.Join(proj, "AGENTS.md"), "Use tabs.")
			link(t, "../AGENTS.md", filepath.Join(proj, "sub", "AGENTS.md"))
			return proj
		}, want: "Use tabs."},
		{name: "a link that leaves the project", setup: func(t *testing.T, proj, outside string) string {
			write(t, filepath.Join(outside, ".aws", "credentials"), secret)
			link(t, filepath.Join(outside, ".aws", "credentials"), filepath.Join(proj, "AGENTS.md"))
			return ""
		}, notice: "AGENTS.md is not read: it is a symbolic link that leaves the project (to "},
		{name: "a link up, past the working directory, with no project", sub: true, setup: func(t *testing.T, proj, _ string) string {
			write(t, filepath.Join(proj, "AGENTS.md"), secret)
			link(t, "../AGENTS.md", filepath.Join(proj, "sub", "AGENTS.md"))
			return ""
		}, notice: "leaves the project"},
		{name: "a hard link to a file outside", setup: func(t *testing.T, proj, outside string) string {
			write(t, filepath.Join(outside, ".ssh", "id_rsa"), secret)
			if err := os.Link(filepath.Join(outside, ".ssh", "id_rsa"), filepath.Join(proj, "AGENTS.md")); err != nil {
				t.Skip("no hard links here:", err)
			}
			return ""
		}, notice: "AGENTS.md is not read: it has other hard links"},
		{name: "a link to /proc/self/environ", setup: func(t *testing.T, proj, _ string) string {
			link(t, "/proc/self/environ", filepath.Join(proj, "AGENTS.md"))
			return ""
		}, notice: "AGENTS.md is not read: it is a symbolic link that leaves the project"},
		{name: "a link to a device", setup: func(t *testing.T, proj, _ string) string {
			link(t, "/dev/zero", filepath.Join(proj, "CLAUDE.md"))
			return ""
		}, notice: "CLAUDE.md is not read: it is a symbolic link that leaves the project (to /dev/zero)"},
		{name: "a dangling link", setup: func(t *testing.T, proj, _ string) string {
			link(t, "nowhere.md", filepath.Join(proj, "AGENTS.md"))
			return ""
		}, notice: "AGENTS.md is not read: it is a symbolic link to nothing readable"},
		{name: "a FIFO, which must not hang forge", setup: func(t *testing.T, proj, _ string) string {
			if err := syscall.Mkfifo(filepath.Join(proj, "AGENTS.md"), 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
			return ""
		}, notice: "AGENTS.md is not read: it is a named pipe (FIFO), not a regular file"},
		{name: "a directory, then CLAUDE.md", setup: func(t *testing.T, proj, _ string) string {
			if err := os.Mkdir(filepath.Join(proj, "AGENTS.md"), 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(proj, "CLAUDE.md"), "Use spaces.")
			return ""
		}, want: "Project instructions (CLAUDE.md):\nUse spaces.", notice: "AGENTS.md is not read: it is a directory, not a regular file"},
		{name: "an oversized file is cut", setup: func(t *testing.T, proj, _ string) string {
			write(t, filepath.Join(proj, "AGENTS.md"), strings.Repeat("a", memory.MaxFile)+secret)
			return ""
		}, want: "[... cut: the file is longer than 16 KiB]", notice: "AGENTS.md is longer than 16 KiB: only its first 16 KiB are sent"},
		{name: "none", setup: func(*testing.T, string, string) string { return "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proj, outside := t.TempDir(), t.TempDir()
			wd := proj
			if tt.sub {
				wd = filepath.Join(proj, "sub")
				if err := os.Mkdir(wd, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			root := tt.setup(t, proj, outside)
			done := make(chan struct{})
			var text string
			var notices []string
			go func() {
				defer close(done)
				text, notices = SystemPrompt(PromptInfo{WorkingDir: wd, Root: root, OS: "linux"})
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("SystemPrompt hangs")
			}
			if strings.Contains(text, secret) {
				t.Errorf("the secret reached the prompt:\n%s", text)
			}
			if !strings.Contains(text, tt.want) {
				t.Errorf("prompt lacks %q:\n%s", tt.want, text)
			}
			switch {
			case tt.notice == "" && len(notices) > 0:
				t.Errorf("notices %q, want none", notices)
			case tt.notice != "" && (len(notices) != 1 || !strings.Contains(notices[0], tt.notice)):
				t.Errorf("notices %q, want one with %q", notices, tt.notice)
			}
		})
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

// The agent gives its Notices as notice events before anything else of
// the run, and they never reach the model.
func TestNoticesComeFirst(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{{Text: "ok"}}})
	h.cfg.Notices = []string{"/p/AGENTS.md is not read: it is a named pipe (FIFO), not a regular file"}
	h.run(context.Background(), "hi")
	if len(h.events) == 0 || h.events[0].Type != EventNotice || h.events[0].Text != h.cfg.Notices[0] {
		t.Fatalf("first event %+v", h.events)
	}
	if n := h.countEvents(EventNotice); n != 1 {
		t.Errorf("%d notices", n)
	}
	if req := h.lastRequest(); strings.Contains(req.System, "AGENTS.md") {
		t.Errorf("the notice reached the model: %q", req.System)
	}
}
