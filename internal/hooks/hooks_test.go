package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

func TestMatcher(t *testing.T) {
	tests := []struct {
		matcher string
		yes, no []string
	}{
		{"", []string{"Bash", "mcp__x__y"}, nil},
		{"*", []string{"Bash", "Write"}, nil},
		{"Bash", []string{"Bash"}, []string{"BashOutput", "bash", "MyBash"}},
		{"Bash|Write", []string{"Bash", "Write"}, []string{"Edit", "WriteX"}},
		{"Edit | Write", []string{"Edit", "Write"}, []string{"Edit "}},
		{"Notebook.*", []string{"NotebookEdit", "Notebook"}, []string{"MyNotebook"}},
		{"mcp__github__.*", []string{"mcp__github__create_issue"}, []string{"mcp__gitlab__x"}},
		{"(?i)bash", []string{"Bash", "BASH"}, []string{"Bash2"}},
		{"Ba.h|Wr.te", []string{"Bash", "Write"}, []string{"xBash"}},
	}
	for _, tt := range tests {
		m, err := compileMatcher(tt.matcher)
		if err != nil {
			t.Fatalf("%q: %v", tt.matcher, err)
		}
		for _, n := range tt.yes {
			if !m.match(n) {
				t.Errorf("%q does not match %q", tt.matcher, n)
			}
		}
		for _, n := range tt.no {
			if m.match(n) {
				t.Errorf("%q matches %q", tt.matcher, n)
			}
		}
	}
	for _, bad := range []string{"Bash(", ")(", "a**"} {
		if _, err := compileMatcher(bad); err == nil {
			t.Errorf("%q compiled", bad)
		}
	}
}

func TestDecodeAnswer(t *testing.T) {
	tests := []struct {
		name   string
		event  Event
		exit   int
		stdout string
		stderr string
		want   Answer
		err    string
	}{
		{name: "silent", event: PreToolUse},
		{name: "plain text ignored", event: PreToolUse, stdout: "checked\n"},
		{name: "plain text is context", event: UserPromptSubmit, stdout: "branch: main\n", want: Answer{Context: "branch: main"}},
		{name: "exit 2", event: PreToolUse, exit: 2, stderr: "no rm -rf\n", want: Answer{Decision: Deny, Reason: "no rm -rf"}},
		{name: "exit 2 silent", event: PreToolUse, exit: 2, want: Answer{Decision: Deny, Reason: "exit status 2, nothing on standard error"}},
		{name: "exit 1", event: PreToolUse, exit: 1, stderr: "oops\nmore", err: "exit status 1: oops ..."},
		{name: "allow", event: PreToolUse, stdout: `{"decision":"allow","reason":"ok"}`, want: Answer{Decision: Allow, Reason: "ok"}},
		{name: "approve legacy", event: PreToolUse, stdout: `{"decision":"approve"}`, want: Answer{Decision: Allow}},
		{name: "block legacy", event: Stop, stdout: `{"decision":"block","reason":"tests fail"}`, want: Answer{Decision: Deny, Reason: "tests fail"}},
		{name: "ask any case", event: PreToolUse, stdout: `{"decision":"ASK"}`, want: Answer{Decision: Ask}},
		{name: "unknown decision", event: PreToolUse, stdout: `{"decision":"maybe"}`, err: `unknown decision "maybe"`},
		{name: "not JSON", event: PreToolUse, stdout: `{decision: allow}`, err: "not valid JSON"},
		{name: "rewrite", event: PreToolUse, stdout: `{"updatedInput":{"command":"ls","timeout":5}}`,
			want: Answer{UpdatedInput: tools.Args{"command": "ls", "timeout": int64(5)}}},
		{name: "rewrite not an object", event: PreToolUse, stdout: `{"updatedInput":"ls"}`, want: Answer{RewriteErr: errSentinel}},
		{name: "claude code shape", event: PreToolUse, stdout: `{"decision":"allow","hookSpecificOutput":{"hookEventName":"PreToolUse",
			"permissionDecision":"deny","permissionDecisionReason":"not here","updatedInput":{"a":1}}}`,
			want: Answer{Decision: Deny, Reason: "not here", UpdatedInput: tools.Args{"a": int64(1)}}},
		{name: "context and message", event: SessionStart, stdout: `{"systemMessage":"hi","hookSpecificOutput":{"additionalContext":"ctx"}}`,
			want: Answer{Context: "ctx", Message: "hi"}},
		{name: "other fields", event: Stop, stdout: `{"continue":true,"suppressOutput":false,"x":[1]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DecodeAnswer(tt.event, tt.exit, []byte(tt.stdout), []byte(tt.stderr))
			if tt.err != "" {
				if got.Err == nil || !strings.Contains(got.Err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", got.Err, tt.err)
				}
				return
			}
			if got.Err != nil {
				t.Fatalf("err %v", got.Err)
			}
			if (got.RewriteErr != nil) != (tt.want.RewriteErr != nil) {
				t.Errorf("rewrite error %v", got.RewriteErr)
			}
			got.RewriteErr, tt.want.RewriteErr = nil, nil
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(tt.want)
			if string(gj) != string(wj) {
				t.Errorf("got  %s\nwant %s", gj, wj)
			}
		})
	}
}

var errSentinel = os.ErrInvalid

// FuzzDecodeAnswer: any output decodes to an answer that is consistent:
// never a panic, a decision only without an error, a rewrite an object.
func FuzzDecodeAnswer(f *testing.F) {
	for _, s := range []string{"", "ok", `{"decision":"deny","reason":"x"}`, `{"hookSpecificOutput":{"permissionDecision":"ask","updatedInput":{"a":[1,{"b":2}]}}}`,
		`{"updatedInput":null}`, `{"updatedInput":[1]}`, `{"decision":1}`, `{`, `{"decision":"block"}trailing`, "\x00{}"} {
		f.Add(0, []byte(s), []byte(""))
	}
	f.Add(2, []byte(""), []byte("blocked\n"))
	f.Add(1, []byte("{}"), []byte("err"))
	f.Fuzz(func(t *testing.T, exit int, stdout, stderr []byte) {
		for _, e := range Events {
			a := DecodeAnswer(e, exit, stdout, stderr)
			if a.Err != nil && (a.Decision != None || a.UpdatedInput != nil) {
				t.Fatalf("error %v with decision %v", a.Err, a.Decision)
			}
			if exit == 2 && a.Decision != Deny {
				t.Fatalf("exit 2 decided %v", a.Decision)
			}
			if exit != 0 && exit != 2 && a.Err == nil {
				t.Fatalf("exit %d without an error", exit)
			}
			if a.UpdatedInput != nil && a.RewriteErr != nil {
				t.Fatal("a rewrite and its error")
			}
		}
	})
}

func TestInputJSON(t *testing.T) {
	in := Input{SessionID: "s1", Cwd: "/w", Event: PreToolUse, ToolName: "Bash", ToolInput: tools.Args{"command": "ls"}, ToolUseID: "c1"}
	b, err := in.encode()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"session_id":"s1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"c1","tool_input":{"command":"ls"}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	b, _ = Input{Event: Stop, Cwd: "/w"}.encode()
	if want := `{"session_id":"","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false}`; string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	b, _ = Input{Event: PostToolUse, ToolName: "Read", ToolResponse: &ToolResponse{Status: "success", Output: "x"}}.encode()
	if !strings.Contains(string(b), `"tool_input":{}`) || !strings.Contains(string(b), `"tool_response":{"status":"success","output":"x"}`) {
		t.Errorf("got %s", b)
	}
}

func TestCombine(t *testing.T) {
	hs := []compiled{{Hook: Hook{Command: "a"}}, {Hook: Hook{Command: "b"}}, {Hook: Hook{Command: "c"}}, {Hook: Hook{Command: "d"}}}
	in := Input{Event: PreToolUse, ToolName: "Bash"}
	o := combine(in, hs, []Answer{
		{Decision: Allow, Reason: "fine", UpdatedInput: tools.Args{"x": 1}},
		{Decision: Deny, Reason: "no"},
		{Err: os.ErrClosed},
		{Decision: Deny, Reason: "never", UpdatedInput: tools.Args{"x": 2}},
	})
	if o.Decision != Deny || o.Reason != "no\nnever" || o.Decider != "b" {
		t.Errorf("decision %v %q by %q", o.Decision, o.Reason, o.Decider)
	}
	if o.Rewriter != "d" || o.UpdatedInput["x"] != 2 {
		t.Errorf("rewrite %v by %q", o.UpdatedInput, o.Rewriter)
	}
	if len(o.Notes) != 1 || o.Notes[0].Kind != NoteError || o.Notes[0].Command != "c" {
		t.Errorf("notes %+v", o.Notes)
	}
	o = combine(in, hs[:2], []Answer{{Decision: Ask, Reason: "check"}, {Decision: Allow, Reason: "ok"}})
	if o.Decision != Ask || o.Reason != "check" {
		t.Errorf("ask lost to allow: %v %q", o.Decision, o.Reason)
	}

	// Context: the project's apart from the person's, each answer's cut
	// to MaxContext on a character's boundary, with a note naming the hook.
	hs = []compiled{{Hook: Hook{Command: "mine"}}, {Hook: Hook{Command: "theirs", Project: true}}}
	long := strings.Repeat("a", MaxContext-1) + "é" + strings.Repeat("b", 3)
	o = combine(Input{Event: UserPromptSubmit}, hs, []Answer{{Context: "short"}, {Context: long}})
	if o.Context != "short" || o.ProjectContext != long[:MaxContext-1]+cutMarker {
		t.Errorf("context %q, project's of %d bytes ending %q", o.Context, len(o.ProjectContext), o.ProjectContext[len(o.ProjectContext)-80:])
	}
	if len(o.Notes) != 1 || o.Notes[0].Kind != NoteCut || o.Notes[0].Command != "theirs" || !strings.Contains(o.Notes[0].Text, "16388 bytes") {
		t.Errorf("notes %+v", o.Notes)
	}
}

// runner makes a runner of hooks in dir.
func runner(t *testing.T, dir string, hs ...Hook) *Runner {
	t.Helper()
	r, err := New(hs, Options{Dir: dir, ProjectDir: "/proj", Env: []string{"PATH=" + os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRunProcess(t *testing.T) {
	dir := t.TempDir()
	r := runner(t, dir,
		Hook{Event: PreToolUse, Matcher: "Bash", Command: `cat > input.json; echo "$FORGE_PROJECT_DIR $CLAUDE_PROJECT_DIR $(pwd)" > env.txt; ` +
			`if [ -t 0 ] || (: < /dev/tty) 2>/dev/null; then echo "a terminal" >&2; exit 1; fi; echo '{"decision":"allow"}'`},
		Hook{Event: PreToolUse, Matcher: "Write", Command: "exit 2"},
	)
	pre := r.PreToolUse(context.Background(), Input{SessionID: "s", Cwd: dir}, fakeTool{name: "Bash"}, tools.Args{"command": "ls"})
	if pre.Decision != Allow || len(pre.Notes) != 0 {
		t.Fatalf("decision %v, notes %+v", pre.Decision, pre.Notes)
	}
	in, _ := os.ReadFile(filepath.Join(dir, "input.json"))
	if !strings.Contains(string(in), `"tool_input":{"command":"ls"}`) {
		t.Errorf("input %s", in)
	}
	env, _ := os.ReadFile(filepath.Join(dir, "env.txt"))
	if got, want := strings.TrimSpace(string(env)), "/proj /proj "+dir; got != want {
		t.Errorf("env %q, want %q", got, want)
	}
}

func TestRewriteValidated(t *testing.T) {
	tool := fakeTool{name: "Bash", params: []tools.Parameter{{Name: "command", Type: tools.TypeString, Required: true}}}
	tests := []struct {
		answer, wantReason string
		wantArgs           tools.Args
	}{
		{`{"updatedInput":{"command":"ls -l"}}`, "", tools.Args{"command": "ls -l"}},
		{`{"updatedInput":{"cmd":"ls"}}`, "rewrote the arguments into invalid ones", nil},
		{`{"updatedInput":["ls"]}`, "rewrote the arguments into something unusable", nil},
	}
	for _, tt := range tests {
		r := runner(t, t.TempDir(), Hook{Event: PreToolUse, Command: "echo '" + tt.answer + "'"})
		pre := r.PreToolUse(context.Background(), Input{}, tool, tools.Args{"command": "ls"})
		if tt.wantReason == "" {
			if pre.Decision != None || pre.Args["command"] != tt.wantArgs["command"] || len(pre.Notes) != 1 || pre.Notes[0].Kind != NoteRewrote {
				t.Errorf("%s: %v %v %+v", tt.answer, pre.Decision, pre.Args, pre.Notes)
			}
			continue
		}
		if pre.Decision != Deny || !strings.Contains(pre.Reason, tt.wantReason) || pre.Args != nil {
			t.Errorf("%s: %v %q", tt.answer, pre.Decision, pre.Reason)
		}
	}
}

func TestTimeoutKillsEverything(t *testing.T) {
	dir := t.TempDir()
	// The hook starts a grandchild in its group and one that leaves it
	// (setsid), then waits past its timeout.
	cmd := `sleep 60 & echo $! > inner.pid; setsid sleep 60 & echo $! > outer.pid; sleep 60`
	if _, err := os.Stat("/usr/bin/setsid"); err != nil || runtime.GOOS != "linux" { // the tree is read from /proc
		cmd = `sleep 60 & echo $! > inner.pid; sleep 60`
	}
	r := runner(t, dir, Hook{Event: PreToolUse, Command: cmd, Timeout: 300 * time.Millisecond})
	start := time.Now()
	pre := r.PreToolUse(context.Background(), Input{}, fakeTool{name: "Bash"}, tools.Args{})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v", took)
	}
	if pre.Decision != None || len(pre.Notes) != 1 || !strings.Contains(pre.Notes[0].Text, "timed out after 300ms") {
		t.Fatalf("%v %+v", pre.Decision, pre.Notes)
	}
	for _, f := range []string{"inner.pid", "outer.pid"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if pid > 0 && alive(pid) {
			t.Errorf("%s: process %d outlived the hook", f, pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// alive says pid is a live process (not a zombie).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || (s[i+2] != 'Z' && s[i+2] != 'X')
}

// TestParallelAndOrdered: hooks of one event run side by side (each waits
// until all three have started, which one at a time never happens) and
// their answers are read in the order configured.
func TestParallelAndOrdered(t *testing.T) {
	dir := t.TempDir()
	var hs []Hook
	for i := range 3 {
		wait := "touch started" + strconv.Itoa(i) + "; n=0; until [ -e started0 ] && [ -e started1 ] && [ -e started2 ]; do " +
			"n=$((n+1)); [ $n -gt 500 ] && { echo '{\"decision\":\"block\",\"reason\":\"alone\"}'; exit 0; }; sleep 0.02; done; "
		hs = append(hs, Hook{Event: Stop, Command: wait + "echo '{\"decision\":\"block\",\"reason\":\"r" + strconv.Itoa(i) + "\"}'"})
	}
	r := runner(t, dir, hs...)
	o := r.Run(context.Background(), Input{Event: Stop})
	if o.Decision != Deny || o.Reason != "r0\nr1\nr2" {
		t.Errorf("%v %q, want r0, r1 and r2 in order, each having seen the others start", o.Decision, o.Reason)
	}
}

type fakeTool struct {
	name   string
	params []tools.Parameter
}

func (f fakeTool) Name() string                  { return f.name }
func (f fakeTool) Description() string           { return "fake" }
func (f fakeTool) Category() tools.Category      { return tools.CategoryOther }
func (f fakeTool) Parameters() []tools.Parameter { return f.params }
func (f fakeTool) Execute(context.Context, tools.ExecutionContext, tools.Args) tools.Result {
	return tools.OK("")
}

// An answer longer than forge keeps is said to be cut, not to be broken
// JSON; a long plain context says it was more than forge kept.
func TestAnswerCut(t *testing.T) {
	flood := `head -c 1100000 /dev/zero | tr '\0' x`
	r := runner(t, t.TempDir(),
		Hook{Event: PreToolUse, Command: `printf '{"decision":"allow","reason":"'; ` + flood + `; printf '"}'`},
		Hook{Event: UserPromptSubmit, Command: flood},
	)
	pre := r.PreToolUse(context.Background(), Input{}, fakeTool{name: "Bash"}, tools.Args{"command": "ls"})
	if pre.Decision != None || len(pre.Notes) != 1 || pre.Notes[0].Kind != NoteError ||
		pre.Notes[0].Text != "its answer is longer than 1 MiB and was cut" {
		t.Errorf("decision %v, notes %+v", pre.Decision, pre.Notes)
	}
	o := r.Run(context.Background(), Input{Event: UserPromptSubmit, Prompt: "hi"})
	if len(o.Notes) != 1 || o.Notes[0].Text != "its context for the model was more than 1 MiB; the model gets the first 16 KB" {
		t.Errorf("notes %+v", o.Notes)
	}
}

// A hook that Verify refuses does not run: its answer is the reason, and
// no process starts.
func TestVerifyKeepsAHookFromRunning(t *testing.T) {
	dir := t.TempDir()
	h := Hook{Event: PreToolUse, Matcher: "Bash", Command: "touch ran"}
	r, err := New([]Hook{h}, Options{Dir: dir, Env: []string{"PATH=" + os.Getenv("PATH")},
		Verify: func(Hook) error { return errors.New("scripts/fmt.sh changed") }})
	if err != nil {
		t.Fatal(err)
	}
	pre := r.PreToolUse(context.Background(), Input{}, fakeTool{name: "Bash"}, tools.Args{"command": "ls"})
	if len(pre.Notes) != 1 || !strings.Contains(pre.Notes[0].Text, "not run: scripts/fmt.sh changed") {
		t.Errorf("notes %+v", pre.Notes)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the hook ran")
	}
}
