package session

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// A tool result whose content is a cut of what the person was shown
// keeps both: the content for the model (and a resume), the whole output
// for the record, inline or in a side file past 64 KB, each stored once.
func TestResultKeepsWhatWasShown(t *testing.T) {
	cut := "head\n[... cut ...]\ntail"
	for _, tc := range []struct {
		name, shown string
		inline      bool // the shown output sits in the record
		files       int
	}{
		{"the same as the model's", cut, false, 0},
		{"none", "", false, 0},
		{"small", strings.Repeat("s", 40<<10), true, 0},
		{"64 KB exactly", strings.Repeat("s", bigOutput), true, 0},
		{"big", big("s"), false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, dir := newStore(t)
			l := create(t, s, "sess_1", "/src")
			must(t, l.Append(calls("a")))
			must(t, l.Result(result("a", cut), tc.shown))
			must(t, l.Close())

			rec := lastMessage(t, dir)
			if rec.Result.Content != cut || rec.Output != nil {
				t.Errorf("the model's content is stored as %.40q (side file %v)", rec.Result.Content, rec.Output)
			}
			switch {
			case tc.inline && rec.Shown != tc.shown:
				t.Errorf("shown inline %d bytes, want %d", len(rec.Shown), len(tc.shown))
			case !tc.inline && rec.Shown != "":
				t.Errorf("shown inline %d bytes, want none", len(rec.Shown))
			}
			if tc.files > 0 {
				if rec.ShownOutput == nil {
					t.Fatal("no side file for the shown output")
				}
				b, err := os.ReadFile(outputPath(dir, "sess_1", rec.ShownOutput.N))
				must(t, err)
				if string(b) != tc.shown {
					t.Errorf("the side file holds %d bytes, want the %d shown", len(b), len(tc.shown))
				}
			} else if rec.ShownOutput != nil {
				t.Errorf("a side file %v for a small output", rec.ShownOutput)
			}
			if n := countOutputs(t, dir); n != tc.files {
				t.Errorf("%d side files, want %d", n, tc.files)
			}

			st, err := s.Load("sess_1")
			must(t, err)
			if got := st.Messages[1].Result.Content; got != cut {
				t.Errorf("a resume gives the model %.40q, want what it read", got)
			}
		})
	}
}

// The whole outputs count in the side files' numbering and reuse: a
// resumed log numbers after them and stores an output met again once.
func TestShownOutputsAcrossResume(t *testing.T) {
	s, dir := newStore(t)
	l := create(t, s, "sess_1", "/src")
	must(t, l.Append(calls("a")))
	must(t, l.Result(result("a", "cut a"), big("a")))
	must(t, l.Close())
	l, _, err := s.Resume("sess_1")
	must(t, err)
	must(t, l.Append(calls("b", "c")))
	must(t, l.Result(result("b", big("a")), ""))      // the same output, now whole for the model
	must(t, l.Result(result("c", "cut b"), big("b"))) // a new one: the next number
	must(t, l.Close())
	if n := countOutputs(t, dir); n != 2 {
		t.Errorf("%d side files, want 2", n)
	}
	b, err := os.ReadFile(outputPath(dir, "sess_1", 1))
	must(t, err)
	if string(b) != big("b") {
		t.Errorf("side file 1 holds %.10q", b)
	}
	st, err := s.Load("sess_1")
	must(t, err)
	if len(st.Warnings) != 0 || st.Messages[3].Result.Content != big("a") || st.Messages[4].Result.Content != "cut b" {
		t.Errorf("loaded %q\n%s", st.Warnings, show(st.Messages))
	}
}

// Only a tool result can carry a shown output, written or read.
func TestShownOnlyOnResults(t *testing.T) {
	s, _ := newStore(t)
	l := create(t, s, "sess_1", "/src")
	defer l.Close()
	if err := l.Result(say("hi"), "shown"); err == nil {
		t.Error("a shown output on an assistant message was recorded")
	}
	for _, line := range []string{
		`{"type":"message","message":{"role":"assistant","text":"x","shown":"y"}}`,
		`{"type":"message","message":{"role":"assistant","text":"x","shown_output":{"n":0,"size":1}}}`,
		`{"type":"message","message":{"role":"tool","result":{"call_id":"a","name":"Read","content":""},"shown_output":{"n":-1,"size":1}}}`,
	} {
		if _, err := decodeRecord([]byte(line)); err == nil {
			t.Errorf("accepted %s", line)
		}
	}
}

// lastMessage is the last message record of session sess_1's log.
func lastMessage(t *testing.T, dir string) storedMessage {
	t.Helper()
	b, err := os.ReadFile(logPath(dir, "sess_1"))
	must(t, err)
	var last storedMessage
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		var rec record
		must(t, json.Unmarshal([]byte(line), &rec))
		if rec.Message != nil {
			last = *rec.Message
		}
	}
	return last
}

func countOutputs(t *testing.T, dir string) int {
	t.Helper()
	entries, err := os.ReadDir(outputDir(dir, "sess_1"))
	if os.IsNotExist(err) {
		return 0
	}
	must(t, err)
	n := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".out") {
			n++
		}
	}
	return n
}
