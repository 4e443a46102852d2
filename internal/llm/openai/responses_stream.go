package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/internal/wire"
)

// rEvent is one Responses stream event: the fields forge reads.
type rEvent struct {
	Type        string `json:"type"`
	OutputIndex int64  `json:"output_index"`
	Delta       string `json:"delta"`
	Item        rItem  `json:"item"`
	Response    struct {
		Model             string `json:"model"`
		Status            string `json:"status"`
		IncompleteDetails *struct {
			Reason string `json:"reason"`
		} `json:"incomplete_details"`
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Usage *struct {
			InputTokens        int64 `json:"input_tokens"`
			OutputTokens       int64 `json:"output_tokens"`
			InputTokensDetails struct {
				CachedTokens int64 `json:"cached_tokens"`
			} `json:"input_tokens_details"`
		} `json:"usage"`
	} `json:"response"`
	// An error event's.
	Code    string `json:"code"`
	Message string `json:"message"`
}

// rItem is an output item as output_item.added and .done give it.
type rItem struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Summary   []struct {
		Text string `json:"text"`
	} `json:"summary"`
	EncryptedContent string `json:"encrypted_content"`
	Content          []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	} `json:"content"`
}

// rAssembler builds one turn from a Responses stream: output items by
// their index (messages, function calls, reasoning), their deltas as they
// stream (text, arguments, reasoning summary), each item completed by its
// output_item.done, and the end: response.completed, or .incomplete (cut
// at max_output_tokens).
type rAssembler struct {
	items    map[int64]*rPart
	model    string
	stop     llm.StopReason
	usage    llm.Usage
	finished bool
	events   int
	size     int
}

type rPart struct {
	index int64
	item  rItem
	text  strings.Builder // a message's text, a reasoning summary
	args  strings.Builder
	done  bool
}

func (a *rAssembler) part(i int64) *rPart {
	if a.items == nil {
		a.items = map[int64]*rPart{}
	}
	p := a.items[i]
	if p == nil {
		p = &rPart{index: i}
		a.items[i] = p
	}
	return p
}

// add takes one event.
func (a *rAssembler) add(ev *rEvent, onDelta func(llm.Delta)) {
	a.events++
	a.size += len(ev.Delta) + len(ev.Item.Arguments) + len(ev.Item.EncryptedContent)
	switch ev.Type {
	case "response.created", "response.in_progress":
		a.model = ev.Response.Model
	case "response.output_item.added":
		p := a.part(ev.OutputIndex)
		p.item = ev.Item
		if ev.Item.Type == "function_call" {
			onDelta(llm.Delta{ToolName: ev.Item.Name})
		}
	case "response.output_text.delta", "response.refusal.delta":
		a.part(ev.OutputIndex).text.WriteString(ev.Delta)
		if ev.Delta != "" {
			onDelta(llm.Delta{Text: ev.Delta})
		}
	case "response.function_call_arguments.delta":
		a.part(ev.OutputIndex).args.WriteString(ev.Delta)
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		p := a.part(ev.OutputIndex)
		p.text.WriteString(ev.Delta)
		if ev.Delta != "" {
			onDelta(llm.Delta{Thinking: ev.Delta})
		}
	case "response.reasoning_summary_part.added":
		if p := a.part(ev.OutputIndex); p.text.Len() > 0 {
			p.text.WriteString("\n\n")
			onDelta(llm.Delta{Thinking: "\n\n"})
		}
	case "response.output_item.done":
		p := a.part(ev.OutputIndex)
		p.item, p.done = ev.Item, true
	case "response.completed", "response.incomplete":
		a.end(ev)
	}
}

// end takes the response's last event: its model, usage and how it ended.
func (a *rAssembler) end(ev *rEvent) {
	a.finished = true
	if ev.Response.Model != "" {
		a.model = ev.Response.Model
	}
	if u := ev.Response.Usage; u != nil {
		a.usage = llm.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, CacheReadTokens: u.InputTokensDetails.CachedTokens}
	}
	a.stop = llm.StopEnd
	if ev.Type == "response.incomplete" {
		a.stop = llm.StopOther
		if d := ev.Response.IncompleteDetails; d != nil && d.Reason == "max_output_tokens" {
			a.stop = llm.StopMaxTokens
		}
	}
}

// response is the assembled turn, its items in output order.
func (a *rAssembler) response() llm.Response {
	parts := make([]*rPart, 0, len(a.items))
	for _, p := range a.items {
		parts = append(parts, p)
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].index < parts[j].index })
	msg := llm.Message{Role: llm.RoleAssistant}
	var text strings.Builder
	for _, p := range parts {
		switch p.item.Type {
		case "message":
			text.WriteString(p.messageText())
		case "reasoning":
			msg.Reasoning = append(msg.Reasoning, p.reasoning())
		case "function_call":
			args := p.item.Arguments
			if !p.done || strings.TrimSpace(args) == "" {
				args = p.args.String()
			}
			if strings.TrimSpace(args) == "" {
				args = "{}"
			}
			id := p.item.CallID
			if id == "" {
				id = fmt.Sprintf("call_%d", len(msg.ToolCalls)+1)
			}
			msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: id, Name: p.item.Name, Arguments: json.RawMessage(args)})
		}
	}
	llm.UniqueCallIDs(msg.ToolCalls)
	msg.Text = text.String()
	stop := a.stop
	if len(msg.ToolCalls) > 0 {
		stop = llm.StopToolUse
	}
	return llm.Response{Message: msg, Stop: stop, Usage: a.usage, Model: a.model}
}

// messageText is a message item's text: as done gave it, else as it
// streamed.
func (p *rPart) messageText() string {
	if !p.done {
		return p.text.String()
	}
	var b strings.Builder
	for _, c := range p.item.Content {
		b.WriteString(c.Text + c.Refusal)
	}
	return b.String()
}

// reasoning is a reasoning item as the conversation keeps it: its
// summary to show, and its ID and encrypted content to send back.
func (p *rPart) reasoning() llm.Reasoning {
	r := llm.Reasoning{Provider: llm.ReasoningResponses, ID: p.item.ID, Redacted: p.item.EncryptedContent, Text: p.text.String()}
	if p.done && len(p.item.Summary) > 0 {
		parts := make([]string, len(p.item.Summary))
		for i, s := range p.item.Summary {
			parts[i] = s.Text
		}
		r.Text = strings.Join(parts, "\n\n")
	}
	return r
}

// readResponseEvents feeds a Responses stream to a until its end. An
// error event, or response.failed, ends it with the server's message.
func readResponseEvents(events *wire.Events, a *rAssembler, onDelta func(llm.Delta), watch *wire.Watch) error {
	for events.Next() {
		ev := events.Event()
		data := bytes.TrimSuffix(ev.Data, []byte("\n"))
		if len(data) == 0 || bytes.HasPrefix(data, []byte("[DONE]")) {
			continue
		}
		var e rEvent
		err := json.Unmarshal(data, &e)
		if te := (*json.UnmarshalTypeError)(nil); err != nil && !(errors.As(err, &te) && te.Field != "") {
			return err
		}
		switch e.Type {
		case "error", "response.failed":
			return responseFailure(&e, data)
		}
		a.add(&e, onDelta)
		if err := watch.Saw(a.size); err != nil {
			return err
		}
		if a.finished {
			return nil
		}
	}
	return events.Err()
}

// responseFailure is a failure the stream reported, as the SDK's stream
// error, which streamError words.
func responseFailure(e *rEvent, data []byte) error {
	code, msg := e.Code, e.Message
	if f := e.Response.Error; f != nil {
		code, msg = f.Code, f.Message
	}
	body, _ := json.Marshal(map[string]any{"error": map[string]string{"type": code, "message": msg}})
	return &ssestream.StreamError{Message: "received error while streaming: " + string(data),
		Event: ssestream.Event{Type: e.Type, Data: body}}
}
