package app

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/forgehq/forge/internal/config"
)

// The files a hook's command names are protected from the agent's edits;
// directories never are, or every edit would ask.
func TestHookScriptsAreFilesOnly(t *testing.T) {
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(project, "tools", "guard.sh")
	if err := os.WriteFile(script, []byte("exit 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	projectFile := filepath.Join(project, ".forge", "config.yaml")
	a := &App{opts: Options{LookupEnv: func(string) (string, bool) { return "", false }}, cfg: config.Config{
		WorkingDir: filepath.Join(project, "sub"), ProjectDir: project, Project: config.Project{File: projectFile},
		Hooks: []config.Hook{
			{Event: "PreToolUse", Command: `cd ./ && ls / . && /bin/sh "tools/guard.sh" && python3 "$FORGE_PROJECT_DIR"/missing.py`, File: projectFile},
			{Event: "Stop", Command: "echo done > /dev/null", File: projectFile},
		}}}
	got := a.hookScripts()
	want := []string{script, filepath.Join(project, "missing.py")}
	if !slices.Equal(got, want) {
		t.Errorf("hookScripts = %q, want %q", got, want)
	}
	for _, d := range a.protectedDirs() {
		if d == project || d == "/" || d == "." || d == a.cfg.WorkingDir {
			t.Errorf("protectedDirs holds %q, which would make every edit ask", d)
		}
	}
}
