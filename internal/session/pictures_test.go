package session

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm"
)

// A big image (a screenshot) is kept beside the log, once however often
// it is shown, and comes back whole on a resume; a small one stays inline;
// one whose file is gone is left out with a note.
func TestPicturesBesideTheLog(t *testing.T) {
	dir := t.TempDir()
	store := NewStore(dir, func() time.Time { return time.Unix(0, 0) })
	log, err := store.Create(Meta{ID: "sess_p", CWD: dir})
	if err != nil {
		t.Fatal(err)
	}
	shot := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 10_000)
	small := []byte("GIF89a")
	prompt := llm.Message{Role: llm.RoleUser, Text: "look", Images: []llm.Image{{MediaType: "image/png", Data: shot}, {MediaType: "image/gif", Data: small}}}
	if err := log.PromptImages(prompt.Text, prompt.Images); err != nil {
		t.Fatal(err)
	}
	if err := log.Append(llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "Read", Arguments: []byte(`{}`)}}}); err != nil {
		t.Fatal(err)
	}
	result := llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c1", Content: "Image shot.png", Images: []llm.Image{{MediaType: "image/png", Data: shot}}}}
	if err := log.Result(result, ""); err != nil {
		t.Fatal(err)
	}
	if len(result.Result.Images[0].Data) != len(shot) || len(prompt.Images[0].Data) != len(shot) {
		t.Fatal("the caller's images were changed")
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(log.Path())
	if len(raw) > 4096 || bytes.Count(raw, []byte(`"pictures"`)) != 2 {
		t.Errorf("the log holds %d bytes:\n%s", len(raw), raw)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "sess_p.d", "*")); len(files) != 1 {
		t.Errorf("side files %v, want the one picture", files)
	}
	log, st, err := store.Resume("sess_p")
	if err != nil {
		t.Fatal(err)
	}
	log.Close()
	m := st.Messages
	if len(m) != 3 || !bytes.Equal(m[0].Images[0].Data, shot) || !bytes.Equal(m[0].Images[1].Data, small) || !bytes.Equal(m[2].Result.Images[0].Data, shot) {
		t.Fatalf("resumed: %d messages", len(m))
	}

	files, _ := filepath.Glob(filepath.Join(dir, "sess_p.d", "*"))
	os.Remove(files[0])
	log, st, err = store.Resume("sess_p")
	if err != nil {
		t.Fatal(err)
	}
	log.Close()
	if m := st.Messages; len(m[0].Images) != 1 || !strings.Contains(m[0].Text, "1 image(s) stored in") || len(m[2].Result.Images) != 0 ||
		!strings.Contains(m[2].Result.Content, "cannot be read") {
		t.Errorf("with the picture gone: %+v / %+v", m[0].Text, m[2].Result)
	}
}
