package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// everyMethod calls each Printer method once.
func everyMethod(p Printer) {
	d := tools.Descriptor{Name: "Read", Category: tools.CategoryFile, Description: "Read a file"}
	p.Result(Call{Tool: "Read", Result: tools.OK("x")})
	p.ToolList([]tools.Descriptor{d})
	p.ToolDetails(d)
	p.ToolNotFound("Raed", []string{"Read"})
	p.Schemas(tools.FormatOpenAI, []json.RawMessage{json.RawMessage(`{"a":1}`)}, true)
	p.History(0, nil)
	p.HistoryCleared()
	p.Context(ContextView{Output: "json"})
	p.Settings([]Setting{{Key: "dry_run", Value: false}})
	p.SettingChanged(Setting{Key: "dry_run", Value: true})
	p.Registry(tools.Stats{ID: "0x1"})
	p.MCPServers([]MCPServer{{Name: "gh", State: "failed", Error: "boom"}})
	p.Plugins(nil, []PluginView{{Name: "wc", Path: "/p/wc.yaml"}})
	p.RegistrationFailed("Read", errors.New("taken"))
	p.CommandList([]CommandInfo{{Name: "/help", Usage: "/help", Summary: "Help"}}, "footer")
	p.CommandHelp(CommandInfo{Name: "/help", Usage: "/help", Summary: "Help", Example: "/help run"})
	p.Version(VersionInfo{Version: "dev"})
	p.Value("uptime 3s", map[string]any{"uptime_seconds": 3})
	p.Exit()
	p.UnknownCommand("Unknown command: /x.", nil)
	p.Error("usage", "bad")
}

// The JSON printer writes exactly one JSON object per value (a refused
// registration excepted: /plugins reports it), and nothing else.
func TestJSONPrinterOneObjectPerValue(t *testing.T) {
	var out bytes.Buffer
	everyMethod(NewJSON(&out))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 20 {
		t.Errorf("%d lines, want 20 (21 calls, the refused registration silent):\n%s", len(lines), out.String())
	}
	for i, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Errorf("line %d: %v: %s", i+1, err, l)
		}
	}
}

// Text that comes from outside forge never reaches the terminal raw.
func TestTextPrinterSanitizes(t *testing.T) {
	var out, errOut bytes.Buffer
	p := NewText(TextOptions{Out: &out, Err: &errOut})
	evil := "x\x1b]0;owned\x07\x1b[2Jy"
	p.Error("error", evil)
	p.UnknownCommand(evil, nil)
	p.Value(evil, nil)
	p.MCPServers([]MCPServer{{Name: "gh", State: "failed", Error: evil, Tools: []MCPTool{{Name: "t", Description: evil}}}})
	p.Plugins(nil, []PluginView{{Name: "wc", Path: "p", Description: evil}})
	for name, s := range map[string]string{"stdout": out.String(), "stderr": errOut.String()} {
		if strings.ContainsRune(s, 0x1b) || strings.ContainsRune(s, 0x07) {
			t.Errorf("%s holds a raw escape: %q", name, s)
		}
	}
	if !strings.Contains(errOut.String(), "Error: x^[]0;owned^G^[[2Jy") {
		t.Errorf("stderr = %q", errOut.String())
	}
}

func TestTextPrinterCancelledOnTerminal(t *testing.T) {
	var out bytes.Buffer
	res := tools.Result{Status: tools.StatusCancelled, Error: "Tool execution cancelled"}
	NewText(TextOptions{Out: &out, Terminal: true}).Result(Call{Tool: "Bash", Result: res})
	if !strings.HasPrefix(out.String(), "\r┌") {
		t.Errorf("a cancelled panel on a terminal starts at column 0: %q", out.String()[:10])
	}
	out.Reset()
	NewText(TextOptions{Out: &out}).Result(Call{Tool: "Bash", Result: res})
	if strings.HasPrefix(out.String(), "\r") {
		t.Error("carriage return written to a pipe")
	}
}
