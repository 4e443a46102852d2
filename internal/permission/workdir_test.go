package permission

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// A policy moved to another directory judges edits against it, resolves
// relative paths from it, and keeps every rule: configured, remembered,
// allow and deny.
func TestInDir(t *testing.T) {
	root := t.TempDir()
	old, moved, protected := filepath.Join(root, "old"), filepath.Join(root, "new"), filepath.Join(root, "new", "hook.sh")
	for _, d := range []string{old, moved} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p, err := New(Config{Mode: ModeAutoEdit, WorkingDir: old, Home: root, Protected: []string{protected},
		Allow: []string{"Bash(make:*)"}, Deny: []string{"Edit(secret.txt)", "Edit(conf/*)"}})
	if err != nil {
		t.Fatal(err)
	}
	edit := func(path string) Call {
		return Call{Tool: "Edit", Args: tools.Args{"file_path": path}, EditsFiles: true}
	}
	bash := func(cmd string) Call { return Call{Tool: "Bash", Args: tools.Args{"command": cmd}} }
	if added := p.Remember(bash("go test ./...")); len(added) == 0 {
		t.Fatal("nothing remembered")
	}

	q, err := p.InDir(moved)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		policy *Policy
		call   Call
		want   Decision
	}{
		{"an edit in the new directory", q, edit(filepath.Join(moved, "a.go")), Allow},
		{"a relative edit, from the new directory", q, edit("a.go"), Allow},
		{"an edit in the old directory asks", q, edit(filepath.Join(old, "a.go")), Ask},
		{"a relative edit that leaves the new directory asks", q, edit("../old/a.go"), Ask},
		{"a protected file in the new directory asks", q, edit(protected), Ask},
		{"the deny rule, as written", q, edit(filepath.Join(old, "secret.txt")), Deny},
		{"a relative deny pattern keeps naming what it named", q, edit(filepath.Join(old, "conf", "x")), Deny},
		{"... and names the new directory's files too", q, edit(filepath.Join(moved, "conf", "x")), Deny},
		{"the configured allow rule", q, bash("make test"), Allow},
		{"the rule remembered before the move", q, bash("go test ./x"), Allow},
		{"the old policy is unchanged", p, edit(filepath.Join(moved, "a.go")), Ask},
		{"the old policy still allows its own directory", p, edit("a.go"), Allow},
	}
	for _, tt := range tests {
		if v := tt.policy.Decide(tt.call); v.Decision != tt.want {
			t.Errorf("%s: Decide(%v) = %s (%s), want %s", tt.name, tt.call.Args, v.Decision, v.Reason, tt.want)
		}
	}
	if got := q.Remembered(); len(got) != 1 || got[0] != p.Remembered()[0] {
		t.Errorf("remembered after the move: %q, before %q", got, p.Remembered())
	}
	if q.Mode() != ModeAutoEdit {
		t.Errorf("mode %s", q.Mode())
	}
	if _, err := p.InDir("relative"); err == nil {
		t.Error("InDir took a relative directory")
	}
}
