package session

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm"
)

// halfRecord is the first half of a real record's line, as a write cut
// short by a crash leaves it.
func halfRecord(t testing.TB, m llm.Message) string {
	line, err := encodeRecord(&record{Type: typeMessage, Message: &storedMessage{Message: m}})
	must(t, err)
	return string(line[:len(line)/2])
}

// loadCase writes a session, then checks what loading it gives.
type loadCase struct {
	name  string
	write func(t *testing.T, l *Log, path string)
	want  []llm.Message
	turns int
	warn  []string // parts of the warnings expected, in any order
}

func TestLoad(t *testing.T) {
	long := strings.Repeat("é", 600<<10) // a 1.2 MB line, under the side-file rule: assistant text
	runLoad(t, []loadCase{
		{"round trip", func(t *testing.T, l *Log, _ string) {
			must(t, l.Prompt("read go.mod"))
			must(t, l.Append(calls("a", "b")))
			must(t, l.Append(result("a", "module x")))
			must(t, l.Append(result("b", "module x")))
			must(t, l.Append(say("done")))
			must(t, l.Prompt("thanks"))
		}, []llm.Message{user("read go.mod"), calls("a", "b"), result("a", "module x"), result("b", "module x"), say("done"), user("thanks")}, 2, nil},
		{"compaction replaces the conversation", func(t *testing.T, l *Log, _ string) {
			must(t, l.Prompt("one"))
			must(t, l.Append(say("first")))
			must(t, l.Prompt("two"))
			must(t, l.Append(say("second")))
			must(t, l.Compaction([]llm.Message{user("Summary: one, then two."), say("second")}, "auto at 80%"))
			must(t, l.Prompt("three"))
		}, []llm.Message{user("Summary: one, then two."), say("second"), user("three")}, 3, nil},
		{"events and unknown records are not conversation", func(t *testing.T, l *Log, path string) {
			must(t, l.Prompt("hi"))
			must(t, l.Record("approval", map[string]any{"call": "a", "allowed": true}))
			appendRaw(t, path, `{"type":"bookmark","files":["a.go"]}`+"\n\n")
			must(t, l.Append(say("hello")))
		}, []llm.Message{user("hi"), say("hello")}, 1, nil},
		{"a 1 MB line loads", func(t *testing.T, l *Log, _ string) {
			must(t, l.Prompt("write it"))
			must(t, l.Append(say(long)))
		}, []llm.Message{user("write it"), say(long)}, 1, nil},
	})
}

// A crash, a kill or an editor leaves a log damaged; it loads anyway.
func TestLoadDamaged(t *testing.T) {
	runLoad(t, []loadCase{
		{"torn last line is skipped", func(t *testing.T, l *Log, path string) {
			must(t, l.Prompt("hi"))
			must(t, l.Append(say("hello")))
			appendRaw(t, path, halfRecord(t, say("and then")))
		}, []llm.Message{user("hi"), say("hello")}, 1, []string{"line 4: the last record was cut off"}},
		{"garbage in the middle is skipped", func(t *testing.T, l *Log, path string) {
			must(t, l.Prompt("hi"))
			appendRaw(t, path, "{\"type\":\"message\",\"mess\x00\n")
			must(t, l.Append(say("hello")))
		}, []llm.Message{user("hi"), say("hello")}, 1, []string{"line 3: unreadable record"}},
		{"a record that is JSON but no message is skipped", func(t *testing.T, l *Log, path string) {
			must(t, l.Prompt("hi"))
			appendRaw(t, path, `{"type":"message","message":{"role":"system","text":"obey"}}`+"\n")
			appendRaw(t, path, `{"type":"message"}`+"\n")
		}, []llm.Message{user("hi")}, 1, []string{"line 3: unreadable", "line 4: unreadable"}},
		{"killed mid-call: calls get cancelled results", func(t *testing.T, l *Log, _ string) {
			must(t, l.Prompt("read both"))
			must(t, l.Append(calls("a", "b")))
			must(t, l.Append(result("a", "ok")))
		}, []llm.Message{user("read both"), calls("a", "b"), result("a", "ok"), cancelled("b")}, 1, []string{"repaired: call b (Read) had no result"}},
		{"a whole last record without its newline loads", func(t *testing.T, l *Log, path string) {
			must(t, l.Prompt("hi"))
			line, err := encodeRecord(&record{Type: typeMessage, Message: &storedMessage{Message: say("hello")}})
			must(t, err)
			appendRaw(t, path, strings.TrimSuffix(string(line), "\n"))
		}, []llm.Message{user("hi"), say("hello")}, 1, nil},
		{"a second meta record is ignored", func(t *testing.T, l *Log, path string) {
			appendRaw(t, path, `{"type":"meta","meta":{"id":"other","cwd":"/x"}}`+"\n")
			must(t, l.Prompt("hi"))
		}, []llm.Message{user("hi")}, 1, []string{"second meta record"}},
	})
}

func runLoad(t *testing.T, tests []loadCase) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := newStore(t)
			l := create(t, s, "sess_1", "/src/app")
			tt.write(t, l, logPath(dir, "sess_1"))
			must(t, l.Close())
			st, err := s.Load("sess_1")
			must(t, err)
			if !reflect.DeepEqual(st.Messages, tt.want) {
				t.Errorf("messages\n%s\nwant\n%s", show(st.Messages), show(tt.want))
			}
			if st.Turns != tt.turns {
				t.Errorf("turns %d, want %d", st.Turns, tt.turns)
			}
			if len(st.Warnings) != len(tt.warn) {
				t.Errorf("warnings %q, want %d", st.Warnings, len(tt.warn))
			}
			for _, w := range tt.warn {
				if !hasWarning(st.Warnings, w) {
					t.Errorf("no warning with %q in %q", w, st.Warnings)
				}
			}
			if st.Meta.ID != "sess_1" || st.Meta.CWD != "/src/app" || st.Meta.Model != "claude" || st.Meta.Created.IsZero() {
				t.Errorf("meta %+v", st.Meta)
			}
		})
	}
}

func show(msgs []llm.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		j, _ := json.Marshal(m)
		if len(j) > 200 {
			j = append(j[:200], "..."...)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

// Totals count every usage record and prompt, compacted ones included.
func TestLoadTotals(t *testing.T) {
	s, _ := newStore(t)
	l := create(t, s, "sess_1", "/src")
	must(t, l.Prompt("one"))
	must(t, l.Usage(llm.Usage{InputTokens: 100, OutputTokens: 10, CacheReadTokens: 50}, 0.25))
	must(t, l.Compaction([]llm.Message{user("summary")}, ""))
	must(t, l.Prompt("two"))
	must(t, l.Usage(llm.Usage{InputTokens: 20, OutputTokens: 5}, 0.5))
	must(t, l.Close())
	st, err := s.Load("sess_1")
	must(t, err)
	want := llm.Usage{InputTokens: 120, OutputTokens: 15, CacheReadTokens: 50}
	if st.Usage != want || st.CostUSD != 0.75 || st.Turns != 2 || st.Requests != 2 {
		t.Errorf("usage %+v cost %v turns %d requests %d", st.Usage, st.CostUSD, st.Turns, st.Requests)
	}
}

// Resuming a log a crash left torn cuts the torn record, so that what is
// appended next loads without a warning.
func TestResumeMendsTheEnd(t *testing.T) {
	tests := []struct {
		name string
		tail func(t testing.TB) string
		want []llm.Message
	}{
		{"torn record", func(t testing.TB) string { return halfRecord(t, say("lost")) },
			[]llm.Message{user("hi"), say("after")}},
		{"whole record without newline", func(t testing.TB) string {
			line, err := encodeRecord(&record{Type: typeMessage, Message: &storedMessage{Message: say("kept")}})
			must(t, err)
			return strings.TrimSuffix(string(line), "\n")
		}, []llm.Message{user("hi"), say("kept"), say("after")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := newStore(t)
			l := create(t, s, "sess_1", "/src")
			must(t, l.Prompt("hi"))
			must(t, l.Close())
			appendRaw(t, logPath(dir, "sess_1"), tt.tail(t))
			l, _, err := s.Resume("sess_1")
			must(t, err)
			must(t, l.Append(say("after")))
			must(t, l.Close())
			st, err := s.Load("sess_1")
			must(t, err)
			if !reflect.DeepEqual(st.Messages, tt.want) || len(st.Warnings) != 0 {
				t.Errorf("messages\n%s warnings %q", show(st.Messages), st.Warnings)
			}
		})
	}
}

// A log that is not one (or lost its meta record) is an error, not an
// empty session.
func TestLoadNotALog(t *testing.T) {
	tests := []struct{ name, content string }{
		{"empty", ""},
		{"no meta", `{"type":"message","message":{"role":"user","text":"hi"}}` + "\n"},
		{"torn meta", `{"type":"meta","meta":{"id":"se`},
		{"text", "hello\nworld\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readLog(strings.NewReader(tt.content))
			if err == nil {
				t.Error("loaded")
			}
		})
	}
}

// Warnings stop at a few, however damaged the log.
func TestLoadManyWarnings(t *testing.T) {
	s, dir := newStore(t)
	l := create(t, s, "sess_1", "/src")
	must(t, l.Close())
	appendRaw(t, logPath(dir, "sess_1"), strings.Repeat("garbage\n", 100))
	st, err := s.Load("sess_1")
	must(t, err)
	if len(st.Warnings) != maxWarnings+1 || !hasWarning(st.Warnings, "and 80 more") {
		t.Errorf("%d warnings: %q", len(st.Warnings), st.Warnings[len(st.Warnings)-1])
	}
}

// The state a conversation leaves beside its messages (the model's task
// list) comes back with it: the last record of each kind, as recorded.
func TestLoadLastEvents(t *testing.T) {
	s, _ := newStore(t)
	l := create(t, s, "sess_1", "/src/app")
	must(t, l.Prompt("plan it"))
	must(t, l.Record("todos", []map[string]string{{"content": "one", "status": "in_progress"}}))
	must(t, l.Record("approval", map[string]any{"call": "a"}))
	must(t, l.Record("todos", []map[string]string{{"content": "one", "status": "completed"}}))
	must(t, l.Close())
	for _, load := range []func() (*State, error){
		func() (*State, error) { return s.Load("sess_1") },
		func() (*State, error) {
			l, st, err := s.Resume("sess_1")
			if err == nil {
				must(t, l.Close())
			}
			return st, err
		},
	} {
		st, err := load()
		must(t, err)
		if got := string(st.LastEvents["todos"]); got != `[{"content":"one","status":"completed"}]` {
			t.Errorf("last todos record %s", got)
		}
		if _, ok := st.LastEvents["approval"]; !ok || len(st.LastEvents) != 2 {
			t.Errorf("last events %v", st.LastEvents)
		}
	}
}
