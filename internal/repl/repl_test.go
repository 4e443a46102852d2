package repl

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeDispatcher records the lines it runs; a line's status is in the
// line itself ("fail" 1, "cancel" 130, "quit" ends, "ask" asks a question).
type fakeDispatcher struct {
	lines   []string
	errs    []string
	answers []string
}

func (d *fakeDispatcher) Dispatch(ctx context.Context, line string, ask func(context.Context, string) (string, error)) (int, bool) {
	d.lines = append(d.lines, line)
	switch line {
	case "fail":
		return 1, false
	case "cancel":
		return 130, false
	case "quit":
		return 0, true
	case "ask":
		a, err := ask(ctx, "name?")
		if err != nil {
			d.answers = append(d.answers, "error: "+err.Error())
			return 1, false
		}
		d.answers = append(d.answers, a)
	}
	return 0, false
}

func (d *fakeDispatcher) ReportError(kind, msg string) { d.errs = append(d.errs, kind+": "+msg) }
func (d *fakeDispatcher) Prompt() string               { return "> " }

func TestScript(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		opts    ScriptOptions
		code    int
		lines   []string
		errs    []string
		answers []string
	}{
		{"all succeed", "a\nb\n", ScriptOptions{}, 0, []string{"a", "b"}, nil, nil},
		{"crlf and no final newline", "a\r\nb", ScriptOptions{}, 0, []string{"a", "b"}, nil, nil},
		{"a failure makes 1", "fail\nb\n", ScriptOptions{}, 1, []string{"fail", "b"}, nil, nil},
		{"fail fast", "fail\nb\n", ScriptOptions{FailFast: true}, 1, []string{"fail"}, nil, nil},
		{"quit stops reading", "quit\nb\n", ScriptOptions{}, 0, []string{"quit"}, nil, nil},
		{"cancel ends with 130", "cancel\nb\n", ScriptOptions{}, 130, []string{"cancel"}, nil, nil},
		{"ask reads the next line", "ask\nAda\nb\n", ScriptOptions{}, 0, []string{"ask", "b"}, nil, []string{"Ada"}},
		{"ask at the end", "ask", ScriptOptions{}, 1, []string{"ask"}, nil, []string{`error: no answer to "name?": EOF`}},
		{"a line too long is skipped", "a\n" + strings.Repeat("y", 100) + "\nb\n", ScriptOptions{MaxLine: 64}, 1,
			[]string{"a", "b"}, []string{"usage: Line 2 is longer than 64 bytes and was skipped"}, nil},
		{"tabs and control bytes are data", "a\tb\x01\x1b[A\n", ScriptOptions{}, 0, []string{"a\tb\x01\x1b[A"}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &fakeDispatcher{}
			tt.opts.NoSignals = true
			code := Script(context.Background(), strings.NewReader(tt.in), d, tt.opts)
			if code != tt.code || !slices.Equal(d.lines, tt.lines) || !slices.Equal(d.errs, tt.errs) || !slices.Equal(d.answers, tt.answers) {
				t.Errorf("code %d lines %q errs %q answers %q; want %d %q %q %q",
					code, d.lines, d.errs, d.answers, tt.code, tt.lines, tt.errs, tt.answers)
			}
		})
	}
}

type brokenReader struct{}

func (brokenReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestScriptInputError(t *testing.T) {
	d := &fakeDispatcher{}
	if code := Script(context.Background(), io.MultiReader(strings.NewReader("a\n"), brokenReader{}), d, ScriptOptions{NoSignals: true}); code != 1 {
		t.Errorf("status %d, want 1", code)
	}
	if !slices.Equal(d.errs, []string{"input: cannot read input: disk on fire"}) || !slices.Equal(d.lines, []string{"a"}) {
		t.Errorf("lines %q errs %q", d.lines, d.errs)
	}
}

func TestLineAsker(t *testing.T) {
	var shown strings.Builder
	ask := LineAsker(strings.NewReader("first\nsecond\n"), &shown, true)
	for _, want := range []string{"first", "second"} {
		if got, err := ask(context.Background(), "q?"); err != nil || got != want {
			t.Errorf("answer %q, %v; want %q", got, err, want)
		}
	}
	if _, err := ask(context.Background(), "q?"); err == nil {
		t.Error("an answer after the end of input")
	}
	if shown.String() != "q?\nq?\nq?\n" {
		t.Errorf("questions shown: %q", shown.String())
	}
}

type fixedCompleter struct{}

func (fixedCompleter) Complete(line string) ([]string, string) {
	return []string{"/tools ", "/toolbox "}, line[strings.LastIndex(line, " ")+1:]
}

// readline gets the suffixes that complete the word, and its length in runes.
func TestCompleterAdapter(t *testing.T) {
	got, n := completer{fixedCompleter{}}.Do([]rune("x /tö"), 5)
	if n != 3 || len(got) != 0 {
		t.Errorf("no match: %q, %d", got, n)
	}
	got, n = completer{fixedCompleter{}}.Do([]rune("/too"), 4)
	var gs []string
	for _, g := range got {
		gs = append(gs, string(g))
	}
	if n != 4 || !slices.Equal(gs, []string{"ls ", "lbox "}) {
		t.Errorf("Do = %q, %d", gs, n)
	}
}

// The history file holds what the person typed: it is created private.
func TestHistoryFileIsPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "forge", "history")
	if got := historyFile(Terminal{HistoryFile: path}); got != path {
		t.Fatalf("historyFile = %q", got)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("history file mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	dir, _ := os.Stat(filepath.Dir(path))
	if dir.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, want 0700", dir.Mode().Perm())
	}
	var warned string
	if got := historyFile(Terminal{HistoryFile: "/proc/forge/history", Warn: func(m string) { warned = m }}); got != "" || warned == "" {
		t.Errorf("an impossible history file: %q, warning %q", got, warned)
	}
}
