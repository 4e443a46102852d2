package commands

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/mcp"
)

// promptServer is an MCP server over HTTP with a prompt and a resource.
func promptServer(t *testing.T) string {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "p", Version: "1"}, nil)
	s.AddPrompt(&sdk.Prompt{Name: "review", Description: "Review a\nchange",
		Arguments: []*sdk.PromptArgument{{Name: "path", Required: true, Description: "What to review"}, {Name: "focus"}}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			a := req.Params.Arguments
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{
				{Role: "user", Content: &sdk.TextContent{Text: "Review " + a["path"] + " for " + a["focus"] + "."}},
			}}, nil
		})
	s.AddResource(&sdk.Resource{URI: "note://style", Name: "Style guide", MIMEType: "text/markdown"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "note://style", Text: "Tabs, not spaces."}}}, nil
		})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(hs.Close)
	return hs.URL
}

// A server's prompts are shell commands, in /help and completed with Tab;
// a prompt's arguments are named or given in order; its text goes to the
// agent. Its resources are listed by /mcp resources and attached with
// @server:uri.
func TestMCPPromptsAndResources(t *testing.T) {
	sh, out, errOut, srv := agentShellServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "ok"}}, RepeatLast: true}, false)
	env := sh.Env()
	env.MCP = mcp.NewManager(env.Registry, []mcp.ServerConfig{{Name: "docs", URL: promptServer(t)}})
	t.Cleanup(func() { env.MCP.Close() })
	if cands, _ := sh.Complete("/mcp__d"); len(cands) != 0 {
		t.Errorf("prompts before the server connected: %q", cands)
	}
	if err := env.MCP.Connect(context.Background(), "docs"); err != nil {
		t.Fatal(err)
	}
	if cands, _ := sh.Complete("/mcp__d"); !contains(cands, "/mcp__docs__review ") {
		t.Errorf("completion: %q", cands)
	}
	if cands, _ := sh.Complete("/mcp__docs__review path=x "); !contains(cands, "focus=") || contains(cands, "path=") {
		t.Errorf("argument completion: %q", cands)
	}
	if code := sh.Exec(context.Background(), "/help"); code != 0 || !strings.Contains(out.String(), "/mcp__docs__review path=VALUE [focus=VALUE]") ||
		!strings.Contains(out.String(), "Review a change") || !strings.Contains(out.String(), "MCP server docs") {
		t.Errorf("/help: %d\n%s", code, out.String())
	}
	for _, tc := range []struct{ line, want string }{
		{"/mcp__docs__review main.go speed", "Review main.go for speed."},
		{"/mcp__docs__review focus=style path=a.go", "Review a.go for style."},
	} {
		if code := sh.Exec(context.Background(), tc.line); code != 0 {
			t.Fatalf("%s: %d %s", tc.line, code, errOut.String())
		}
		if got := lastUserText(srv); got != tc.want {
			t.Errorf("%s: the model got %q, want %q", tc.line, got, tc.want)
		}
	}
	errOut.Reset()
	if code := sh.Exec(context.Background(), "/mcp__docs__review focus=x"); code != ExitUsage || !strings.Contains(errOut.String(), "missing argument: path") {
		t.Errorf("missing argument: %d %q", code, errOut.String())
	}

	out.Reset()
	if code := sh.Exec(context.Background(), "/mcp resources"); code != 0 || !strings.Contains(out.String(), "@docs:note://style  Style guide  text/markdown") {
		t.Errorf("/mcp resources: %d %q", code, out.String())
	}
	out.Reset()
	if code := sh.Exec(context.Background(), "follow @docs:note://style please"); code != 0 {
		t.Fatalf("mention: %d %s", code, errOut.String())
	}
	if got := lastUserText(srv); !strings.Contains(got, "<attached-resource server=\"docs\" uri=\"note://style\">\nTabs, not spaces.\n</attached-resource>") {
		t.Errorf("the model got %q", got)
	}
	if !strings.Contains(out.String(), "attached docs:note://style") {
		t.Errorf("no note of the attachment: %q", out.String())
	}
}

// lastUserText is the text of the last user message the model was sent.
func lastUserText(srv *llmtest.Server) string {
	reqs := srv.Requests()
	if len(reqs) == 0 {
		return ""
	}
	msgs := reqs[len(reqs)-1].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i].Text
		}
	}
	return ""
}

func TestPromptArgs(t *testing.T) {
	p := mcp.PromptInfo{Args: []mcp.PromptArg{{Name: "path", Required: true}, {Name: "focus"}, {Name: "level"}}}
	for _, tc := range []struct{ line, want, err string }{
		{"a.go", "map[path:a.go]", ""},
		{"a.go speed 3", "map[focus:speed level:3 path:a.go]", ""},
		{"focus=x a.go", "map[focus:x path:a.go]", ""},
		{`"two words" level=2`, "map[level:2 path:two words]", ""},
		{"path=a b=c", "map[focus:b=c path:a]", ""},
		{"level=1", "", "missing argument: path"},
		{"a b c d", "", "too many arguments: d"},
		{`"open`, "", "quote"},
	} {
		got, err := promptArgs(p, tc.line)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: %v, want error %q", tc.line, err, tc.err)
		case tc.err == "" && (err != nil || fmtMap(got) != tc.want):
			t.Errorf("%q: %v %v, want %s", tc.line, got, err, tc.want)
		}
	}
}

func fmtMap(m map[string]string) string { return fmt.Sprint(m) }

func FuzzPromptArgs(f *testing.F) {
	for _, s := range []string{"a", "path=x y", `"a b" c=d`, "=", "path=", `'x`} {
		f.Add(s)
	}
	p := mcp.PromptInfo{Args: []mcp.PromptArg{{Name: "path", Required: true}, {Name: "x"}}}
	f.Fuzz(func(t *testing.T, line string) {
		args, err := promptArgs(p, line)
		if _, given := args["path"]; err == nil && !given {
			t.Fatalf("%q: the required argument missing but no error: %v", line, args)
		}
		if len(args) > len(p.Args) {
			t.Fatalf("%q: arguments the prompt does not have: %v", line, args)
		}
	})
}
