package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/commands"
)

// rawControl finds a character a terminal would obey in out: a C0 control
// other than newline (ESC, BEL...), DEL, or a C1 control (U+0080..U+009F).
func rawControl(out string) (rune, bool) {
	for _, r := range out {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return r, true
		}
	}
	return 0, false
}

// An MCP server whose tool describes itself with C1 controls and escape
// sequences reaches neither the terminal nor JSON output raw: not in mcp
// list, tools NAME, /mcp, the tool list, or the tool's own result.
func TestMCPControlCharactersNeverReachOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test MCP server")
	}
	dir := t.TempDir()
	server := filepath.Join(dir, "mcpserver")
	if out, err := exec.Command("go", "build", "-o", server, "../mcp/testdata/mcpserver").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	toolsFile := filepath.Join(dir, "tools")
	cfg := filepath.Join(dir, "forge.yaml")
	for path, data := range map[string]string{
		toolsFile: "hostile,echo",
		cfg:       "mcp:\n  servers:\n    bad:\n      command: " + server + "\n      start: true\n      env: {MCPSERVER_TOOLSFILE: " + toolsFile + "}\n",
	} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runs := [][]string{
		{"mcp", "list"},
		{"tools", "mcp__bad__hostile"},
		{"tools"},
		{"-c", "/mcp"},
		{"-c", "/tools mcp__bad__hostile"},
		{"run", "mcp__bad__hostile"},
		{"schema", "mcp__bad__hostile"},
	}
	for _, args := range runs {
		for _, format := range []string{"text", "json"} {
			name := strings.Join(args, " ") + " -o " + format
			t.Run(name, func(t *testing.T) {
				code, out, errOut := runForge(t, "", append([]string{"--config", cfg, "-o", format}, args...)...)
				if code != commands.ExitOK {
					t.Fatalf("code %d\nstdout %s\nstderr %s", code, out, errOut)
				}
				if !strings.Contains(out, "harmless") && !strings.Contains(out, "ok") {
					t.Fatalf("the hostile tool is missing from the output:\n%s", out)
				}
				if !utf8.ValidString(out) {
					t.Errorf("output is not UTF-8: %q", out)
				}
				if r, bad := rawControl(out); bad {
					t.Errorf("raw control U+%04X in stdout:\n%q", r, out)
				}
				if r, bad := rawControl(errOut); bad {
					t.Errorf("raw control U+%04X in stderr:\n%q", r, errOut)
				}
				if format == "json" && strings.Contains(out, "harmless") && !strings.Contains(out, `Looks\u0085harmless\u009b31m`) {
					t.Errorf("JSON should keep the description, escaped:\n%s", out)
				}
			})
		}
	}
}
