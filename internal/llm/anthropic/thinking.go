package anthropic

import (
	"strconv"
	"strings"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/internal/wire"
)

// interleavedBeta lets a model with manual extended thinking think again
// between its tool calls; models with adaptive thinking do so without it.
const interleavedBeta = "interleaved-thinking-2025-05-14"

// thinking is how one request asks for extended thinking.
type thinking struct {
	// budget is the tokens of a manual thinking config; 0 with adaptive
	// false means no thinking.
	budget   int64
	adaptive bool
	effort   llm.Effort
}

func (t thinking) on() bool { return t.budget > 0 || t.adaptive }

// thinkingBudgets are the thinking tokens of each effort, for models
// that take a budget. The answer's own tokens come on top (maxTokens), so
// that thinking hard never leaves a model without room to answer; the
// highest stays within the 32k output tokens of the smallest window
// (Opus 4.1).
var thinkingBudgets = map[llm.Effort]int64{
	llm.EffortLow:    2048,
	llm.EffortMedium: 8192,
	llm.EffortHigh:   24576,
}

// thinkingFor is the thinking req asks of model: none without an effort or
// for a model known to have none; adaptive (the model decides how much,
// told the effort) for the models that support it; a budget for the
// others. It is off, too, when the conversation is in the middle of a
// turn whose last tool calls came without thinking (another provider's
// turn, or effort set after it began): the API wants a thinking turn to
// start with its thinking.
func thinkingFor(req llm.Request, model string) thinking {
	if req.Effort == "" || midTurnWithoutThinking(req.Messages) {
		return thinking{}
	}
	if info, ok := llm.LookupModel(model); ok && info.NoReasoning {
		return thinking{}
	}
	if adaptiveThinking(model) {
		return thinking{adaptive: true, effort: req.Effort}
	}
	b, ok := thinkingBudgets[req.Effort]
	if !ok {
		return thinking{}
	}
	return thinking{budget: b, effort: req.Effort}
}

// midTurnWithoutThinking says the conversation ends in tool results
// answering an assistant message with calls but no Anthropic thinking.
func midTurnWithoutThinking(msgs []llm.Message) bool {
	for i := len(msgs) - 1; i >= 0; i-- {
		switch m := &msgs[i]; m.Role {
		case llm.RoleTool:
			continue
		case llm.RoleAssistant:
			if len(m.ToolCalls) == 0 {
				return false
			}
			for _, r := range m.Reasoning {
				if r.Provider == llm.ReasoningAnthropic && (r.Signature != "" || r.Redacted != "") {
					return false
				}
			}
			return true
		default:
			return false
		}
	}
	return false
}

// adaptiveThinking says model decides for itself how much to think, told
// an effort: Claude 4.6 and later. Names are claude-FAMILY-MAJOR-MINOR
// (with a date or other suffix after), or claude-FAMILY-MAJOR.
func adaptiveThinking(model string) bool {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	parts := strings.Split(name, "-")
	if len(parts) < 3 || parts[0] != "claude" {
		return false
	}
	major, err := strconv.Atoi(parts[2])
	if err != nil {
		return false // claude-3-5-haiku and the like
	}
	minor := 0
	if len(parts) > 3 && len(parts[3]) <= 2 {
		minor, _ = strconv.Atoi(parts[3])
	}
	return major > 4 || (major == 4 && minor >= 6)
}

// appendThinking appends the request's thinking config: adaptive with the
// effort in output_config, or enabled with a budget. Adaptive thinking is
// asked to show its thinking summarised, which some models otherwise omit.
func appendThinking(b []byte, t thinking) []byte {
	switch {
	case t.adaptive:
		b = append(b, `,"thinking":{"type":"adaptive","display":"summarized"},"output_config":{"effort":`...)
		b = wire.AppendString(b, string(t.effort))
		return append(b, '}')
	case t.budget > 0:
		b = append(b, `,"thinking":{"type":"enabled","budget_tokens":`...)
		b = strconv.AppendInt(b, t.budget, 10)
		return append(b, '}')
	}
	return b
}

// maxTokens is the request's max_tokens: the answer's bound, with the
// thinking budget on top when the model thinks (thinking counts towards
// it, and the budget must be below it).
func maxTokens(req llm.Request, t thinking) int64 {
	n := int64(req.MaxTokens)
	if n <= 0 {
		n = DefaultMaxTokens
	}
	switch {
	case t.budget > 0:
		return n + t.budget
	case t.adaptive:
		return n + thinkingBudgets[t.effort]
	}
	return n
}

// sendable says r can go back to the Messages API: Anthropic's own
// thinking, signed, or redacted. Another provider's reasoning cannot be
// given to Claude, and thinking without a signature would be refused.
func sendable(r *llm.Reasoning) bool {
	return r.Provider == llm.ReasoningAnthropic && (r.Redacted != "" || r.Signature != "")
}

// appendReasoning appends a sendable thinking block exactly as it came,
// signature and data unchanged.
func appendReasoning(b []byte, r *llm.Reasoning) []byte {
	if r.Redacted != "" {
		b = append(b, `{"type":"redacted_thinking","data":`...)
		b = wire.AppendString(b, r.Redacted)
		return append(b, '}')
	}
	b = append(b, `{"type":"thinking","thinking":`...)
	b = wire.AppendString(b, r.Text)
	b = append(b, `,"signature":`...)
	b = wire.AppendString(b, r.Signature)
	return append(b, '}')
}
