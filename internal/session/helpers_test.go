package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm"
)

// clock is a fake time that moves on a second at each reading, so that
// every record has its own time and orders are deterministic.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

func newStore(t testing.TB) (*Store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "sessions")
	return NewStore(dir, newClock().now), dir
}

func create(t testing.TB, s *Store, id, cwd string) *Log {
	t.Helper()
	l, err := s.Create(Meta{ID: id, CWD: cwd, Provider: "anthropic", Model: "claude"})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func user(text string) llm.Message { return llm.Message{Role: llm.RoleUser, Text: text} }

func say(text string) llm.Message { return llm.Message{Role: llm.RoleAssistant, Text: text} }

func calls(ids ...string) llm.Message {
	m := llm.Message{Role: llm.RoleAssistant}
	for _, id := range ids {
		m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: id, Name: "Read", Arguments: json.RawMessage(`{"file_path":"go.mod"}`)})
	}
	return m
}

func result(id, content string) llm.Message {
	return llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: id, Name: "Read", Content: content}}
}

func cancelled(id string) llm.Message {
	return llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: id, Name: "Read", Content: llm.CancelledResult, IsError: true}}
}

// appendRaw adds bytes to the end of a log as a crash or an editor might.
func appendRaw(t testing.TB, path, raw string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	must(t, err)
	_, err = f.WriteString(raw)
	must(t, err)
	must(t, f.Close())
}

func hasWarning(warnings []string, part string) bool {
	for _, w := range warnings {
		if strings.Contains(w, part) {
			return true
		}
	}
	return false
}
