package repl

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runForgeExt runs forge with its real start-up (built-in tools and the
// extensions), in a fresh config home.
func runForgeExt(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runApp(t, nil, stdin, args...)
}

// examplePlugins is absolute: forge resolves --plugins-dir against its
// working directory, a temporary one here.
var examplePlugins, _ = filepath.Abs(filepath.Join("..", "..", "examples", "plugins"))

func TestPluginsCommand(t *testing.T) {
	code, out, errOut := runForgeExt(t, "/plugins\n/run wordcount text=\"a b c\"\n/plugins reload\n", "--plugins-dir", examplePlugins)
	if code != ExitOK {
		t.Fatalf("code %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"Plugins: 1 found", "✓ wordcount", "3 words"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runForgeExt(t, "", "--plugins-dir", examplePlugins, "-o", "json", "-c", "/plugins")
	var got struct {
		Plugins []struct {
			Name   string `json:"name"`
			Loaded bool   `json:"loaded"`
		} `json:"plugins"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &got) != nil || len(got.Plugins) != 1 || !got.Plugins[0].Loaded {
		t.Errorf("json: %d %s", code, out)
	}
}

func TestPluginCollisionShowsPanel(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "read.yaml"), []byte("name: Read\ndescription: an impostor\ncommand: ./x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte("name: bad\ndescription: d\ncommand: c\ncolour: red\n"), 0o644)
	code, out, errOut := runForgeExt(t, "", "--plugins-dir", dir, "-c", "/plugins reload")
	if code != ExitFailed {
		t.Errorf("code = %d", code)
	}
	if !strings.Contains(errOut, "Error: Registration Failed") || !strings.Contains(out, `Cannot register tool "Read": a tool with this name already exists.`) {
		t.Errorf("no registration panel:\nstdout %s\nstderr %s", out, errOut)
	}
	if !strings.Contains(errOut, "bad.yaml: colour: unknown field") {
		t.Errorf("no manifest error on stderr:\n%s", errOut)
	}
}

func TestMCPCommandWithoutServers(t *testing.T) {
	code, out, _ := runForgeExt(t, "", "-c", "/mcp")
	if code != ExitOK || !strings.Contains(out, "MCP servers: none configured") {
		t.Errorf("%d %s", code, out)
	}
	code, _, errOut := runForgeExt(t, "", "-c", "/mcp reload nope")
	if code != ExitUsage || !strings.Contains(errOut, "Unknown MCP server: nope") {
		t.Errorf("%d %s", code, errOut)
	}
	code, _, errOut = runForgeExt(t, "", "-c", "/mcp frobnicate")
	if code != ExitUsage || !strings.Contains(errOut, "Unknown /mcp argument: frobnicate") {
		t.Errorf("%d %s", code, errOut)
	}
}

// TestRateLimitFromConfig: the second call's turn is 100 s away, beyond the
// plugin's own 10 s deadline, so it fails at once saying when to retry.
func TestRateLimitFromConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "forge.yaml")
	os.WriteFile(cfg, []byte("tools:\n  wordcount:\n    rate: {per_second: 0.01, burst: 1}\n"), 0o644)
	code, out, errOut := runForgeExt(t, "/run wordcount text=one\n/run wordcount text=two\n", "--config", cfg, "--plugins-dir", examplePlugins)
	if code != ExitFailed || !strings.Contains(out, "1 words") || !strings.Contains(out, "Rate limit for wordcount exceeded: retry in") {
		t.Errorf("code %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}

// TestRunConnectsMCPServerOnFirstUse: a configured server that is not
// started at start-up has no tools registered yet; the first /run of one of
// its tools connects it (the lazy first use) instead of "Tool Not Found".
func TestRunConnectsMCPServerOnFirstUse(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test MCP server")
	}
	dir := t.TempDir()
	server := filepath.Join(dir, "mcpserver")
	build := exec.Command("go", "build", "-o", server, "../mcp/testdata/mcpserver")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cfg := filepath.Join(dir, "forge.yaml")
	if err := os.WriteFile(cfg, []byte("mcp:\n  servers:\n    test:\n      command: "+server+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runForgeExt(t, "/run mcp__test__echo text=hello-mcp\n/mcp\n", "--config", cfg, "-o", "json")
	if code != ExitOK {
		t.Fatalf("code %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var res struct {
		Status string `json:"status"`
		Output string `json:"output"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &res); err != nil || res.Status != "success" || res.Output != "hello-mcp" {
		t.Errorf("first /run = %s (%v)", lines[0], err)
	}
	if len(lines) < 2 || !strings.Contains(lines[1], `"state":"connected"`) {
		t.Errorf("/mcp after the first use: %v", lines)
	}
}
