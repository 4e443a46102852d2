package acp

import (
	"context"
	"errors"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/forgehq/forge/internal/agent"
)

// Prompt runs one prompt of a session, streaming its events as session
// updates, and answers with how it ended. A cancelled prompt answers
// cancelled, never an error: the editor cancelled it.
func (s *server) Prompt(ctx context.Context, p sdk.PromptRequest) (r sdk.PromptResponse, err error) {
	defer s.recovered("session/prompt", &err)
	l, err := s.mustSession(p.SessionId)
	if err != nil {
		return r, err
	}
	text, err := promptText(p.Prompt)
	if err != nil {
		return r, invalidParams(err.Error())
	}
	if strings.TrimSpace(text) == "" {
		return r, invalidParams("the prompt is empty")
	}
	if !s.begin() {
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	defer s.running.Done()
	l.turn.Lock()
	defer l.turn.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	l.cancel = cancel
	s.mu.Unlock()
	t := s.newTurn(ctx, l)
	d, err := l.sess.Run(ctx, text, t.front(), t.event)
	t.finish()
	switch {
	case ctx.Err() != nil || d.Reason == agent.ReasonCancelled:
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled, Usage: usage(d)}, nil
	case errors.Is(err, ErrBadPrompt):
		return r, invalidParams(err.Error())
	case err != nil:
		return r, internalError(err.Error())
	case d.Reason == agent.ReasonError:
		return r, internalError(d.Summary())
	}
	if why := d.Summary(); why != "" {
		t.message("\n\n_forge: " + why + "_\n")
	}
	return sdk.PromptResponse{StopReason: stopReason(d), Usage: usage(d)}, nil
}

// begin counts a prompt as running, unless the connection is over.
func (s *server) begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.running.Add(1)
	return true
}

// stopReason maps how forge's run ended to the protocol's reasons: a
// finished answer (or a loop forge stopped) ends the turn; a spent budget
// or a full window is the token limit; the limit on model requests is
// max_turn_requests; a prompt a hook refused is a refusal (it is not part
// of the conversation).
func stopReason(d agent.Done) sdk.StopReason {
	switch d.Reason {
	case agent.ReasonMaxTurns:
		return sdk.StopReasonMaxTurnRequests
	case agent.ReasonBudget, agent.ReasonContext:
		return sdk.StopReasonMaxTokens
	case agent.ReasonHook:
		return sdk.StopReasonRefusal
	case agent.ReasonCancelled:
		return sdk.StopReasonCancelled
	}
	return sdk.StopReasonEndTurn
}

// usage is the run's token usage, as the protocol counts it.
func usage(d agent.Done) *sdk.Usage {
	u := d.Usage
	if u.InputTokens == 0 && u.OutputTokens == 0 {
		return nil
	}
	out := &sdk.Usage{InputTokens: int(u.InputTokens), OutputTokens: int(u.OutputTokens), TotalTokens: int(u.InputTokens + u.OutputTokens)}
	if u.CacheReadTokens > 0 {
		out.CachedReadTokens = sdk.Ptr(int(u.CacheReadTokens))
	}
	if u.CacheWriteTokens > 0 {
		out.CachedWriteTokens = sdk.Ptr(int(u.CacheWriteTokens))
	}
	return out
}
