package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/llm"
)

// Compaction replaces the older part of a conversation by a summary the
// model writes, keeping the recent turns verbatim, when the next request
// would fill most of the model's window. The shares below are of the
// window.
const (
	// compactAt is the share at which a conversation is compacted: room
	// is left for the answer and a few more rounds.
	compactAt = 0.8
	// keepShare bounds the recent turns kept verbatim.
	keepShare = 0.3
	// pieceShare bounds the part of the conversation one summarising
	// request reads: a window already full is summarised in pieces.
	pieceShare = 0.5
	// overflowFill is how much of a refused request a compacted one may
	// still be: less would fit where the refused one did not, likely.
	overflowFill = 0.85
)

// summaryPrompt asks for a summary the model can go on working from.
const summaryPrompt = "Summarise the conversation above for yourself, to continue the work from your summary alone: " +
	"what the person asked (their own words where they matter), what was done and found, which files were read or " +
	"changed and how, decisions taken, errors met, and what is left to do. Be concise, but keep every name, path, " +
	"number and detail needed to continue. Write notes, not prose; do not call tools."

// summaryHeader opens the message that stands for the compacted part;
// summarySeparator ends it when the person's next prompt follows in the
// same message.
const (
	summaryHeader    = "[The earlier part of this conversation was compacted into this summary.]\n\n"
	summarySeparator = "\n\n---\n\n"
)

// ErrNothingToCompact is the error of a conversation too short to
// compact; errors.Is matches a *NothingToCompactError with it too.
var ErrNothingToCompact = errors.New("nothing to compact: the conversation has no earlier turns to summarise")

// NothingToCompactError says why Compact left a conversation as it was.
type NothingToCompactError struct {
	// Reason is why, for the person: "the conversation is empty".
	Reason string
}

func (e *NothingToCompactError) Error() string { return "nothing to compact: " + e.Reason }

// Is makes errors.Is(err, ErrNothingToCompact) hold.
func (e *NothingToCompactError) Is(target error) bool { return target == ErrNothingToCompact }

// Compact compacts conv now, as /compact asks, whatever its size: the
// person asked, so everything before the last exchange (the last prompt
// and what answered it) is summarised, and that exchange is kept as it
// is. It returns a note of what it did, or a *NothingToCompactError that
// says why there is nothing to summarise.
func (a *Agent) Compact(ctx context.Context, conv *Conversation, emit func(Event)) (string, error) {
	r := &run{a: a, conv: conv, emit: emit, specs: a.toolSpecs()}
	r.done.Priced = a.cfg.Price != nil
	split := lastExchange(conv.Messages)
	if err := nothingBefore(conv.Messages, split); err != nil {
		return "", err
	}
	// The model read the whole conversation before, so the older part
	// fits one request unless the window is known to be smaller.
	piece := estimateMessages(conv.Messages[:split])
	if w := int64(a.cfg.ContextWindow); w > 0 {
		piece = min(piece, int64(pieceShare*float64(w)))
	}
	return r.compactBefore(ctx, split, piece)
}

// lastExchange is where the conversation's last exchange begins: its last
// message from the user's side that is not a tool result (the person's
// prompt, or forge's note in their place). len(msgs) when there is none.
func lastExchange(msgs []llm.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleUser {
			return i
		}
	}
	return len(msgs)
}

// nothingBefore says why msgs[:split] is nothing to summarise, or nil.
func nothingBefore(msgs []llm.Message, split int) error {
	switch {
	case len(msgs) == 0:
		return &NothingToCompactError{Reason: "the conversation is empty"}
	case split == len(msgs):
		return &NothingToCompactError{Reason: "the conversation has no prompt to keep"}
	case split == 0 && strings.HasPrefix(msgs[0].Text, summaryHeader):
		return &NothingToCompactError{Reason: "the conversation is already a summary and its last exchange, which is kept as it is"}
	case split == 0:
		return &NothingToCompactError{Reason: "the conversation has only one exchange, the last, which is kept as it is"}
	case split == 1 && strings.HasPrefix(msgs[0].Text, summaryHeader):
		return &NothingToCompactError{Reason: "everything before the last exchange is already a summary"}
	}
	return nil
}

// fitWindow compacts the conversation when the next request would fill
// the window past compactAt. It reports whether the run must stop: the
// summary failed, or even compacted the conversation does not fit.
func (r *run) fitWindow(ctx context.Context) bool {
	window := int64(r.a.cfg.ContextWindow)
	if window <= 0 || float64(r.estimate()) < compactAt*float64(window) {
		return false
	}
	return r.compactOrStop(ctx, window, compactAt)
}

// refitAfterOverflow compacts a conversation the provider refused (err)
// as too long for its window (unknown, or smaller than forge knew): it
// must come out clearly smaller than what was refused, and is sent once
// more.
func (r *run) refitAfterOverflow(ctx context.Context, err error) bool {
	r.noteOverflow(err)
	return r.compactOrStop(ctx, r.estimate(), overflowFill)
}

// noteOverflow keeps what the provider said of a request it refused as
// too long: its window, and what the request needed (its count is
// better than forge's estimate), for the message if the run stops.
func (r *run) noteOverflow(err error) {
	used, window := llm.ContextLimits(err)
	if window > 0 {
		r.serverWindow = window
	}
	r.serverUsed = used
}

// compactOrStop compacts for a window of the given size and stops the run
// when that cannot make the conversation fit, below fill of the window:
// compaction is tried once per request, so it never loops.
func (r *run) compactOrStop(ctx context.Context, window int64, fill float64) bool {
	if _, err := r.compact(ctx, window); err != nil && !errors.Is(err, ErrNothingToCompact) {
		r.fail(ctx, err)
		return true
	}
	if est := r.estimate(); float64(est) >= fill*float64(window) {
		r.stopForContext(est)
		return true
	}
	return false
}

// ContextError is why a run stopped with ReasonContext: the conversation
// does not fit the model's window, even compacted.
type ContextError struct {
	// Need is about how many tokens the conversation needs.
	Need int64
	// Window is the window forge counted with (--context-window, or known
	// for the model); 0 when it knew none.
	Window int64
	// Server is the window the provider named when it refused the
	// request; 0 when it named none.
	Server int64
	// Fixed is about how many of the tokens every request holds besides
	// the conversation: the system prompt and the tool specs.
	Fixed int64
	// Advice says what the person can do; the front end words it, as it
	// knows what works there (/clear in the shell, not in forge ask).
	Advice string
}

func (e *ContextError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the conversation needs about %d tokens and does not fit the model's window", e.Need)
	switch {
	case e.Server > 0:
		fmt.Fprintf(&b, " of %d tokens (as the server says)", e.Server)
	case e.Window > 0:
		fmt.Fprintf(&b, " of about %d tokens", e.Window)
	}
	b.WriteString(", even compacted")
	if e.Fixed*2 >= e.Need {
		fmt.Fprintf(&b, " (forge's system prompt and tool specs take about %d of them)", e.Fixed)
	}
	if e.Advice != "" {
		b.WriteString(": " + e.Advice)
	}
	return b.String()
}

// stopForContext ends a run whose conversation, of about need tokens,
// does not fit.
func (r *run) stopForContext(need int64) {
	if r.serverUsed > need {
		need = r.serverUsed
	}
	r.done.Reason = ReasonContext
	r.done.Err = &ContextError{Need: need, Window: int64(r.a.cfg.ContextWindow), Server: r.serverWindow, Fixed: r.fixedTokens()}
}

// compact summarises the older part of the conversation and keeps the
// recent turns, for a window of the given size.
func (r *run) compact(ctx context.Context, window int64) (string, error) {
	split := keepFrom(r.conv.Messages, int64(keepShare*float64(window)))
	if split <= 0 {
		return "", ErrNothingToCompact
	}
	return r.compactBefore(ctx, split, int64(pieceShare*float64(window)))
}

// compactBefore replaces the messages before split by their summary,
// read by the model in pieces of at most piece tokens.
func (r *run) compactBefore(ctx context.Context, split int, piece int64) (string, error) {
	msgs := r.conv.Messages
	before := r.estimate()
	summary, err := r.summarise(ctx, msgs[:split], piece)
	if err != nil {
		return "", fmt.Errorf("compacting the conversation: %w", err)
	}
	kept := msgs[split:]
	note := fmt.Sprintf("compacted %d earlier messages into a summary; kept the last %d", split, len(kept))
	r.conv.replace(withSummary(summary, kept), note)
	note = fmt.Sprintf("%s (about %d → %d tokens)", note, before, r.estimate())
	r.emit(Event{Type: EventCompaction, Text: note})
	return note, nil
}

// keepFrom is where the kept recent turns start: the earliest message from
// which the rest fits in keep tokens, at a message that is not a tool
// result (the kept part must not begin with an answer to a call it does
// not hold). At least the last such message is kept; 0 means there is
// nothing before it to summarise.
func keepFrom(msgs []llm.Message, keep int64) int {
	split, size := len(msgs), int64(0)
	for i := len(msgs) - 1; i >= 0; i-- {
		size += estimateMessages(msgs[i : i+1])
		if msgs[i].Role == llm.RoleTool {
			continue
		}
		if size > keep && split < len(msgs) {
			break
		}
		split = i
	}
	if split == len(msgs) {
		return 0
	}
	return split
}

// withSummary is the compacted conversation: the summary as a user message
// (joined to the first kept message when that is the person's, since the
// roles must alternate), then the kept turns.
func withSummary(summary string, kept []llm.Message) []llm.Message {
	text := summaryHeader + strings.TrimSpace(summary)
	out := make([]llm.Message, 0, len(kept)+1)
	if len(kept) > 0 && kept[0].Role == llm.RoleUser {
		first := kept[0]
		first.Text = text + summarySeparator + first.Text
		return append(append(out, first), kept[1:]...)
	}
	return append(append(out, llm.Message{Role: llm.RoleUser, Text: text}), kept...)
}

// summarise has the model summarise msgs, in pieces of at most piece
// tokens, each piece read with the summary of those before it.
func (r *run) summarise(ctx context.Context, msgs []llm.Message, piece int64) (string, error) {
	summary := ""
	for _, part := range transcriptPieces(msgs, piece) {
		text := part
		if summary != "" {
			text = "Summary of the conversation before this part:\n" + summary + "\n\nThe conversation went on:\n" + part
		}
		req := llm.Request{Model: r.a.cfg.ModelName, System: "You summarise a coding agent's conversation so that it can go on from the summary.",
			Messages: []llm.Message{{Role: llm.RoleUser, Text: text + "\n\n" + summaryPrompt}}, MaxTokens: r.a.cfg.MaxAnswerTokens}
		r.done.Requests++
		resp, err := r.a.cfg.Model.Stream(ctx, req, func(llm.Delta) {})
		if err != nil {
			return "", err
		}
		r.addUsage(resp.Usage)
		if strings.TrimSpace(resp.Message.Text) == "" {
			return "", errors.New("the model wrote an empty summary")
		}
		summary = resp.Message.Text
	}
	return summary, nil
}

// transcriptPieces writes msgs as a plain transcript, in pieces of at most
// piece tokens; a message larger than a piece is cut to fit.
func transcriptPieces(msgs []llm.Message, piece int64) []string {
	limit := int(max(piece, 256) * bytesPerToken)
	var pieces []string
	var b strings.Builder
	for _, m := range msgs {
		entry := transcriptEntry(m)
		if len(entry) > limit {
			entry = cutAtLine(entry, limit*2/3, true) + "\n[...]\n" + cutAtLine(entry, limit/4, false)
		}
		if b.Len()+len(entry) > limit && b.Len() > 0 {
			pieces = append(pieces, b.String())
			b.Reset()
		}
		b.WriteString(entry)
	}
	if b.Len() > 0 {
		pieces = append(pieces, b.String())
	}
	return pieces
}

// transcriptEntry is one message as a transcript shows it.
func transcriptEntry(m llm.Message) string {
	var b strings.Builder
	switch m.Role {
	case llm.RoleUser:
		b.WriteString("## Person\n" + m.Text + "\n\n")
	case llm.RoleAssistant:
		b.WriteString("## Assistant\n")
		if m.Text != "" {
			b.WriteString(m.Text + "\n")
		}
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, "[called %s %s]\n", c.Name, c.Arguments)
		}
		b.WriteString("\n")
	case llm.RoleTool:
		if m.Result != nil {
			fmt.Fprintf(&b, "## Result of %s\n%s\n\n", m.Result.Name, m.Result.Content)
		}
	}
	return b.String()
}

// CutSummary separates a compaction's summary from the message it opens:
// for a message that begins with one, the text after it (the person's
// prompt it was joined to, or "") and true. A summary is notes, which may
// hold the separator themselves, so the last one counts.
func CutSummary(text string) (string, bool) {
	if !strings.HasPrefix(text, summaryHeader) {
		return text, false
	}
	i := strings.LastIndex(text, summarySeparator)
	if i < 0 {
		return "", true
	}
	return text[i+len(summarySeparator):], true
}
