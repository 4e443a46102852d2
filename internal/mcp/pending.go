package mcp

import (
	"encoding/json"
	"strconv"
	"sync"
	"time"
)

// pending tracks the requests a client sent that the server has not
// answered yet, and those the client cancelled. When the client's input
// ends right after its requests (printf ... | forge mcp serve), Serve keeps
// the session open briefly for their answers; a cancelled request's answer
// is never written.
type pending struct {
	mu        sync.Mutex
	ids       map[string]struct{} // owed an answer
	cancelled map[string]struct{} // cancelled while owed: the answer is dropped
	empty     chan struct{}       // closed when ids becomes empty while a wait runs
}

func newPending() *pending {
	return &pending{ids: map[string]struct{}{}, cancelled: map[string]struct{}{}}
}

// sent notes a message from the client; requests (method and id) are owed an answer.
func (p *pending) sent(msg []byte) {
	if key, ok := messageID(msg, true); ok {
		p.mu.Lock()
		p.ids[key] = struct{}{}
		p.mu.Unlock()
	}
}

// cancel notes the client's cancellation of request key and reports
// whether that request is still owed. Only then is it marked: an answered
// request's id may be reused.
func (p *pending) cancel(key string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, owed := p.ids[key]; !owed {
		return false
	}
	delete(p.ids, key)
	p.cancelled[key] = struct{}{}
	p.signalLocked()
	return true
}

// settle notes a message from the server before it is written and reports
// whether to write it: a response (id, no method) settles its request, and
// is dropped when that request was cancelled.
func (p *pending) settle(msg []byte) bool {
	key, ok := messageID(msg, false)
	if !ok {
		return true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, dropped := p.cancelled[key]; dropped {
		delete(p.cancelled, key)
		return false
	}
	delete(p.ids, key)
	p.signalLocked()
	return true
}

func (p *pending) signalLocked() {
	if len(p.ids) == 0 && p.empty != nil {
		close(p.empty)
		p.empty = nil
	}
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
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
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
	return idKey(m.ID)
}

// cancelledID returns the request a notifications/cancelled message names,
// in messageID's form.
func cancelledID(msg []byte) (string, bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Method != "notifications/cancelled" || len(m.ID) != 0 {
		return "", false
	}
	return idKey(m.Params.RequestID)
}

// idKey is a JSON-RPC id in a canonical form: a quoted string or a number.
func idKey(raw json.RawMessage) (string, bool) {
	v, ok := idValue(raw)
	if !ok {
		return "", false
	}
	if id, ok := v.(string); ok {
		return strconv.Quote(id), true
	}
	return strconv.FormatFloat(v.(float64), 'g', -1, 64), true
}
