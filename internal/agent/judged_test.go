package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
)

// swapApprover swaps a link in while the person is asked, after the
// policy judged the call's path and before the call opens it: the race a
// command running in the background plays. It then approves.
type swapApprover struct {
	swap  func() error
	asked int
}

func (s *swapApprover) Approve(context.Context, Approval) (Answer, error) {
	s.asked++
	return AllowOnce, s.swap()
}

// A call acts on the file the policy judged, or on nothing: a link
// swapped in between the decision and the call's open, to a key outside
// or to a protected file inside the project, makes the call fail
// without reading or writing what nobody judged.
func TestCallsActOnTheJudgedFileOnly(t *testing.T) {
	tests := []struct {
		name string
		tool string
		args string
		// swap replaces what the call names once it is judged; outside is
		// a directory beside the project.
		swap func(dir, outside string) error
		// check says what must hold after the call.
		check func(t *testing.T, dir, outside, output string)
	}{
		{"Read of a file swapped for a link to a key", "Read", `{"file_path":"n.txt"}`,
			func(dir, outside string) error {
				return relink(filepath.Join(dir, "n.txt"), filepath.Join(outside, "id_rsa"))
			},
			func(t *testing.T, _, _, out string) {
				if strings.Contains(out, "PRIVATE KEY") {
					t.Errorf("the key was read: %s", out)
				}
			}},
		{"Read of a file whose directory is swapped for a link", "Read", `{"file_path":"keys/id_rsa"}`,
			func(dir, outside string) error { return relink(filepath.Join(dir, "keys"), outside) },
			func(t *testing.T, _, _, out string) {
				if strings.Contains(out, "PRIVATE KEY") {
					t.Errorf("the key was read: %s", out)
				}
			}},
		{"Grep of a directory swapped for a link", "Grep", `{"pattern":"PRIVATE","path":"keys","output_mode":"content"}`,
			func(dir, outside string) error { return relink(filepath.Join(dir, "keys"), outside) },
			func(t *testing.T, _, _, out string) {
				if strings.Contains(out, "PRIVATE KEY") {
					t.Errorf("the key was read: %s", out)
				}
			}},
		{"Glob of a directory swapped for a link", "Glob", `{"pattern":"*","path":"keys"}`,
			func(dir, outside string) error { return relink(filepath.Join(dir, "keys"), outside) },
			func(t *testing.T, _, outside, out string) {
				if strings.Contains(out, outside) {
					t.Errorf("the directory outside was listed: %s", out)
				}
			}},
		{"Write into a directory swapped for a link to .git/hooks", "Write", `{"file_path":"hooks/pre-commit","content":"pwned\n"}`,
			func(dir, _ string) error {
				return relink(filepath.Join(dir, "hooks"), filepath.Join(dir, ".git", "hooks"))
			},
			func(t *testing.T, dir, _, _ string) {
				if _, err := os.Stat(filepath.Join(dir, ".git", "hooks", "pre-commit")); err == nil {
					t.Error("the write landed in .git/hooks")
				}
			}},
		{"Edit of a file swapped for a link to .git/config", "Edit", `{"file_path":"n.txt","old_string":"[core]","new_string":"[core]\n\tfsmonitor = pwn"}`,
			func(dir, _ string) error {
				return relink(filepath.Join(dir, "n.txt"), filepath.Join(dir, ".git", "config"))
			},
			func(t *testing.T, dir, _, _ string) {
				if b, _ := os.ReadFile(filepath.Join(dir, ".git", "config")); strings.Contains(string(b), "pwn") {
					t.Errorf(".git/config was edited: %s", b)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, llmtest.OpenAI, llmtest.Script{})
			outside := t.TempDir()
			for name, content := range map[string]string{"id_rsa": "PRIVATE KEY planted"} {
				if err := os.WriteFile(filepath.Join(outside, name), []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			for _, d := range []string{"keys", "hooks", ".git/hooks"} {
				if err := os.MkdirAll(filepath.Join(h.dir, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			h.file("n.txt", "[core]\nhello\n")
			h.file("keys/id_rsa", "not a key\n")
			h.file(".git/config", "[core]\n")
			ap := &swapApprover{swap: func() error { return tt.swap(h.dir, outside) }}
			cfg := h.cfg
			cfg.Policy = h.policy(permission.Config{Ask: []string{"Read", "Write", "Edit", "Grep", "Glob"}})
			cfg.Approver = ap
			res := New(cfg).Call(context.Background(), "c1", tt.tool, []byte(tt.args), nil)
			if ap.asked != 1 {
				t.Fatalf("asked %d times, want 1: %s", ap.asked, res.Display())
			}
			if res.Success || !strings.Contains(res.Display(), "not the file that was checked") {
				t.Errorf("%s = %s, want a refusal saying the file changed", tt.tool, res.Display())
			}
			tt.check(t, h.dir, outside, res.Display())
		})
	}
}

// relink replaces path (a file or a directory) by a link to target.
func relink(path, target string) error {
	if err := os.RemoveAll(path); err != nil {
		return err
	}
	return os.Symlink(target, path)
}
