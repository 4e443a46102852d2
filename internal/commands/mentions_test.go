package commands

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// mentionEnv is an Env in a directory holding files, with the ask-mode
// policy, printing to out.
func mentionEnv(t *testing.T, files map[string]string) (*Env, *bytes.Buffer) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pol, err := permission.New(permission.Config{Mode: permission.ModeAsk, WorkingDir: dir, Deny: []string{"Read(secret/**)"},
		Home: filepath.Join(dir, "home"), Credentials: permission.DefaultCredentials()})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	reg := tools.NewRegistry()
	env := &Env{IO: IOStreams{Out: &out, Err: &out}, Exec: tools.NewExecutionContext(dir), Output: "text", Policy: pol,
		Registry: reg, Executor: tools.NewExecutor(reg)}
	return env, &out
}

func TestAttachMentions(t *testing.T) {
	files := map[string]string{
		"src/main.go":  "package main\n",
		"notes.txt":    "no newline",
		"bin.dat":      "\x00\x01\x02",
		"big.log":      strings.Repeat("x", maxAttachment+1),
		"home/.ssh/id": "KEY\n",
		"secret/k.txt": "k\n",
	}
	tests := []struct {
		name     string
		prompt   string
		attached []string // paths in the prompt's attachments
		notes    []string // what the terminal is told
	}{
		{"a file", "explain @src/main.go", []string{"src/main.go"}, []string{"attached src/main.go (13 bytes)"}},
		{"punctuation after it, and twice", "see @notes.txt. And @notes.txt!", []string{"notes.txt"}, []string{"attached notes.txt (10 bytes)"}},
		{"a person, not a file", "ask @bob about it", nil, nil},
		{"a missing path", "fix @src/nope.go", nil, []string{"@src/nope.go: no such file in"}},
		{"a directory", "look at @src", nil, []string{"@src: is a directory"}},
		{"a binary file", "@bin.dat", nil, []string{"@bin.dat: is a binary file; not attached"}},
		{"a huge file", "@big.log", nil, []string{"@big.log: is 256 KB, more than the 256 KB a mention attaches"}},
		{"a credential is not read unasked", "@home/.ssh/id", nil, []string{"@home/.ssh/id: reading it needs your approval"}},
		{"a deny rule", "@secret/k.txt", nil, []string{"@secret/k.txt: Read may not read it"}},
		{"an e-mail address", "mail a@src/main.go", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, out := mentionEnv(t, files)
			var said strings.Builder
			got := env.promptWithContext(context.Background(), tt.prompt, func(e agent.Event) {
				if e.Type != agent.EventNotice {
					t.Errorf("a %s event, want notices only", e.Type)
				}
				said.WriteString(e.Text + "\n")
			})
			if !strings.HasPrefix(got, tt.prompt) {
				t.Errorf("the prompt changed: %q", got)
			}
			var paths []string
			for _, part := range strings.Split(got, `<attached-file path="`)[1:] {
				paths = append(paths, part[:strings.Index(part, `"`)])
			}
			if !slices.Equal(paths, tt.attached) {
				t.Errorf("attached %q, want %q:\n%s", paths, tt.attached, got)
			}
			if tt.attached != nil && !strings.Contains(got, "\n"+files[tt.attached[0]]) {
				t.Errorf("the content is not attached:\n%s", got)
			}
			for _, n := range tt.notes {
				if !strings.Contains(said.String(), n) {
					t.Errorf("the notices lack %q:\n%s", n, said.String())
				}
			}
			if tt.notes == nil && said.Len() > 0 {
				t.Errorf("notices: %q", said.String())
			}
			if out.Len() > 0 {
				t.Errorf("printed past the run's view: %q", out.String())
			}
		})
	}
}

// On a terminal that reads keys, forge asks before attaching a file that
// Read would ask about.
func TestAttachMentionAsks(t *testing.T) {
	for _, key := range []string{"y", "n"} {
		env, _ := mentionEnv(t, map[string]string{"home/.ssh/id": "KEY\n"})
		k := &keyAsker{keys: []string{key}}
		env.AskKey = k.askKey
		got := env.promptWithContext(context.Background(), "check @home/.ssh/id", func(agent.Event) {})
		if attached := strings.Contains(got, "KEY"); attached != (key == "y") {
			t.Errorf("answer %s: attached %v", key, attached)
		}
		if len(k.questions) != 1 || !strings.HasPrefix(k.questions[0], "Attach home/.ssh/id? forge asks before reading it") {
			t.Errorf("questions %q", k.questions)
		}
	}
}

func TestMentionCandidates(t *testing.T) {
	env, _ := mentionEnv(t, map[string]string{"src/main.go": "", "src/main_test.go": "", "README.md": "", ".env": ""})
	sh := NewShell(env)
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"explain @s", []string{"@src/"}},
		{"explain @src/ma", []string{"@src/main.go ", "@src/main_test.go "}},
		{"@R", []string{"@README.md "}},
		{"@.e", []string{"@.env "}},
		{"@", []string{"@README.md ", "@src/"}},
		{"/run Read @s", nil},
	} {
		got, partial := sh.Complete(tc.line)
		if !slices.Equal(got, tc.want) || !strings.HasSuffix(tc.line, partial) {
			t.Errorf("Complete(%q) = %q, %q; want %q", tc.line, got, partial, tc.want)
		}
	}
}

// A !command's output goes with the next prompt, once, bounded.
func TestShellOutputGoesWithTheNextPrompt(t *testing.T) {
	env, _ := mentionEnv(t, nil)
	env.keepShellOutput("go test ./...", tools.OK("FAIL x\n", "exit_code", 1))
	env.keepShellOutput("yes", tools.OK(strings.Repeat("y\n", 40<<10)))
	got := env.promptWithContext(context.Background(), "why?", func(agent.Event) {})
	if !strings.Contains(got, "<shell-command>go test ./...</shell-command>\n<shell-output status=\"exit code 1\">\nFAIL x\n</shell-output>") ||
		!strings.HasSuffix(got, "\n\nwhy?") || !strings.Contains(got, "bytes cut ...]") || len(got) > maxShellOutputs {
		t.Errorf("prompt (%d bytes):\n%.600s", len(got), got)
	}
	if again := env.promptWithContext(context.Background(), "and?", func(agent.Event) {}); again != "and?" {
		t.Errorf("the output went twice: %.200q", again)
	}
}
