package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/forgehq/forge/internal/llm"
)

func TestBadIDs(t *testing.T) {
	s, dir := newStore(t)
	for _, id := range []string{"", "..", "../x", "a/b", `a\b`, ".hidden", "a.b", "a b", "a\x00b", "é", strings.Repeat("a", 129)} {
		t.Run(fmt.Sprintf("%q", id), func(t *testing.T) {
			ops := map[string]error{}
			_, ops["create"] = s.Create(Meta{ID: id})
			_, ops["load"] = s.Load(id)
			_, _, ops["resume"] = s.Resume(id)
			ops["remove"] = s.Remove(id)
			for op, err := range ops {
				if !errors.Is(err, ErrBadID) {
					t.Errorf("%s: %v, want ErrBadID", op, err)
				}
			}
		})
	}
	if _, err := os.Stat(dir); err == nil {
		entries, _ := os.ReadDir(dir)
		if len(entries) > 0 {
			t.Errorf("bad ids made files: %v", entries)
		}
	}
	for _, id := range []string{"sess_7f8b4c0d1e90", "a", "A-b_9", strings.Repeat("a", 128)} {
		if err := checkID(id); err != nil {
			t.Errorf("%s refused: %v", id, err)
		}
	}
}

func TestPermissions(t *testing.T) {
	s, dir := newStore(t)
	l := create(t, s, "sess_1", "/src")
	must(t, l.Append(result("a", strings.Repeat("x", bigOutput+1))))
	must(t, l.Close())
	tests := []struct {
		path string
		mode os.FileMode
	}{
		{dir, 0o700 | os.ModeDir},
		{logPath(dir, "sess_1"), 0o600},
		{sidecarPath(dir, "sess_1"), 0o600},
		{outputDir(dir, "sess_1"), 0o700 | os.ModeDir},
		{outputPath(dir, "sess_1", 0), 0o600},
	}
	for _, tt := range tests {
		fi, err := os.Stat(tt.path)
		must(t, err)
		if fi.Mode() != tt.mode {
			t.Errorf("%s: mode %v, want %v", filepath.Base(tt.path), fi.Mode(), tt.mode)
		}
	}
}

func TestCreateTwice(t *testing.T) {
	s, _ := newStore(t)
	create(t, s, "sess_1", "/src").Close()
	if _, err := s.Create(Meta{ID: "sess_1"}); !errors.Is(err, os.ErrExist) {
		t.Errorf("second create: %v", err)
	}
	st, err := s.Load("sess_1")
	must(t, err)
	if len(st.Warnings) != 0 {
		t.Errorf("the first session was touched: %q", st.Warnings)
	}
}

func TestUnknownSession(t *testing.T) {
	s, _ := newStore(t)
	_, err := s.Load("sess_none")
	if !errors.Is(err, ErrNoSession) || !strings.Contains(err.Error(), "sess_none") {
		t.Errorf("load: %v", err)
	}
	if _, _, err := s.Resume("sess_none"); !errors.Is(err, ErrNoSession) {
		t.Errorf("resume: %v", err)
	}
	if err := s.Remove("sess_none"); !errors.Is(err, ErrNoSession) || !strings.Contains(err.Error(), "sess_none") {
		t.Errorf("remove: %v", err)
	}
}

func TestRemove(t *testing.T) {
	s, dir := newStore(t)
	l := create(t, s, "sess_1", "/src")
	must(t, l.Prompt("hi"))
	must(t, l.Append(result("a", strings.Repeat("x", bigOutput+1))))
	must(t, l.Close())
	create(t, s, "sess_2", "/src").Close()
	tmp := filepath.Join(dir, ".sess_1.json.123.tmp") // as a kill while writing the summary leaves it
	must(t, os.WriteFile(tmp, nil, 0o600))
	must(t, s.Remove("sess_1"))
	for _, p := range []string{logPath(dir, "sess_1"), sidecarPath(dir, "sess_1"), outputDir(dir, "sess_1"), tmp} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is left: %v", filepath.Base(p), err)
		}
	}
	sums, err := s.List()
	must(t, err)
	if len(sums) != 1 || sums[0].ID != "sess_2" {
		t.Errorf("left %+v", sums)
	}
	if _, err := s.Load("sess_2"); err != nil {
		t.Errorf("the other session: %v", err)
	}
}

func TestClosedLog(t *testing.T) {
	s, _ := newStore(t)
	l := create(t, s, "sess_1", "/src")
	must(t, l.Close())
	must(t, l.Close())
	for name, err := range map[string]error{
		"append":     l.Append(say("x")),
		"prompt":     l.Prompt("x"),
		"usage":      l.Usage(llm.Usage{}, 0),
		"compaction": l.Compaction(nil, ""),
		"record":     l.Record("notice", "x"),
	} {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s after close: %v", name, err)
		}
	}
}

func TestAppendRefuses(t *testing.T) {
	s, _ := newStore(t)
	l := create(t, s, "sess_1", "/src")
	defer l.Close()
	if err := l.Append(llm.Message{Role: "system", Text: "x"}); err == nil {
		t.Error("a message with an unknown role was written")
	}
	if err := l.Record("", nil); err == nil {
		t.Error("a record without kind was written")
	}
	if err := l.Record("x", func() {}); err == nil {
		t.Error("a record that is not JSON was written")
	}
}

// Appends from several goroutines each land whole.
func TestConcurrentAppend(t *testing.T) {
	s, _ := newStore(t)
	l := create(t, s, "sess_1", "/src")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				if err := l.Record("notice", fmt.Sprintf("%d-%d %s", g, i, strings.Repeat("x", 5000))); err != nil {
					t.Error(err)
				}
			}
		})
	}
	must(t, l.Prompt("hi"))
	wg.Wait()
	must(t, l.Close())
	st, err := s.Load("sess_1")
	must(t, err)
	if len(st.Warnings) != 0 || len(st.Messages) != 1 {
		t.Errorf("warnings %q, %d messages", st.Warnings, len(st.Messages))
	}
}

// A resumed log goes on where the old one stopped: totals, turns and side
// file numbers.
func TestResumeContinues(t *testing.T) {
	s, dir := newStore(t)
	big1, big2 := strings.Repeat("1", bigOutput+1), strings.Repeat("2", bigOutput+1)
	l := create(t, s, "sess_1", "/src")
	must(t, l.Prompt("one"))
	must(t, l.Append(calls("a")))
	must(t, l.Append(result("a", big1)))
	must(t, l.Usage(llm.Usage{InputTokens: 10}, 0.1))
	must(t, l.Close())

	l, st, err := s.Resume("sess_1")
	must(t, err)
	if l.ID() != "sess_1" || st.Turns != 1 || len(st.Messages) != 3 || st.Messages[2].Result.Content != big1 {
		t.Fatalf("resumed %+v", st)
	}
	must(t, l.Prompt("two"))
	must(t, l.Append(calls("b", "c")))
	must(t, l.Append(result("b", big2)))
	must(t, l.Append(result("c", big1))) // the same output again: stored once
	must(t, l.Usage(llm.Usage{InputTokens: 5}, 0.2))
	must(t, l.Close())

	entries, err := os.ReadDir(outputDir(dir, "sess_1"))
	must(t, err)
	if len(entries) != 2 {
		t.Errorf("side files %v, want 0.out and 1.out", entries)
	}
	st, err = s.Load("sess_1")
	must(t, err)
	if st.Turns != 2 || st.Usage.InputTokens != 15 || len(st.Messages) != 7 || len(st.Warnings) != 0 {
		t.Fatalf("turns %d usage %+v warnings %q", st.Turns, st.Usage, st.Warnings)
	}
	for i, want := range map[int]string{2: big1, 5: big2, 6: big1} {
		if st.Messages[i].Result.Content != want {
			t.Errorf("message %d has %.10q...", i, st.Messages[i].Result.Content)
		}
	}
	sums, err := s.List()
	must(t, err)
	if sums[0].Turns != 2 || sums[0].Usage.InputTokens != 15 || sums[0].CostUSD < 0.3-1e-9 {
		t.Errorf("summary %+v", sums[0])
	}
}
