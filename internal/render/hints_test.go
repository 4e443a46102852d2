package render

import (
	"strings"
	"testing"
)

// On the command line, hints name forge's commands; in the shell, its
// /commands.
func TestHintsNameTheCommandsOfWhereTheyAreRead(t *testing.T) {
	shell, cli := New(Options{}), New(Options{CommandLine: true})
	if got := shell.ToolNotFound("Raed", nil); !strings.Contains(got, "Use /tools to see") {
		t.Errorf("shell:\n%s", got)
	}
	if got := cli.ToolNotFound("Raed", nil); !strings.Contains(got, "Use forge tools to see") {
		t.Errorf("command line:\n%s", got)
	}
	servers := []MCPServer{{Name: "gh", State: "not started", Transport: "stdio"}}
	if got := MCPText(servers, cli.Command("mcp")); !strings.Contains(got, "forge mcp connect gh to start it") {
		t.Errorf("command line:\n%s", got)
	}
}
