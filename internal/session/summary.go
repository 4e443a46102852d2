package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/llm"
)

// maxFirstPrompt bounds the prompt a summary keeps: enough to recognise a
// session in a list, small enough that listing stays cheap.
const maxFirstPrompt = 200

// Summary is what a list of sessions shows. Each session keeps one in a
// sidecar file, so that listing does not read logs.
type Summary struct {
	ID       string `json:"id"`
	CWD      string `json:"cwd"`
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	// FirstPrompt is the session's first prompt as the person typed it,
	// cut to 200 characters.
	FirstPrompt string `json:"first_prompt,omitempty"`
	// Turns counts the person's prompts.
	Turns int `json:"turns"`
	// Answers counts the model's messages: none means the session never
	// reached a model (no key, a server down), and lists hide it.
	Answers      int       `json:"answers"`
	Usage        llm.Usage `json:"usage"`
	CostUSD      float64   `json:"cost_usd"`
	Created      time.Time `json:"created"`
	LastActivity time.Time `json:"last_activity"`
	// Size is the log's size in bytes, as List found it.
	Size int64 `json:"size,omitempty"`
}

// ReachedModel reports whether a model answered in the session. A summary
// written before answers were counted goes by the usage it recorded.
func (s *Summary) ReachedModel() bool {
	return s.Answers > 0 || s.Usage.InputTokens > 0 || s.Usage.OutputTokens > 0
}

func (s *Summary) setMeta(m Meta) {
	s.ID, s.CWD, s.Provider, s.Model, s.Created = m.ID, m.CWD, m.Provider, m.Model, m.Created
	if s.LastActivity.Before(m.Created) {
		s.LastActivity = m.Created
	}
}

func (s *Summary) addPrompt(text string) {
	s.Turns++
	if s.FirstPrompt == "" {
		s.FirstPrompt = clip(strings.TrimSpace(text), maxFirstPrompt)
	}
}

// shownPrompt is a prompt's message as the person typed it.
func shownPrompt(m *storedMessage) string {
	if m.Typed != "" {
		return m.Typed
	}
	return m.Text
}

// clip cuts s to at most n runes.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}

// writeSidecar replaces path with sum: written to a temporary file beside
// it, then renamed over it, so that a reader sees the old summary or the
// new one, never half of one.
func writeSidecar(path string, sum *Summary) error {
	b, err := json.Marshal(sum)
	if err != nil {
		return fmt.Errorf("encode summary: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("write summary: %w", err)
	}
	return nil
}

// readSidecar reads the summary at path.
func readSidecar(path string) (Summary, error) {
	b, err := os.ReadFile(path) // a sidecar is a few hundred bytes
	if err != nil {
		return Summary{}, err
	}
	var sum Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		return Summary{}, fmt.Errorf("summary %s: %w", filepath.Base(path), err)
	}
	return sum, nil
}
