package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/rs/zerolog"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// fakeHost makes fakeSessions; a prompt "panic" panics.
type fakeHost struct {
	mu     sync.Mutex
	opened []*fakeSession
}

func (h *fakeHost) NewSession(_ context.Context, o SessionOptions) (Session, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := &fakeSession{id: "sess_" + string(rune('a'+len(h.opened))), mode: permission.ModeAsk}
	h.opened = append(h.opened, s)
	return s, nil
}

func (h *fakeHost) LoadSession(context.Context, string, SessionOptions) (Session, error) {
	return nil, errors.New("no such session")
}

func (h *fakeHost) Lookup(string) (tools.Tool, bool) { return nil, false }

type fakeSession struct {
	id     string
	mode   permission.Mode
	closed bool
}

func (s *fakeSession) ID() string                { return s.id }
func (s *fakeSession) Mode() permission.Mode     { return s.mode }
func (s *fakeSession) SetMode(m permission.Mode) { s.mode = m }
func (s *fakeSession) Commands() []Command {
	return []Command{{Name: "review", Description: "Review", Hint: "PATH"}}
}
func (s *fakeSession) Messages() []llm.Message { return nil }
func (s *fakeSession) Typed(string) string     { return "" }
func (s *fakeSession) Todos() agent.Todos      { return nil }
func (s *fakeSession) ContextWindow() int      { return 0 }
func (s *fakeSession) Spent() (float64, bool)  { return 0, false }
func (s *fakeSession) Close() error            { s.closed = true; return nil }
func (s *fakeSession) Run(ctx context.Context, prompt string, _ Front, emit func(agent.Event)) (agent.Done, error) {
	switch prompt {
	case "panic":
		panic("boom")
	case "wait":
		<-ctx.Done()
		return agent.Done{Reason: agent.ReasonCancelled}, nil
	case "/typo":
		return agent.Done{}, fmt.Errorf("%w: no such command", ErrBadPrompt)
	case "nomodel":
		return agent.Done{}, errors.New("no model is configured")
	}
	emit(agent.Event{Type: agent.EventTextDelta, Text: "echo: " + prompt})
	return agent.Done{Reason: agent.ReasonStop}, nil
}

// rawConn is an editor that writes lines and reads answers by hand.
type rawConn struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan struct{}
}

func startRaw(t *testing.T, h Host) *rawConn {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &rawConn{t: t, in: inW, out: bufio.NewScanner(outR), done: make(chan struct{})}
	go func() {
		_ = Serve(context.Background(), inR, outW, Options{Host: h, Log: zerolog.Nop(), CommandsDelay: time.Millisecond})
		_ = outW.Close()
		close(c.done)
	}()
	return c
}

func (c *rawConn) send(line string) {
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// answer reads messages until the answer with id (as JSON), and returns it.
func (c *rawConn) answer(id string) map[string]json.RawMessage {
	c.t.Helper()
	for c.out.Scan() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(c.out.Bytes(), &m); err != nil {
			c.t.Fatalf("not JSON on standard output: %q", c.out.Bytes())
		}
		if _, isReq := m["method"]; !isReq && string(m["id"]) == id {
			return m
		}
	}
	c.t.Fatalf("no answer with id %s", id)
	return nil
}

func errorCode(m map[string]json.RawMessage) int {
	var e struct{ Code int }
	_ = json.Unmarshal(m["error"], &e)
	return e.Code
}

// Malformed messages, unknown methods and sessions, and a panic in a
// handler each get a JSON-RPC error; the connection goes on, and closing
// standard input ends Serve with every session closed.
func TestServeAnswersBadInputWithErrors(t *testing.T) {
	h := &fakeHost{}
	c := startRaw(t, h)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	if m := c.answer("1"); m["result"] == nil {
		t.Fatalf("initialize: %s", m["error"])
	}
	c.send(`this is not json`)
	if m := c.answer("null"); errorCode(m) != codeParseError {
		t.Errorf("garbage: %v", m)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"no/such","params":{}}`)
	if m := c.answer("2"); errorCode(m) != -32601 {
		t.Errorf("unknown method: %v", m)
	}
	c.send(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"nope","prompt":[{"type":"text","text":"hi"}]}}`)
	if m := c.answer("3"); errorCode(m) != -32602 || !strings.Contains(string(m["error"]), "no session nope") {
		t.Errorf("unknown session: %s", m["error"])
	}
	c.send(`{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":"relative","mcpServers":[]}}`)
	if m := c.answer("4"); errorCode(m) != -32602 || !strings.Contains(string(m["error"]), "absolute") {
		t.Errorf("relative cwd: %s", m["error"])
	}
	c.send(`{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[{"name":"s","url":"http://x","headers":[],"type":"sse"}]}}`)
	if m := c.answer("5"); errorCode(m) != -32602 || !strings.Contains(string(m["error"]), "SSE") {
		t.Errorf("an SSE server: %s", m["error"])
	}
	c.send(`{"jsonrpc":"2.0","id":6,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`)
	c.answer("6")
	c.send(`{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"sess_a","prompt":[{"type":"text","text":"panic"}]}}`)
	if m := c.answer("7"); errorCode(m) != -32603 || !strings.Contains(string(m["error"]), "boom") {
		t.Errorf("a panic: %s", m["error"])
	}
	c.send(`{"jsonrpc":"2.0","id":8,"method":"session/prompt","params":{"sessionId":"sess_a","prompt":[{"type":"image","data":"AA==","mimeType":"image/png"}]}}`)
	if m := c.answer("8"); errorCode(m) != -32602 || !strings.Contains(string(m["error"]), "images") {
		t.Errorf("an image: %s", m["error"])
	}
	c.send(`{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{"sessionId":"sess_a","prompt":[{"type":"text","text":"hi"}]}}`)
	if m := c.answer("9"); !strings.Contains(string(m["result"]), "end_turn") {
		t.Errorf("after the errors, a prompt: %v", m)
	}
	c.send(`{"jsonrpc":"2.0","id":10,"method":"session/prompt","params":{"sessionId":"sess_a","prompt":[{"type":"text","text":"wait"}]}}`)
	time.Sleep(20 * time.Millisecond)
	_ = c.in.Close()
	go func() {
		for c.out.Scan() {
		}
	}()
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not end when standard input closed")
	}
	if !h.opened[0].closed {
		t.Error("the session was not closed")
	}
}

func TestStopReason(t *testing.T) {
	for _, tc := range []struct {
		r    agent.Reason
		want sdk.StopReason
	}{
		{agent.ReasonStop, sdk.StopReasonEndTurn},
		{agent.ReasonLoop, sdk.StopReasonEndTurn},
		{agent.ReasonMaxTurns, sdk.StopReasonMaxTurnRequests},
		{agent.ReasonBudget, sdk.StopReasonMaxTokens},
		{agent.ReasonContext, sdk.StopReasonMaxTokens},
		{agent.ReasonHook, sdk.StopReasonRefusal},
		{agent.ReasonCancelled, sdk.StopReasonCancelled},
	} {
		if got := stopReason(agent.Done{Reason: tc.r}); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.r, got, tc.want)
		}
	}
}

func TestPromptText(t *testing.T) {
	blocks := []sdk.ContentBlock{
		sdk.TextBlock("look at "),
		sdk.ResourceLinkBlock("main.go", "file:///src/main.go"),
		sdk.TextBlock(" and "),
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file:///src/a.go", Text: "package a\n"}}),
	}
	got, err := promptText(blocks)
	want := "look at @/src/main.go and \n<context ref=\"file:///src/a.go\">\npackage a\n</context>\n"
	if err != nil || got != want {
		t.Errorf("promptText = %q, %v; want %q", got, err, want)
	}
	if _, err := promptText([]sdk.ContentBlock{sdk.ImageBlock("AA==", "image/png")}); err == nil {
		t.Error("an image was taken")
	}
}

// A prompt forge cannot run is answered with an error whose message says
// why: invalid params when the prompt is at fault, internal otherwise.
func TestPromptErrors(t *testing.T) {
	h := &fakeHost{}
	c := startRaw(t, h)
	defer c.in.Close()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	c.answer("1")
	c.send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`)
	c.answer("2")
	for id, tc := range map[string]struct {
		prompt string
		code   int
		msg    string
	}{
		"3": {"/typo", -32602, "the prompt cannot run: no such command"},
		"4": {"nomodel", -32603, "no model is configured"},
	} {
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"session/prompt","params":{"sessionId":"sess_a","prompt":[{"type":"text","text":"` + tc.prompt + `"}]}}`)
		var e struct {
			Code    int
			Message string
		}
		_ = json.Unmarshal(c.answer(id)["error"], &e)
		if e.Code != tc.code || e.Message != tc.msg {
			t.Errorf("%s: %+v, want %d %q", tc.prompt, e, tc.code, tc.msg)
		}
	}
}
