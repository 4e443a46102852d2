package agent

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
)

// A Write of the content a file already has is answered "no change"
// without a question, a write, a checkpoint or a changed file; a write
// that changes the file, a new file, and a write a rule denies are not.
func TestUnchangedWrite(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content string
		file    string // "" for none
		deny    []string
		dryRun  bool
		asked   int
		status  Status
		output  string
		changed int
		saved   int
		onDisk  string
	}{
		{name: "the same content", file: "same\n", content: "same\n", status: StatusSuccess,
			output: "No change: ", onDisk: "same\n"},
		{name: "other content", file: "same\n", content: "other\n", asked: 1, status: StatusSuccess,
			output: "Updated", changed: 1, saved: 1, onDisk: "other\n"},
		{name: "a new file", content: "", asked: 1, status: StatusSuccess, output: "Created", changed: 1, saved: 1, onDisk: ""},
		{name: "denied by a rule: the model learns nothing of the file", file: "same\n", content: "same\n",
			deny: []string{"Write"}, status: StatusDenied, output: "Denied", onDisk: "same\n"},
		{name: "a dry run asks as before", file: "same\n", content: "same\n", dryRun: true, asked: 1,
			status: StatusSuccess, output: "[Dry Run]", onDisk: "same\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
				{ToolCalls: []llmtest.ToolCall{scriptCall("Write", `{"file_path": "f.txt", "content": `+strconv.Quote(tc.content)+`}`)}},
				{Text: "done"},
			}})
			if tc.file != "" {
				h.file("f.txt", tc.file)
			}
			cp := &fakeCheckpointer{before: map[string]string{}}
			ap := &fakeApprover{answers: []Answer{AllowOnce}}
			h.cfg.Checkpointer, h.cfg.Approver, h.cfg.ShowChanges = cp, ap, true
			h.cfg.Exec.DryRun = tc.dryRun
			h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeAsk, Deny: tc.deny})
			d := h.run(context.Background(), "write")
			rs := h.results()
			if len(rs) != 1 || rs[0].Status != tc.status || !strings.Contains(rs[0].Output, tc.output) {
				t.Fatalf("results %+v, want %s %q", rs, tc.status, tc.output)
			}
			if len(ap.asked) != tc.asked || len(d.FilesChanged) != tc.changed || len(cp.saved) != tc.saved {
				t.Errorf("asked %d, changed %q, saved %q; want %d, %d, %d", len(ap.asked), d.FilesChanged, cp.saved,
					tc.asked, tc.changed, tc.saved)
			}
			if b, _ := os.ReadFile(filepath.Join(h.dir, "f.txt")); string(b) != tc.onDisk {
				t.Errorf("f.txt holds %q, want %q", b, tc.onDisk)
			}
			if tc.output == "No change: " && (rs[0].Change == nil || rs[0].Result.Metadata["unchanged"] != true) {
				t.Errorf("no change to show, or not marked unchanged: %+v", rs[0])
			}
		})
	}
}
