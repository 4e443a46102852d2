package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/forgehq/forge/builtin"
	"github.com/forgehq/forge/internal/proc"
	"github.com/forgehq/forge/internal/tools"
)

// rawSession is Serve on pipes, driven line by line as a client would.
type rawSession struct {
	t    *testing.T
	in   *io.PipeWriter
	done chan error // Serve's result

	mu    sync.Mutex
	lines []string      // everything Serve wrote
	seen  chan struct{} // signalled on every line
}

func startRaw(t *testing.T, ex *tools.Executor, opts ServeOptions) *rawSession {
	t.Helper()
	return startRawTimes(t, ex, opts, defaultStopTimes)
}

func startRawTimes(t *testing.T, ex *tools.Executor, opts ServeOptions, times stopTimes) *rawSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &rawSession{t: t, in: inW, done: make(chan error, 1), seen: make(chan struct{}, 1)}
	go func() { r.done <- serve(context.Background(), ex, opts, inR, outW, times); outW.Close() }()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			r.mu.Lock()
			r.lines = append(r.lines, sc.Text())
			r.mu.Unlock()
			select {
			case r.seen <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() { inW.Close() })
	r.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	r.await(`"init"`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r
}

func (r *rawSession) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatalf("sending %s: %v", line, err)
	}
}

// reply returns the reply to id (in messageID's form), if one came.
func (r *rawSession) reply(id string) (map[string]any, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range r.lines {
		if got, ok := messageID([]byte(l), false); ok && got == id {
			var m map[string]any
			json.Unmarshal([]byte(l), &m)
			return m, true
		}
	}
	return nil, false
}

// await waits for the reply to id.
func (r *rawSession) await(id string) map[string]any {
	r.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		if m, ok := r.reply(id); ok {
			return m
		}
		select {
		case <-r.seen:
		case <-deadline:
			r.t.Fatalf("no reply to %s", id)
		}
	}
}

// end closes the input and waits for Serve to return: the bound is far
// beyond the few seconds it takes and far below how long a call could
// otherwise keep it.
func (r *rawSession) end() error {
	r.t.Helper()
	r.in.Close()
	select {
	case err := <-r.done:
		return err
	case <-time.After(30 * time.Second):
		r.t.Fatal("Serve did not return after its input closed")
		return nil
	}
}

// The client closing its input ends the session promptly: a call still
// running is cancelled, not waited for.
func TestServeInputClosedCancelsCalls(t *testing.T) {
	ex, slow := serveRegistry(t)
	r := startRaw(t, ex, ServeOptions{Tools: []string{"Slow"}})
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Slow"}}`)
	<-slow.started
	if err := r.end(); err != nil {
		t.Errorf("Serve = %v", err)
	}
	if !slow.observed.Load() {
		t.Error("the running call was not cancelled")
	}
}

// A Bash command running when the input closes is stopped with its whole
// process group.
func TestServeInputClosedKillsBash(t *testing.T) {
	reg := tools.NewRegistry()
	if err := builtin.Register(reg); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ec := tools.NewExecutionContext(dir)
	r := startRaw(t, tools.NewExecutor(reg), ServeOptions{Context: ec, Tools: []string{"Bash"}})
	pidFile := filepath.Join(dir, "pid")
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Bash","arguments":{"command":"echo $$ > pid; sleep 300 & sleep 300"}}}`)
	var pgid int
	for deadline := time.Now().Add(20 * time.Second); pgid == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the command never started")
		}
		b, _ := os.ReadFile(pidFile)
		pgid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if err := r.end(); err != nil {
		t.Errorf("Serve = %v", err)
	}
	for deadline := time.Now().Add(20 * time.Second); proc.Alive(pgid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still alive after Serve returned", pgid)
		}
	}
}

// notifications/cancelled stops the call, and the request gets no reply, as
// the protocol asks of a receiver of a cancellation.
func TestServeCancelledRequestGetsNoReply(t *testing.T) {
	ex, slow := serveRegistry(t)
	r := startRaw(t, ex, ServeOptions{Tools: []string{"Slow", "Greet"}})
	r.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"Slow"}}`)
	<-slow.started
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"changed my mind"}}`)
	for deadline := time.Now().Add(20 * time.Second); !slow.observed.Load(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the call was not cancelled")
		}
	}
	// The session goes on.
	r.send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"Greet","arguments":{"name":"ann"}}}`)
	if m := r.await("6"); m["result"] == nil {
		t.Errorf("call after cancellation: %v", m)
	}
	// Serve returns once every call has ended, so whatever it would have
	// written for 5 is in the output by then.
	if err := r.end(); err != nil {
		t.Errorf("Serve = %v", err)
	}
	if m, ok := r.reply("5"); ok {
		t.Errorf("the cancelled request got a reply: %v", m)
	}
}

// A cancellation of a request already answered, or never made, changes
// nothing: a later request that reuses the id is answered.
func TestServeLateCancellation(t *testing.T) {
	ex, _ := serveRegistry(t)
	r := startRaw(t, ex, ServeOptions{Tools: []string{"Greet"}})
	r.send(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"Greet","arguments":{"name":"x"}}}`)
	r.await(`"a"`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`)
	r.send(`{"jsonrpc":"2.0","id":99,"method":"ping"}`)
	if m := r.await("99"); m["result"] == nil {
		t.Errorf("ping = %v", m)
	}
	if err := r.end(); err != nil {
		t.Errorf("Serve = %v", err)
	}
}

// blockingTool runs until release is closed, whatever its context says.
func blockingTool(name string, started, release chan struct{}) *localTool {
	return &localTool{name: name, cat: tools.CategoryOther, run: func(ctx context.Context, args tools.Args) tools.Result {
		close(started)
		<-release
		return tools.OK("finished")
	}}
}

// A call that ends within the grace after the input closed answers as it
// would have: a script piping requests in gets real answers.
func TestServeInputClosedLetsCallsFinish(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	reg := tools.NewRegistry()
	if err := reg.Register(blockingTool("Brief", started, release)); err != nil {
		t.Fatal(err)
	}
	r := startRawTimes(t, tools.NewExecutor(reg), ServeOptions{Tools: []string{"Brief"}}, stopTimes{grace: time.Minute, cancelled: time.Minute})
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Brief"}}`)
	<-started
	r.in.Close()
	close(release)
	if err := r.end(); err != nil {
		t.Errorf("Serve = %v", err)
	}
	m, _ := r.reply("1")
	if res, _ := m["result"].(map[string]any); res == nil || res["isError"] == true {
		t.Errorf("answer = %v", m)
	}
}

// A tool that ignores its cancellation does not keep Serve from returning:
// its call is answered as cancelled.
func TestServeInputClosedStuckCall(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	reg := tools.NewRegistry()
	if err := reg.Register(blockingTool("Stubborn", started, release)); err != nil {
		t.Fatal(err)
	}
	r := startRawTimes(t, tools.NewExecutor(reg), ServeOptions{Tools: []string{"Stubborn"}}, stopTimes{grace: time.Millisecond, cancelled: time.Minute})
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Stubborn"}}`)
	<-started
	if err := r.end(); err != nil {
		t.Errorf("Serve = %v", err)
	}
	m, _ := r.reply("1")
	if res, _ := m["result"].(map[string]any); res == nil || res["isError"] != true || !strings.Contains(jsonText(res), "cancelled") {
		t.Errorf("answer = %v", m)
	}
}
