package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm"
)

func TestList(t *testing.T) {
	s, dir := newStore(t)
	if sums, err := s.List(); err != nil || len(sums) != 0 {
		t.Fatalf("a store not made yet lists %v, %v", sums, err)
	}
	a := create(t, s, "sess_a", "/src/one")
	b := create(t, s, "sess_b", "/src/two")
	c := create(t, s, "sess_c", "/src/one")
	must(t, c.Prompt("  tidy the imports  "))
	must(t, a.Prompt("fix the failing test "+strings.Repeat("please ", 50)))
	must(t, a.Usage(llm.Usage{InputTokens: 1000, OutputTokens: 200}, 0.012))
	must(t, a.Prompt("and the other one"))
	must(t, b.Prompt("explain"))
	for _, l := range []*Log{c, a, b} {
		must(t, l.Close()) // the last record is the last activity: b is the newest, c the oldest
	}
	must(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a session"), 0o600))

	sums, err := s.List()
	must(t, err)
	var ids []string
	for _, sum := range sums {
		ids = append(ids, sum.ID)
	}
	if strings.Join(ids, " ") != "sess_b sess_a sess_c" {
		t.Errorf("order %v", ids)
	}
	got := sums[1]
	if got.CWD != "/src/one" || got.Turns != 2 || got.Usage.InputTokens != 1000 || got.CostUSD != 0.012 ||
		got.Model != "claude" || got.Created.IsZero() || !got.LastActivity.After(got.Created) {
		t.Errorf("summary %+v", got)
	}
	if !strings.HasPrefix(got.FirstPrompt, "fix the failing test please") || !strings.HasSuffix(got.FirstPrompt, "…") || len([]rune(got.FirstPrompt)) != maxFirstPrompt+1 {
		t.Errorf("first prompt %q", got.FirstPrompt)
	}
	if sums[2].FirstPrompt != "tidy the imports" {
		t.Errorf("first prompt %q", sums[2].FirstPrompt)
	}
	// The sidecar is the summary, in snake_case.
	raw, err := os.ReadFile(sidecarPath(dir, "sess_a"))
	must(t, err)
	var fields map[string]any
	must(t, json.Unmarshal(raw, &fields))
	for _, k := range []string{"id", "cwd", "first_prompt", "turns", "usage", "cost_usd", "last_activity", "created"} {
		if _, ok := fields[k]; !ok {
			t.Errorf("sidecar has no %s: %s", k, raw)
		}
	}
	// The summary agrees with a full load.
	st, err := s.Load("sess_a")
	must(t, err)
	if st.Turns != got.Turns || st.Usage != got.Usage || st.CostUSD != got.CostUSD || !st.LastActivity.Equal(got.LastActivity) {
		t.Errorf("load %+v, list %+v", st, got)
	}
}

// A step (the model's message, its usage, a tool's result) and a prompt
// append to the log and write nothing else: the sidecar is written when
// the log is created and when it is closed. A list in between counts what
// the log holds.
func TestStepsWriteNoSidecar(t *testing.T) {
	s, dir := newStore(t)
	l := create(t, s, "sess_a", "/src")
	side := sidecarPath(dir, "sess_a")
	created, err := os.ReadFile(side)
	must(t, err)
	before, err := os.Stat(side)
	must(t, err)
	must(t, l.Prompt("hi"))
	call := llm.ToolCall{ID: "c1", Name: "Read", Arguments: []byte(`{"file_path":"go.mod"}`)}
	must(t, l.Append(llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call}}))
	must(t, l.Usage(llm.Usage{InputTokens: 10, OutputTokens: 7}, 0.5))
	must(t, l.Result(llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c1", Content: "module x"}}, ""))
	after, err := os.Stat(side)
	must(t, err)
	if now, _ := os.ReadFile(side); !os.SameFile(before, after) || !bytes.Equal(now, created) {
		t.Errorf("a step rewrote the sidecar: %s, was %s", now, created)
	}

	sums, err := s.List()
	must(t, err)
	if len(sums) != 1 || sums[0].Turns != 1 || sums[0].Answers != 1 || sums[0].Usage.OutputTokens != 7 || sums[0].CostUSD != 0.5 {
		t.Errorf("list of an open session: %+v", sums)
	}
	must(t, l.Close())
	closed, err := readSidecar(side)
	must(t, err)
	info, err := os.Stat(logPath(dir, "sess_a"))
	must(t, err)
	if closed.Size != info.Size() || closed.Turns != 1 || closed.Answers != 1 || closed.Usage.InputTokens != 10 {
		t.Errorf("sidecar after close %+v, log %d bytes", closed, info.Size())
	}
}

// List reads sidecars, not logs: a log it cannot read does not matter
// while its sidecar describes a log of its size; without the sidecar the
// log is read once and the sidecar written again.
func TestListSidecars(t *testing.T) {
	s, dir := newStore(t)
	l := create(t, s, "sess_a", "/src")
	must(t, l.Prompt("hi"))
	must(t, l.Usage(llm.Usage{OutputTokens: 7}, 0))
	must(t, l.Close())
	want, err := s.List()
	must(t, err)

	log := logPath(dir, "sess_a")
	content, err := os.ReadFile(log)
	must(t, err)
	if want[0].Size != int64(len(content)) {
		t.Errorf("size %d, the log has %d bytes", want[0].Size, len(content))
	}
	must(t, os.WriteFile(log, append(bytes.Repeat([]byte("x"), len(content)-1), '\n'), 0o600))
	got, err := s.List()
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("list read the log: %+v, %v", got, err)
	}

	must(t, os.WriteFile(log, content, 0o600))
	must(t, os.Remove(sidecarPath(dir, "sess_a")))
	got, err = s.List()
	must(t, err)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rebuilt\n%+v\nwant\n%+v", got, want)
	}
	if _, err := os.Stat(sidecarPath(dir, "sess_a")); err != nil {
		t.Errorf("sidecar not written again: %v", err)
	}

	// A session that cannot be read is named; the others still list.
	must(t, os.WriteFile(logPath(dir, "sess_bad"), []byte("garbage\n"), 0o600))
	got, err = s.List()
	if err == nil || !strings.Contains(err.Error(), "sess_bad") || len(got) != 1 {
		t.Errorf("list %+v, %v", got, err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestLatest(t *testing.T) {
	s, _ := newStore(t)
	if _, err := s.Latest("/src/one"); !errors.Is(err, ErrNoSession) {
		t.Errorf("empty store: %v", err)
	}
	old := create(t, s, "sess_old", "/src/one")
	other := create(t, s, "sess_other", "/src/two")
	recent := create(t, s, "sess_recent", "/src/one")
	must(t, recent.Close())
	must(t, old.Prompt("still going")) // the old session is the most recently active in /src/one
	must(t, old.Close())
	must(t, other.Close())
	tests := []struct {
		cwd, want string
		err       error
	}{
		{"/src/one", "sess_old", nil},
		{"/src/one/", "sess_old", nil},
		{"/src/two", "sess_other", nil},
		{"/src", "", ErrNoSession},
	}
	for _, tt := range tests {
		got, err := s.Latest(tt.cwd)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("Latest(%s) = %q, %v; want %q, %v", tt.cwd, got, err, tt.want, tt.err)
		}
	}
}

// Sidecars are written with the injected clock's times.
func TestSummaryTimes(t *testing.T) {
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	s := NewStore(t.TempDir(), func() time.Time { return at })
	l, err := s.Create(Meta{ID: "sess_1", CWD: "/src"})
	must(t, err)
	must(t, l.Close())
	sums, err := s.List()
	must(t, err)
	if !sums[0].Created.Equal(at) || !sums[0].LastActivity.Equal(at) {
		t.Errorf("times %+v", sums[0])
	}
}

// A list tells the sessions a model answered in from those it never did
// (the key was missing, the server down): the first answer is saved at
// once, so a session killed after it still counts; a sidecar rebuilt
// from the log counts the same; a summary from before answers were
// counted goes by its usage. Each summary has its log's size.
func TestListReachedModel(t *testing.T) {
	s, dir := newStore(t)
	answered := create(t, s, "sess_a", "/src")
	must(t, answered.Prompt("hi"))
	must(t, answered.Append(say("hello")))
	never := create(t, s, "sess_b", "/src")
	must(t, never.Prompt("hi"))
	// Not closed: the sidecar must already say what a list needs.
	sums, err := s.List()
	must(t, err)
	got := map[string]Summary{}
	for _, sum := range sums {
		got[sum.ID] = sum
	}
	if a := got["sess_a"]; !a.ReachedModel() || a.Answers != 1 {
		t.Errorf("answered session: %+v", a)
	}
	if b := got["sess_b"]; b.ReachedModel() || b.Answers != 0 {
		t.Errorf("session no model answered: %+v", b)
	}
	info, err := os.Stat(logPath(dir, "sess_a"))
	must(t, err)
	if got["sess_a"].Size != info.Size() || info.Size() == 0 {
		t.Errorf("size %d, the log has %d bytes", got["sess_a"].Size, info.Size())
	}
	must(t, answered.Append(say("again")))
	must(t, answered.Close())
	must(t, never.Close())

	must(t, os.Remove(sidecarPath(dir, "sess_a")))
	sums, err = s.List()
	must(t, err)
	for _, sum := range sums {
		if sum.ID == "sess_a" && sum.Answers != 2 {
			t.Errorf("rebuilt from the log: %+v", sum)
		}
	}

	old := Summary{ID: "sess_c", Usage: llm.Usage{InputTokens: 10}}
	if !old.ReachedModel() {
		t.Errorf("an older summary with usage: %+v", old)
	}
}
