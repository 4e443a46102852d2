//go:build unix

package custom

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO named like a definition, in the person's directory or a
// project's, is skipped at once: opening it for reading must not wait for
// a writer that never comes.
func TestLoadSkipsFIFO(t *testing.T) {
	for _, scope := range []Scope{ScopeUser, ScopeProject} {
		dir := t.TempDir()
		write(t, dir, map[string]string{"ok.md": "---\ndescription: ok\n---\nOK."})
		if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		done := make(chan struct{})
		var cmds []Command
		var rep Report
		go func() {
			defer close(done)
			cmds, rep = LoadCommands([]Dir{{Path: dir, Scope: scope}})
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: LoadCommands waits on the FIFO", scope)
		}
		if len(cmds) != 1 || cmds[0].Name != "ok" || !strings.Contains(warningsText(rep), "pipe.md: not a regular file; skipped") {
			t.Errorf("%s: commands %+v, warnings:\n%s", scope, cmds, warningsText(rep))
		}
	}
}
