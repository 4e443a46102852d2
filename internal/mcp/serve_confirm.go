package mcp

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// approveField is the one field of the form that asks the person at the
// client about a call, and the id of that input request.
const approveField = "approve"

// confirmSchema is that form: a single yes or no, no by default.
var confirmSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		approveField: map[string]any{"type": "boolean", "title": "Run this call", "default": false,
			"description": "Yes runs the call once; no refuses it."},
	},
	"required": []string{approveField},
}

// errInputRequired stops a call whose question goes to the client first:
// the call is answered with the question (an input request), and the
// client calls again with the person's answer.
var errInputRequired = errors.New("the question goes to the client first")

// asking is one served call's way to the person at its client. A call
// that needs a yes is answered with the question (a multi-round-trip
// input request: the SDK turns it into an elicitation for clients of the
// older protocol versions); the client then repeats the call with the
// answer. The question is signed with the server's key, so that only an
// answer to the question this server put, about this very call, counts:
// a client cannot send its own "yes" with a call.
type asking struct {
	key     []byte
	answers mcp.InputResponseMap
	state   string
	// question is the question to put, once the call stopped for it.
	question string
}

// newAsking is how the call req asks, or nil when its client takes no
// form elicitation and so cannot be asked.
func newAsking(key []byte, req *mcp.CallToolRequest) *asking {
	if req.Session == nil || !elicitsForms(req.Session.InitializeParams()) {
		return nil
	}
	a := &asking{key: key}
	if req.Params != nil {
		a.answers, a.state = req.Params.InputResponses, req.Params.RequestState
	}
	return a
}

// confirm is the call's Confirm: the person's answer to question when the
// client brought it, else errInputRequired, having kept the question.
func (a *asking) confirm(_ context.Context, question string) (bool, error) {
	if r, ok := a.answers[approveField].(*mcp.ElicitResult); ok && hmac.Equal([]byte(a.state), []byte(a.sign(question))) {
		if r.Action != "accept" {
			return false, nil
		}
		yes, ok := r.Content[approveField].(bool)
		if !ok {
			return false, errors.New("the client's answer has no yes or no")
		}
		return yes, nil
	}
	a.question = question
	return false, errInputRequired
}

// inputRequest is the result that puts the kept question to the client;
// nil when the call asked none.
func (a *asking) inputRequest() *mcp.CallToolResult {
	if a == nil || a.question == "" {
		return nil
	}
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{approveField: &mcp.ElicitParams{Mode: "form", Message: a.question, RequestedSchema: confirmSchema}},
		RequestState:  a.sign(a.question),
	}
}

// sign is the request state that binds an answer to question.
func (a *asking) sign(question string) string {
	m := hmac.New(sha256.New, a.key)
	m.Write([]byte(question))
	return hex.EncodeToString(m.Sum(nil))
}

// elicitsForms says the client that sent p takes form elicitations (a
// client naming neither kind takes forms, as the protocol's first
// version of elicitation had only those).
func elicitsForms(p *mcp.InitializeParams) bool {
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false
	}
	e := p.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil
}
