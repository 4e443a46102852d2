package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/forgehq/forge/internal/tools"
)

func emptySchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }

// addTool adds a tool without arguments to ms.
func addTool(ms *memServer, name string, h mcp.ToolHandler) {
	ms.AddTool(&mcp.Tool{Name: name, Description: name, InputSchema: emptySchema()}, h)
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// eventually waits for cond, failing the test after a few seconds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after 5s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestProgressShown: every call carries a progress token, and the
// server's notifications reach the call's context as they come.
func TestProgressShown(t *testing.T) {
	ms := newMemServer(nil)
	addTool(ms, "work", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		token := req.Params.GetProgressToken()
		if token == nil {
			return textResult("no token"), nil
		}
		for i := 1; i <= 3; i++ {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(i), Total: 3, Message: "step"})
		}
		// A token forge never gave is dropped.
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: "other", Progress: 9})
		// Notifications and the answer are handled apart: a report that
		// comes after the answer is the call's no more.
		time.Sleep(300 * time.Millisecond)
		return textResult("done"), nil
	})
	_, _, ex := memManager(t, ms)
	var mu sync.Mutex
	var got []tools.Progress
	e := ec()
	e.Progress = func(p tools.Progress) { mu.Lock(); got = append(got, p); mu.Unlock() }
	r := ex.Execute(context.Background(), "mcp__mem__work", e, nil)
	if !r.Success || r.Output != "done" {
		t.Fatalf("%+v", r)
	}
	eventually(t, "three progress reports", func() bool { mu.Lock(); defer mu.Unlock(); return len(got) >= 3 })
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 3 || got[2] != (tools.Progress{Progress: 3, Total: 3, Message: "step"}) {
		t.Errorf("progress %+v", got)
	}
}

// TestProgressResetsTimeout: with reset_timeout_on_progress, a call that
// reports progress outlives its timeout, and one that falls silent ends
// after it.
func TestProgressResetsTimeout(t *testing.T) {
	ms := newMemServer(nil)
	addTool(ms, "steady", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		for i := range 6 {
			time.Sleep(50 * time.Millisecond)
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: float64(i)})
		}
		return textResult("done"), nil
	})
	addTool(ms, "silent", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	reg := tools.NewRegistry()
	m := NewManager(reg, []ServerConfig{{Name: "mem", Command: "x", Timeout: 150 * time.Millisecond, ResetTimeoutOnProgress: true, MaxTotalTimeout: 5 * time.Second}})
	ms.attach(t, m, "mem")
	t.Cleanup(func() { m.Close() })
	if err := m.Connect(context.Background(), "mem"); err != nil {
		t.Fatal(err)
	}
	ex := tools.NewExecutor(reg)
	if r := ex.Execute(context.Background(), "mcp__mem__steady", ec(), nil); !r.Success {
		t.Errorf("steady: %+v", r)
	}
	start := time.Now()
	r := ex.Execute(context.Background(), "mcp__mem__silent", ec(), nil)
	if r.Status != tools.StatusTimedOut || !strings.Contains(r.Error, "no progress for 150ms") || time.Since(start) > 3*time.Second {
		t.Errorf("silent: %+v after %s", r, time.Since(start))
	}
}

// TestServerLogsToForgeLog: a server's log messages reach forge's log at
// their level, once forge asked for its level.
func TestServerLogsToForgeLog(t *testing.T) {
	ms := newMemServer(nil)
	addTool(ms, "chatty", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: "db", Data: "disk almost full"})
		_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "debug", Data: "too fine"})
		_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "error", Data: map[string]any{"code": 7}})
		return textResult("ok"), nil
	})
	buf := &syncBuffer{b: &bytes.Buffer{}}
	log := zerolog.New(buf).Level(zerolog.InfoLevel)
	_, _, ex := memManager(t, ms, WithLogger(log))
	if r := ex.Execute(context.Background(), "mcp__mem__chatty", ec(), nil); !r.Success {
		t.Fatal(r)
	}
	eventually(t, "two log lines", func() bool { return strings.Count(buf.String(), "\n") >= 2 })
	out := buf.String()
	for _, want := range []string{`"level":"warn","component":"mcp","server":"mem","logger":"db","message":"disk almost full"`, `"level":"error","component":"mcp","server":"mem","message":"{\"code\":7}"`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "too fine") {
		t.Errorf("debug message below forge's level logged:\n%s", out)
	}
}

// TestToolListChanged: a tool the server adds while forge runs joins the
// registry, and one it removes leaves it, without a reconnect.
func TestToolListChanged(t *testing.T) {
	ms := newMemServer(nil)
	addTool(ms, "first", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return textResult("1"), nil })
	_, reg, ex := memManager(t, ms)
	ms.AddTool(&mcp.Tool{Name: "second", Description: "added later", InputSchema: emptySchema()},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return textResult("2"), nil })
	eventually(t, "second registered", func() bool { return reg.Exists("mcp__mem__second") })
	if r := ex.Execute(context.Background(), "mcp__mem__second", ec(), nil); r.Output != "2" {
		t.Errorf("%+v", r)
	}
	ms.RemoveTools("first")
	eventually(t, "first deregistered", func() bool { return !reg.Exists("mcp__mem__first") })
	if len(ms.sessions) != 1 {
		t.Errorf("reconnected: %d sessions", len(ms.sessions))
	}
}

// TestRootsAreProjectRoot: a server asking for roots gets the project's.
func TestRootsAreProjectRoot(t *testing.T) {
	ms := newMemServer(nil)
	addTool(ms, "roots", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return nil, err
		}
		b, _ := json.Marshal(res.Roots)
		return textResult(string(b)), nil
	})
	_, _, ex := memManager(t, ms, WithRoot("/work/my project"))
	r := ex.Execute(context.Background(), "mcp__mem__roots", ec(), nil)
	if r.Output != `[{"name":"my project","uri":"file:///work/my%20project"}]` {
		t.Errorf("%+v", r)
	}
}

// scripted answers questions from a list, recording them.
type scripted struct {
	mu        sync.Mutex
	answers   []string
	questions []string
}

func (s *scripted) Ask(_ context.Context, q string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.questions = append(s.questions, q)
	if len(s.answers) == 0 {
		return "", errors.New("no more answers")
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	return a, nil
}

// TestElicitation: a server's question reaches the person of the running
// call, fields checked and asked again; without a person it is declined.
func TestElicitation(t *testing.T) {
	ms := newMemServer(nil)
	addTool(ms, "book", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Which table?\nNow.", RequestedSchema: json.RawMessage(`{"type":"object",
			"properties":{"seats":{"type":"integer","minimum":1,"maximum":8,"description":"How many"},
				"area":{"type":"string","enum":["inside","terrace"]},"note":{"type":"string"},"vip":{"type":"boolean","default":false}},
			"required":["seats","area"]}`)})
		if err != nil {
			return nil, err
		}
		b, _ := json.Marshal(res)
		return textResult(string(b)), nil
	})
	_, _, ex := memManager(t, ms)
	for _, tc := range []struct {
		name    string
		answers []string
		want    string
	}{
		{"accept", []string{"y", "garden", "terrace", "twelve", "12", "4", "", ""}, `{"action":"accept","content":{"area":"terrace","seats":4,"vip":false}}`},
		{"decline", []string{"n"}, `{"action":"decline"}`},
		{"cancel", []string{"c"}, `{"action":"cancel"}`},
		{"no person", nil, `{"action":"decline"}`},
	} {
		e := ec()
		var a *scripted
		if tc.answers != nil {
			a = &scripted{answers: tc.answers}
			e.Asker = a
		}
		r := ex.Execute(context.Background(), "mcp__mem__book", e, nil)
		if r.Output != tc.want {
			t.Errorf("%s: %+v", tc.name, r)
		}
		if tc.name == "accept" {
			q := strings.Join(a.questions, "|")
			for _, want := range []string{"MCP server mem asks: Which table? Now.", "  seats (How many): ", "  a whole number; seats", "  at most 8; seats", "  one of inside, terrace; area", "note, optional: ", "vip [y/n] default false, optional: "} {
				if !strings.Contains(q, want) {
					t.Errorf("questions lack %q: %s", want, q)
				}
			}
		}
	}
}

// TestRichContent: pictures and binary resources are saved for the person
// to open; a resource link says how to read it, and ReadMcpResource does.
func TestRichContent(t *testing.T) {
	ms := newMemServer(nil)
	png := []byte("\x89PNG\r\n\x1a\nxyz")
	addTool(ms, "pic", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.ImageContent{MIMEType: "image/png", Data: png},
			&mcp.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")},
			&mcp.ResourceLink{URI: "note://today", Name: "Today"},
		}}, nil
	})
	ms.AddResource(&mcp.Resource{URI: "note://today", Name: "Today", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "note://today", Text: "buy milk"}}}, nil
		})
	media := t.TempDir()
	m, reg, ex := memManager(t, ms, WithMediaDir(media))
	r := ex.Execute(context.Background(), "mcp__mem__pic", ec(), nil)
	files, _ := r.Metadata["files"].([]savedFile)
	if !r.Success || len(files) != 2 {
		t.Fatalf("%+v", r)
	}
	if b, err := os.ReadFile(files[0].Path); err != nil || !bytes.Equal(b, png) || !strings.HasSuffix(files[0].Path, ".png") || !strings.HasPrefix(files[0].Path, media) {
		t.Errorf("image file %s: %q %v", files[0].Path, b, err)
	}
	if st, err := os.Stat(files[1].Path); err != nil || st.Mode().Perm() != 0o600 || !strings.HasSuffix(files[1].Path, ".wav") {
		t.Errorf("audio file: %v %v", st, err)
	}
	want := "[image: image/png, 11 bytes, saved to " + files[0].Path + "] (not shown to the model: a damaged image/png image: unexpected EOF)\n[audio: audio/wav, 4 bytes, saved to " + files[1].Path +
		"]\n[resource link: note://today (Today); read it with ReadMcpResource server=mem uri=note://today]"
	if r.Output != want {
		t.Errorf("output\n%s\nwant\n%s", r.Output, want)
	}
	if !reg.Exists(ReadResourceTool) || !reg.Exists(ListResourcesTool) {
		t.Fatal("resource tools not registered")
	}
	if r := ex.Execute(context.Background(), ReadResourceTool, ec(), tools.Args{"server": "mem", "uri": "note://today"}); r.Output != "buy milk" {
		t.Errorf("read: %+v", r)
	}
	if r := ex.Execute(context.Background(), ListResourcesTool, ec(), nil); r.Output != "mem note://today (Today) text/plain" {
		t.Errorf("list: %+v", r)
	}
	if r := ex.Execute(context.Background(), ReadResourceTool, ec(), tools.Args{"server": "mem", "uri": "note://none"}); r.Success {
		t.Errorf("missing resource read: %+v", r)
	}
	if list, err := m.Resources(context.Background(), "nope"); err == nil || list != nil {
		t.Errorf("unknown server: %v %v", list, err)
	}
}
