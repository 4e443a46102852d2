package mcp

import (
	"encoding/json"
	"strconv"
	"sync"
	"time"
)

// drainLimit bounds how long Serve keeps a session open after its input
// ended, waiting for answers still owed: longer than any tool's deadline
// (Bash allows 600 s), so only a session that is truly stuck is cut.
const drainLimit = 11 * time.Minute

// pending tracks the requests a client sent that the server has not
// answered yet. When the client's input ends right after its requests
// (printf ... | forge mcp serve), the session must stay open until they are
// answered, or those answers would be lost.
type pending struct {
	mu    sync.Mutex
	ids   map[string]struct{}
	empty chan struct{} // closed when ids becomes empty while a drain waits
}

func newPending() *pending { return &pending{ids: map[string]struct{}{}} }

// sent notes a message from the client; requests (method and id) are owed an answer.
func (p *pending) sent(msg []byte) {
	if key, ok := messageID(msg, true); ok {
		p.mu.Lock()
		p.ids[key] = struct{}{}
		p.mu.Unlock()
	}
}

// answered notes a message from the server; responses (id, no method) settle a request.
func (p *pending) answered(msg []byte) {
	key, ok := messageID(msg, false)
	if !ok {
		return
	}
	p.mu.Lock()
	delete(p.ids, key)
	if len(p.ids) == 0 && p.empty != nil {
		close(p.empty)
		p.empty = nil
	}
	p.mu.Unlock()
}

// wait returns once every request is answered, or after limit.
func (p *pending) wait(limit time.Duration) {
	p.mu.Lock()
	if len(p.ids) == 0 {
		p.mu.Unlock()
		return
	}
	ch := make(chan struct{})
	p.empty = ch
	p.mu.Unlock()
	select {
	case <-ch:
	case <-time.After(limit):
	}
}

// messageID returns the id of a request (request true: it has a method) or
// of a response (request false: it has none), in a canonical form.
func messageID(msg []byte, request bool) (string, bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &m) != nil || len(m.ID) == 0 || (m.Method != "") != request {
		return "", false
	}
	v, ok := idValue(m.ID)
	if !ok {
		return "", false
	}
	if id, ok := v.(string); ok {
		return strconv.Quote(id), true
	}
	return strconv.FormatFloat(v.(float64), 'g', -1, 64), true
}
