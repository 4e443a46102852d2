package session

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/llm"
)

// sideCase writes a session with one message of calls "a" to "d", then
// checks what loading it gives.
type sideCase struct {
	name   string
	budget int64
	write  func(t *testing.T, l *Log, dir string)
	check  func(t *testing.T, st *State)
	files  int
	warn   []string
}

func big(c string) string { return strings.Repeat(c, bigOutput+1) }

func TestSideFiles(t *testing.T) {
	runSide(t, []sideCase{
		{"a big output is stored beside the log and read back", maxLoaded, func(t *testing.T, l *Log, dir string) {
			m := result("a", big("x"))
			must(t, l.Append(m))
			if m.Result.Content != big("x") {
				t.Error("the caller's message was changed")
			}
			log, err := os.ReadFile(logPath(dir, "sess_1"))
			must(t, err)
			if len(log) > 2000 || !strings.Contains(string(log), `"output":{"n":0,"size":65537`) {
				t.Errorf("log holds %d bytes:\n%.500s", len(log), log)
			}
		}, func(t *testing.T, st *State) {
			if st.Messages[1].Result.Content != big("x") || st.Messages[1].Result.CallID != "a" {
				t.Errorf("read back %.20q", st.Messages[1].Result.Content)
			}
		}, 1, nil},
		{"64 KB exactly stays in the log", maxLoaded, func(t *testing.T, l *Log, _ string) {
			must(t, l.Append(result("a", strings.Repeat("x", bigOutput))))
		}, func(t *testing.T, st *State) {}, 0, nil},
		{"compaction reuses the file and outputs compacted away are not read", maxLoaded, func(t *testing.T, l *Log, dir string) {
			must(t, l.Append(result("a", big("a"))))
			must(t, l.Append(result("b", big("b"))))
			must(t, l.Compaction([]llm.Message{user("summary"), calls("b"), result("b", big("b"))}, ""))
			must(t, os.Remove(outputPath(dir, "sess_1", 0))) // a's: no longer in the conversation
		}, func(t *testing.T, st *State) {
			if len(st.Messages) != 3 || st.Messages[2].Result.Content != big("b") {
				t.Errorf("messages\n%s", show(st.Messages))
			}
		}, 1, nil},
	})
}

// Past the load budget, older outputs are loaded cut, and say where the
// rest is.
func TestSideFilesCut(t *testing.T) {
	runSide(t, []sideCase{
		{"outputs past the budget are cut, newest kept whole", 3 * (bigOutput + 1), func(t *testing.T, l *Log, _ string) {
			for _, c := range []string{"a", "b", "c", "d"} {
				must(t, l.Append(result(c, big(c))))
			}
		}, func(t *testing.T, st *State) {
			if c := st.Messages[1].Result.Content; !strings.HasPrefix(c, strings.Repeat("a", cutHead)+"\n\n[forge: output cut") || !strings.Contains(c, "0.out") {
				t.Errorf("oldest output: %.50q ... %q", c, c[max(0, len(c)-150):])
			}
			for i, c := range []string{"b", "c", "d"} {
				if st.Messages[i+2].Result.Content != big(c) {
					t.Errorf("output %s was cut", c)
				}
			}
		}, 4, []string{"1 older tool outputs (65537 bytes) were loaded cut"}},
		{"a cut keeps characters whole", bigOutput, func(t *testing.T, l *Log, _ string) {
			must(t, l.Append(result("a", "x"+strings.Repeat("é", bigOutput))))
		}, func(t *testing.T, st *State) {
			if c := st.Messages[1].Result.Content; !utf8.ValidString(c) || !strings.HasPrefix(c, "x"+strings.Repeat("é", cutHead/2-1)+"\n") {
				t.Errorf("cut to %.30q", c)
			}
		}, 1, []string{"were loaded cut"}},
	})
}

// A side file gone or shortened is a warning, not a failed load.
func TestSideFilesDamaged(t *testing.T) {
	runSide(t, []sideCase{
		{"a missing side file is a warning", maxLoaded, func(t *testing.T, l *Log, dir string) {
			must(t, l.Append(result("a", big("x"))))
			must(t, os.Remove(outputPath(dir, "sess_1", 0)))
		}, func(t *testing.T, st *State) {
			if c := st.Messages[1].Result.Content; !strings.Contains(c, "cannot be read") {
				t.Errorf("content %q", c)
			}
		}, 0, []string{"stored output of call a"}},
		{"a shortened side file is a warning", maxLoaded, func(t *testing.T, l *Log, dir string) {
			must(t, l.Append(result("a", big("x"))))
			must(t, os.Truncate(outputPath(dir, "sess_1", 0), 10))
		}, func(t *testing.T, st *State) {
			if c := st.Messages[1].Result.Content; c != "xxxxxxxxxx" {
				t.Errorf("content %q", c)
			}
		}, 1, []string{"has 10 bytes, the log says 65537"}},
	})
}

func runSide(t *testing.T, tests []sideCase) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := newStore(t)
			s.budget = tt.budget
			l := create(t, s, "sess_1", "/src")
			callIDs := []string{"a", "b", "c", "d"}
			must(t, l.Append(calls(callIDs...)))
			tt.write(t, l, dir)
			must(t, l.Close())
			st, err := s.Load("sess_1")
			must(t, err)
			tt.check(t, st)
			entries, _ := os.ReadDir(outputDir(dir, "sess_1"))
			if len(entries) != tt.files {
				t.Errorf("%d side files, want %d", len(entries), tt.files)
			}
			var warnings []string // the repair's notes on calls left unanswered are not the point here
			for _, w := range st.Warnings {
				if !strings.HasPrefix(w, "repaired:") {
					warnings = append(warnings, w)
				}
			}
			if len(warnings) != len(tt.warn) {
				t.Errorf("warnings %q, want %d", warnings, len(tt.warn))
			}
			for _, w := range tt.warn {
				if !hasWarning(warnings, w) {
					t.Errorf("no warning with %q in %q", w, warnings)
				}
			}
		})
	}
}
