package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/builtin"
	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/tools"
)

// approvalFor is the approval of a call of the built-in tool name, run in
// dir.
func approvalFor(t *testing.T, dir, name string, args tools.Args) agent.Approval {
	t.Helper()
	reg := tools.NewRegistry()
	if err := builtin.Register(reg); err != nil {
		t.Fatal(err)
	}
	tl, ok := reg.Get(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	raw, _ := json.Marshal(args)
	return agent.Approval{Call: agent.Call{Name: name, Args: args, Raw: raw}, Tool: tl, Exec: tools.NewExecutionContext(dir)}
}

// The question shows what the call would really do: the diff the tool
// itself works out, why it would fail, or why it cannot be shown.
func TestPreview(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"crlf.txt": "one\r\ntwo\r\nthree\r\n",
		"big.txt":  strings.Repeat("0123456789abcdef\n", (1<<20)/17+1) + "tail\n",
		"bin.dat":  "\x00\x01binary",
		"f.go":     "a := x\nb := x\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, tool string
		args       tools.Args
		contains   []string
	}{
		{"a CRLF file edited with LF old_string", "Edit", tools.Args{"file_path": "crlf.txt", "old_string": "two\nthree", "new_string": "2\n3"},
			[]string{"--- crlf.txt\n+++ crlf.txt\n", "-two\n-three\n+2\n+3"}},
		{"a file over 1 MiB", "Edit", tools.Args{"file_path": "big.txt", "old_string": "tail", "new_string": "end"},
			[]string{"-tail\n+end"}},
		{"replace_all", "Edit", tools.Args{"file_path": "f.go", "old_string": "x", "new_string": "y", "replace_all": true},
			[]string{"-a := x\n-b := x\n+a := y\n+b := y"}},
		{"old_string not found", "Edit", tools.Args{"file_path": "f.go", "old_string": "zzz", "new_string": "y"},
			[]string{"This call would fail, changing nothing: old_string was not found in " + filepath.Join(dir, "f.go")}},
		{"a Write creating a file", "Write", tools.Args{"file_path": "new.txt", "content": "hello\n"},
			[]string{"--- /dev/null\n+++ new.txt\n@@ -0,0 +1 @@\n+hello"}},
		{"a Write over a file", "Write", tools.Args{"file_path": "f.go", "content": "a := x\n"},
			[]string{"-b := x"}},
		{"a Write over a binary file", "Write", tools.Args{"file_path": "bin.dat", "content": "text"},
			[]string{"bin.dat: forge cannot show this change: the file is binary"}},
		{"Bash shows its command", "Bash", tools.Args{"command": "ls -la"}, []string{"$ ls -la"}},
		{"another tool shows its arguments", "WebFetch", tools.Args{"url": "https://example.com"}, []string{`{"url":"https://example.com"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := preview(approvalFor(t, dir, tc.tool, tc.args))
			for _, w := range tc.contains {
				if !strings.Contains(got, w) {
					t.Errorf("preview lacks %q:\n%s", w, got)
				}
			}
			if strings.Contains(got, "no change") {
				t.Errorf("preview says no change:\n%s", got)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "crlf.txt")); string(b) != files["crlf.txt"] {
		t.Errorf("a preview wrote crlf.txt: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); err == nil {
		t.Error("a preview created new.txt")
	}
}

// scriptedAsker answers the questions in turn and keeps them.
type scriptedAsker struct {
	answers   []string
	questions []string
}

func (s *scriptedAsker) ask(_ context.Context, q string) (string, error) {
	s.questions = append(s.questions, q)
	if len(s.questions) > len(s.answers) {
		return "", context.Canceled
	}
	return s.answers[len(s.questions)-1], nil
}

func TestTerminalApprover(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("line\n", 100)
	longCall := approvalFor(t, dir, "Write", tools.Args{"file_path": "f.txt", "content": long})
	longCall.Always = []string{"Write"}
	short := approvalFor(t, dir, "Write", tools.Args{"file_path": "f.txt", "content": "x\n"})
	for _, tc := range []struct {
		name    string
		a       agent.Approval
		answers []string
		want    agent.Answer
		// check looks at the questions asked.
		check func(t *testing.T, qs []string)
	}{
		{"show all, then no", longCall, []string{"s", "n"}, agent.Reject, func(t *testing.T, qs []string) {
			if len(qs) != 2 {
				t.Fatalf("%d questions, want 2", len(qs))
			}
			if !strings.Contains(qs[0], "[s] show all") || strings.Count(qs[0], "+line") != 57 {
				t.Errorf("first question does not cut the diff and offer show all:\n%s", qs[0])
			}
			if strings.Contains(qs[1], "[s]") || strings.Count(qs[1], "+line") != 100 {
				t.Errorf("second question does not show every line (%d):\n%s", strings.Count(qs[1], "+line"), qs[1])
			}
		}},
		{"show all, then always", longCall, []string{"S", "a"}, agent.AllowAlways, nil},
		{"Enter is no", longCall, []string{""}, agent.Reject, nil},
		{"show all when nothing is hidden is a wrong answer", short, []string{"s", "y"}, agent.AllowOnce, func(t *testing.T, qs []string) {
			if len(qs) != 2 || qs[1] != "Answer y (yes, once), a (always), n (no) or t (no, and tell the model why)." {
				t.Errorf("questions %q", qs)
			}
		}},
		{"wrong answers end in no", longCall, []string{"maybe", "what", "?"}, agent.Reject, func(t *testing.T, qs []string) {
			if len(qs) != 3 || !strings.Contains(qs[1], "s (show all)") {
				t.Errorf("questions %q", qs)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &scriptedAsker{answers: tc.answers}
			env := &Env{Ask: s.ask, IO: IOStreams{Out: io.Discard, Err: io.Discard}}
			got, err := terminalApprover{env: env}.Approve(context.Background(), tc.a)
			if err != nil || got != tc.want {
				t.Errorf("answer %v, %v; want %v", got, err, tc.want)
			}
			if tc.check != nil {
				tc.check(t, s.questions)
			}
		})
	}
}

// keyAsker answers single-key questions in turn and keeps them with the
// keys they take.
type keyAsker struct {
	keys      []string
	questions []string
	allowed   []string
}

func (k *keyAsker) askKey(_ context.Context, q, keys string) (string, error) {
	k.questions = append(k.questions, q)
	k.allowed = append(k.allowed, keys)
	if len(k.questions) > len(k.keys) {
		return "", context.Canceled
	}
	return k.keys[len(k.questions)-1], nil
}

// On a terminal that reads single keys: t refuses with the line of
// feedback that follows; A saves the "always" rule in the chosen file;
// Enter at that choice goes back to the question.
func TestTerminalApproverKeys(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	call := approvalFor(t, dir, "Bash", tools.Args{"command": "go test ./..."})
	call.Always = []string{"Bash(go test:*)"}
	for _, tc := range []struct {
		name     string
		keys     []string
		lines    []string
		want     agent.Answer
		feedback string
		file     string // the file that must hold the rule afterwards
	}{
		{"y", []string{"y"}, nil, agent.AllowOnce, "", ""},
		{"a", []string{"a"}, nil, agent.AllowAlways, "", ""},
		{"t reads the feedback", []string{"t"}, []string{" run only ./internal/... "}, agent.Reject, "run only ./internal/...", ""},
		{"A to the project", []string{"A", "p"}, nil, agent.AllowAlways, "", filepath.Join(dir, ".forge", "config.yaml")},
		{"A to the person's file", []string{"A", "u"}, nil, agent.AllowAlways, "", filepath.Join(home, ".config", "forge", "config.yaml")},
		{"A, then back, then n", []string{"A", "", "n"}, nil, agent.Reject, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := &keyAsker{keys: tc.keys}
			s := &scriptedAsker{answers: tc.lines}
			var out bytes.Buffer
			env := &Env{Ask: s.ask, AskKey: k.askKey, IO: IOStreams{Out: &out, Err: &out},
				Config:    config.Config{WorkingDir: dir},
				LookupEnv: func(k string) (string, bool) { return map[string]string{"HOME": home}[k], k == "HOME" }}
			got, feedback, err := terminalApprover{env: env}.ApproveWithFeedback(context.Background(), call)
			if err != nil || got != tc.want || feedback != tc.feedback {
				t.Fatalf("answer %v %q, %v; want %v %q", got, feedback, err, tc.want, tc.feedback)
			}
			if !strings.Contains(k.questions[0], "[A] always, saved") || k.allowed[0] != "ynaAt" {
				t.Errorf("first question takes %q:\n%s", k.allowed[0], k.questions[0])
			}
			// Only a (always, this session) says what it added, in one
			// line; A says where it saved it.
			if said := strings.Contains(out.String(), "Allowed for this session: Bash(go test:*).\n"); said != (tc.name == "a") {
				t.Errorf("after %q, the output: %q", tc.keys, out.String())
			}
			if tc.file == "" {
				return
			}
			if k.allowed[1] != "pu" || !strings.Contains(k.questions[1], "[p] this project's settings (~/") && !strings.Contains(k.questions[1], dir) {
				t.Errorf("where to save: %q, %q", k.questions[1], k.allowed[1])
			}
			b, err := os.ReadFile(tc.file)
			if err != nil || !strings.Contains(string(b), "Bash(go test:*)") {
				t.Errorf("%s: %q, %v", tc.file, b, err)
			}
			if !strings.Contains(out.String(), "Saved Bash(go test:*) in permissions.allow of") {
				t.Errorf("output: %q", out.String())
			}
		})
	}
}

// A rule saved in a project's file keeps the trust of a project trusted as
// it was; an untrusted project's file applies only once it is trusted,
// and the person is told so.
func TestSaveAlwaysTrust(t *testing.T) {
	for _, trusted := range []bool{true, false} {
		dir, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, ".forge"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".forge", "config.yaml"), []byte("timeout: 5s\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		hash, err := config.ProjectHash(dir, "")
		if err != nil {
			t.Fatal(err)
		}
		trust, _ := config.LoadTrust("")
		var out bytes.Buffer
		env := &Env{IO: IOStreams{Out: &out, Err: &out}, Trust: trust,
			Config: config.Config{WorkingDir: dir, ProjectDir: dir, Project: config.Project{Trusted: trusted, Hash: hash}}}
		env.AskKey = (&keyAsker{keys: []string{"p"}}).askKey
		saved, err := env.saveAlways(context.Background(), []string{"Bash(make:*)"})
		if err != nil || !saved {
			t.Fatalf("saved %v, %v", saved, err)
		}
		now, _ := config.ProjectHash(dir, "")
		got, ok := trust.Hash(dir)
		later := strings.Contains(out.String(), "once you trust the project (forge trust "+dir+")")
		if trusted && (!ok || got != now || later) || !trusted && (ok || !later) {
			t.Errorf("trusted before %v: trusted now %v (hash current %v); told to trust: %v\n%s", trusted, ok, got == now, later, out.String())
		}
	}
}
