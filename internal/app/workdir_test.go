package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm/llmtest"
)

// After /set working_dir, the policy judges edits against the new
// directory, where the tools now work: an edit there runs unasked in
// auto-edit, and one of a protected file there (a hook's script) asks,
// and with no terminal is refused, though the same name in the directory
// forge started in is not protected.
func TestSetWorkingDirMovesThePolicy(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{
			{Name: "Write", Arguments: json.RawMessage(`{"file_path": "here.txt", "content": "new\n"}`)},
			{Name: "Write", Arguments: json.RawMessage(`{"file_path": "hook.sh", "content": "id\n"}`)},
		}},
		{Text: "Done."},
	}})
	root := t.TempDir()
	start, other := filepath.Join(root, "start"), filepath.Join(root, "other")
	writeFiles(t, root, map[string]string{"start/.keep": "", "other/hook.sh": "exit 0\n",
		"config/forge/config.yaml": "hooks:\n  Stop:\n    - hooks: [{type: command, command: sh ../other/hook.sh}]\n"})
	env := map[string]string{"HOME": root, "XDG_CONFIG_HOME": filepath.Join(root, "config"), "XDG_STATE_HOME": root,
		"FORGE_PROVIDER": "openai", "FORGE_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test", "FORGE_APPROVAL": "auto-edit"}
	var out, errb bytes.Buffer
	opts := Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Getwd: func() (string, error) { return start, nil }}
	Main(context.Background(), nil, strings.NewReader("/set working_dir ../other\nwrite the files\n"), &out, &errb, opts)
	stderr := out.String() + errb.String()
	if b, err := os.ReadFile(filepath.Join(other, "here.txt")); err != nil || string(b) != "new\n" {
		t.Errorf("the edit in the new working directory did not run: %v %q\n%s", err, b, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(other, "hook.sh")); string(b) != "exit 0\n" {
		t.Errorf("the hook's script was rewritten unasked: %q\n%s", b, stderr)
	}
	if !strings.Contains(stderr, "⊘ Write(hook.sh): needs approval") {
		t.Errorf("stderr:\n%s", stderr)
	}
}
