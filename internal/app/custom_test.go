package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/llm/llmtest"
)

// writeFiles writes files (path -> content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A custom command sends its body, filled in with its arguments, with only
// its allowed tools and its model; a call outside allowed-tools is not
// run, even in yolo mode. The next prompt is back to every tool and the
// session's model.
func TestCustomCommandThroughTheAgent(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{
			{Name: "Bash", Arguments: json.RawMessage(`{"command": "git push"}`)},
			{Name: "Bash", Arguments: json.RawMessage(`{"command": "git diff --stat"}`)},
		}},
		{Text: "Reviewed."},
		{Text: "Plain."},
	}})
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"config/forge/commands/review.md": "---\ndescription: Review\nallowed-tools: Read, Bash(git diff:*)\nmodel: review-model\n---\n" +
			"Review $1 for $2; all of it: $ARGUMENTS\n",
	})
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "XDG_STATE_HOME": dir,
		"FORGE_PROVIDER": "openai", "FORGE_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test", "FORGE_APPROVAL": "yolo"}
	var out, errb bytes.Buffer
	opts := Options{
		Clock:     func() time.Time { return time.Date(2024, 1, 15, 10, 23, 45, 0, time.UTC) },
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Getwd:     func() (string, error) { return dir, nil },
	}
	code := Main(context.Background(), nil, strings.NewReader("/review src/ 'error handling'\nhello\n"), &out, &errb, opts)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	first := reqs[0]
	if names := first.ToolNames(); !slices.Equal(names, []string{"Bash", "Read"}) {
		t.Errorf("offered %v", names)
	}
	if first.Model != "review-model" {
		t.Errorf("model %q", first.Model)
	}
	if got := first.Messages[0].Text; got != "Review src/ for error handling; all of it: src/ 'error handling'" {
		t.Errorf("prompt %q", got)
	}
	res := resultsOf(reqs[1])
	if len(res) != 2 || !strings.Contains(res[0], "only these tools may be used here: Read, Bash(git diff:*)") ||
		strings.Contains(res[1], "only these tools") {
		t.Errorf("results %q", res)
	}
	if last := reqs[2]; len(last.ToolNames()) < 5 || last.Model == "review-model" {
		t.Errorf("the next prompt: model %q, tools %v", last.Model, last.ToolNames())
	}
}

// resultsOf are a request's tool results.
func resultsOf(req llmtest.Request) []string {
	var out []string
	for _, r := range req.Results() {
		out = append(out, r.Content)
	}
	return out
}

// runShell runs forge's shell in dir on stdin with env (HOME and the XDG
// directories under dir unless given) and returns its standard error.
func runShell(t *testing.T, dir, stdin string, env map[string]string) string {
	t.Helper()
	full := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "XDG_STATE_HOME": dir}
	for k, v := range env {
		full[k] = v
	}
	var out, errb bytes.Buffer
	opts := Options{
		Clock:     func() time.Time { return time.Date(2024, 1, 15, 10, 23, 45, 0, time.UTC) },
		LookupEnv: func(k string) (string, bool) { v, ok := full[k]; return v, ok },
		Getwd:     func() (string, error) { return dir, nil },
	}
	if code := Main(context.Background(), nil, strings.NewReader(stdin), &out, &errb, opts); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	return errb.String()
}

// A tool that no registered tool has, named in allowed-tools or an
// agent's tools, is a warning naming the file; MCP tools are not (their
// servers may connect later).
func TestCustomUnknownTools(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".forge/commands/bogus.md": "---\nallowed-tools: Bogus\n---\nDo it.\n",
		".forge/commands/typo.md":  "---\nallowed-tools: Read, Gerp, mcp__github__*\n---\nDo it.\n",
		".forge/agents/a.md":       "---\ndescription: A\ntools: Read, Bogus, mcp__x__y\n---\nYou are A.\n",
	})
	stderr := runShell(t, dir, "", nil)
	for _, want := range []string{
		filepath.Join(".forge", "commands", "bogus.md") + ": allowed-tools: no tool is named Bogus (the tools are ",
		"its prompt will have no tools",
		"typo.md: allowed-tools: no tool is named Gerp (did you mean Grep?)",
		"a.md: tools: no tool is named Bogus",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "mcp__") || strings.Count(stderr, "no tool is named") != 3 {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// Claude Code's model aliases mean nothing to another provider: the
// session's model is used, and one warning for all the files says so.
func TestCustomModelAliasElsewhere(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "ok"}}, RepeatLast: true})
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"config/forge/commands/review.md": "---\nmodel: sonnet\n---\nReview.\n",
		"config/forge/agents/a.md":        "---\ndescription: A\nmodel: haiku\n---\nYou are A.\n",
	})
	stderr := runShell(t, dir, "/review\n/review\n", map[string]string{"FORGE_PROVIDER": "openai", "FORGE_MODEL": "gpt-4o",
		"FORGE_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test"})
	for _, r := range srv.Requests() {
		if r.Model != "gpt-4o" {
			t.Errorf("a request for %q", r.Model)
		}
	}
	if n := strings.Count(stderr, "Anthropic model"); n != 1 {
		t.Errorf("%d warnings, want one for both files:\n%s", n, stderr)
	}
	for _, f := range []string{"a.md (haiku), ", "review.md (sonnet): each is an Anthropic model, and the provider is openai: the session's model, gpt-4o, is used"} {
		if !strings.Contains(stderr, f) {
			t.Errorf("the warning lacks %q:\n%s", f, stderr)
		}
	}
}

// An untrusted project's command or agent does not replace the person's
// own of the same name: theirs is kept, with a warning naming both files.
// A trusted project's does.
func TestUntrustedProjectKeepsUsersDefinitions(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "ok"}}, RepeatLast: true})
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".forge/commands/review.md":         "The project's review.\n",
		".forge/agents/x.md":                "---\ndescription: the project's\n---\nProject X.\n",
		"config/forge/commands/review.md":   "The user's review.\n",
		"config/forge/agents/x.md":          "---\ndescription: the user's\n---\nUser X.\n",
		".forge/commands/project-only.md":   "Project only.\n",
		"config/forge/commands/mine-too.md": "Mine.\n",
	})
	env := map[string]string{"FORGE_PROVIDER": "openai", "FORGE_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test"}
	stderr := runShell(t, dir, "/review\n/project-only\n", env)
	for _, want := range []string{
		"command review: project " + filepath.Join(dir, ".forge", "commands", "review.md") + " is not used, user " +
			filepath.Join(dir, "config", "forge", "commands", "review.md") + " is: the project is not trusted",
		"agent x: project " + filepath.Join(dir, ".forge", "agents", "x.md") + " is not used",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || lastText(reqs[0]) != "The user's review." || lastText(reqs[1]) != "Project only." ||
		!strings.Contains(string(schemaJSON(t, reqs[0].Tools)), "the user's") {
		t.Errorf("%d requests; the first sends %q", len(reqs), lastText(reqs[0]))
	}

	trust, err := config.LoadTrust(filepath.Join(dir, "forge", "trusted.json"))
	if err != nil {
		t.Fatal(err)
	}
	hash, err := config.ProjectHash(dir, dir) // runShell makes dir the home too
	if err != nil {
		t.Fatal(err)
	}
	if err := trust.Add(dir, hash, time.Now()); err != nil {
		t.Fatal(err)
	}
	if stderr := runShell(t, dir, "/review\n", env); strings.Contains(stderr, "not used") {
		t.Errorf("a trusted project: %s", stderr)
	}
	if reqs := srv.Requests(); lastText(reqs[len(reqs)-1]) != "The project's review." {
		t.Errorf("a trusted project's command was not used: %q", lastText(reqs[len(reqs)-1]))
	}
}

// lastText is the text of a request's last message.
func lastText(r llmtest.Request) string {
	if len(r.Messages) == 0 {
		return ""
	}
	return r.Messages[len(r.Messages)-1].Text
}

func schemaJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A hook from the project's .forge directory is the project's; one from
// anywhere else (the person's config, --config) is the person's.
func TestHookInProject(t *testing.T) {
	a := &App{cfg: config.Config{ProjectDir: "/repo"}}
	for file, want := range map[string]bool{
		"/repo/.forge/config.yaml":   true,
		"/repo/hooks.yaml":           false,
		"/repo/.forge-x/config.yaml": false,
		"/home/me/.config/forge.yml": false,
		"":                           false,
	} {
		if got := a.inProject(file); got != want {
			t.Errorf("%q: %v", file, got)
		}
	}
	if (&App{}).inProject("/repo/.forge/config.yaml") {
		t.Error("no project, yet a project's hook")
	}
}

// An untrusted project's command or agent cannot choose the model: the
// session's is used, with one warning for each file, until it is trusted.
func TestUntrustedProjectCannotChooseTheModel(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "ok"}}, RepeatLast: true})
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".forge/commands/review.md": "---\nmodel: gpt-5-pro\n---\nReview.\n",
	})
	env := map[string]string{"FORGE_PROVIDER": "openai", "FORGE_MODEL": "gpt-4o", "FORGE_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test"}
	stderr := runShell(t, dir, "/review\n/review\n", env)
	for _, r := range srv.Requests() {
		if r.Model != "gpt-4o" {
			t.Errorf("an untrusted project's command asked for %q", r.Model)
		}
	}
	warning := "review.md: model: gpt-5-pro is ignored: the project is not trusted, so it cannot choose the model; the session's model, gpt-4o, is used"
	if n := strings.Count(stderr, warning); n != 1 {
		t.Errorf("%d warnings:\n%s", n, stderr)
	}

	trust, err := config.LoadTrust(filepath.Join(dir, "forge", "trusted.json"))
	if err != nil {
		t.Fatal(err)
	}
	hash, err := config.ProjectHash(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := trust.Add(dir, hash, time.Now()); err != nil {
		t.Fatal(err)
	}
	n := len(srv.Requests())
	if stderr = runShell(t, dir, "/review\n", env); strings.Contains(stderr, "is ignored") {
		t.Errorf("trusted, still ignored:\n%s", stderr)
	}
	if reqs := srv.Requests(); len(reqs) != n+1 || reqs[n].Model != "gpt-5-pro" {
		t.Errorf("trusted, the command's model is not used: %d requests", len(reqs))
	}
}
