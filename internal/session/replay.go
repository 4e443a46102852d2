package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/forgehq/forge/internal/llm"
)

// maxWarnings bounds State.Warnings: a log damaged all through says so in
// a few lines, not one per record.
const maxWarnings = 20

// replay is a log read back: the conversation as its records leave it,
// with the side files not read yet, and what a Log needs to go on
// appending where the file ends.
type replay struct {
	meta     Meta
	msgs     []storedMessage
	sum      Summary
	warnings []string
	dropped  int // warnings past maxWarnings
	requests int // usage records: one a model request

	// end is where the last whole line ends; torn says bytes after it
	// must go before appending, and unterminated that the last line is a
	// whole record that only lacks its '\n'.
	end          int64
	torn         bool
	unterminated bool
	// nextOut and outputs let a resumed Log number new side files after
	// the old ones and reuse a side file that already holds an output.
	nextOut int
	outputs map[string]sideRef
	// hist is the file checkpoints; promptAt the conversation as each
	// prompt found it (slices of it, not copies), for a rewind.
	hist     *History
	promptAt [][]storedMessage
	// typed are the conversation's prompts as typed (Log.typed), and
	// outcomes how its calls ended, by call id.
	typed    map[string]string
	outcomes map[string]Outcome
	// events is the data of the last event record of each kind.
	events map[string][]byte
}

// readLog replays the records of r. Damage is a warning, never a failure:
// only a log that does not start with a meta record, or a read error, is
// an error, since without the meta there is no session to speak of.
func readLog(r io.Reader) (*replay, error) {
	rp := &replay{outputs: map[string]sideRef{}, hist: &History{}, typed: map[string]string{}, outcomes: map[string]Outcome{},
		events: map[string][]byte{}}
	seen := false // the meta record
	for l, err := range decodeLines(r) {
		if err != nil {
			return nil, err
		}
		rp.end = l.end
		if l.empty {
			continue
		}
		if !seen && (l.err != nil || l.rec.Type != typeMeta) {
			return nil, fmt.Errorf("not a session log: line %d is not a meta record", l.no)
		}
		seen = true
		switch {
		case l.err != nil && !l.complete:
			rp.torn = true
			rp.warn(fmt.Sprintf("line %d: the last record was cut off while being written and is skipped", l.no))
		case l.err != nil:
			rp.warn(fmt.Sprintf("line %d: unreadable record skipped (%v)", l.no, l.err))
		default:
			rp.unterminated = !l.complete
			rp.apply(&l.rec, l.no)
		}
	}
	if !seen {
		return nil, errors.New("empty session log")
	}
	if rp.dropped > 0 {
		rp.warnings = append(rp.warnings, fmt.Sprintf("and %d more warnings", rp.dropped))
	}
	return rp, nil
}

// apply is one good record's effect.
func (rp *replay) apply(rec *record, line int) {
	if !rec.Time.IsZero() && rec.Time.After(rp.sum.LastActivity) {
		rp.sum.LastActivity = rec.Time
	}
	switch rec.Type {
	case typeMeta:
		if rp.meta.ID != "" {
			rp.warn(fmt.Sprintf("line %d: a second meta record is ignored", line))
			return
		}
		rp.meta = *rec.Meta
		rp.sum.setMeta(rp.meta)
		if rec.Version > formatVersion {
			rp.warn(fmt.Sprintf("the log is format %d, newer than this forge's %d: records it does not know are skipped", rec.Version, formatVersion))
		}
	case typeMessage:
		rp.note(rec.Message)
		if rec.Prompt {
			rp.promptAt = append(rp.promptAt, slices.Clip(rp.msgs))
			rp.sum.addPrompt(shownPrompt(rec.Message))
		}
		if rec.Message.Typed != "" {
			rp.typed[rec.Message.Text] = rec.Message.Typed
		}
		if rec.Message.Role == llm.RoleAssistant {
			rp.sum.Answers++
		}
		rp.msgs = append(rp.msgs, *rec.Message)
	case typeUsage:
		rp.sum.Usage = rp.sum.Usage.Add(*rec.Usage)
		rp.sum.CostUSD += rec.CostUSD
		rp.requests++
	case typeCompaction:
		rp.typed = map[string]string{}
		for i := range rec.Messages {
			rp.note(&rec.Messages[i])
			if m := &rec.Messages[i]; m.Typed != "" {
				rp.typed[m.Text] = m.Typed
			}
		}
		rp.msgs = append([]storedMessage(nil), rec.Messages...)
	case typeOutcome:
		rp.outcomes[rec.Outcome.CallID] = *rec.Outcome
	case typeEvent:
		if rec.Kind != "" {
			rp.events[rec.Kind] = rec.Data
		}
	case typeRewind:
		if rec.Turn <= len(rp.promptAt) {
			rp.msgs = rp.promptAt[rec.Turn-1]
		}
	}
	if w := rp.hist.apply(rec); w != "" {
		rp.warn(fmt.Sprintf("line %d: %s", line, w))
	}
}

// note remembers the side files a message names, for numbering and reuse.
func (rp *replay) note(m *storedMessage) {
	for _, o := range []*sideRef{m.Output, m.ShownOutput} {
		if o == nil {
			continue
		}
		if o.N >= rp.nextOut {
			rp.nextOut = o.N + 1
		}
		if o.Hash != "" {
			rp.outputs[o.Hash] = *o
		}
	}
}

func (rp *replay) warn(w string) {
	if len(rp.warnings) >= maxWarnings {
		rp.dropped++
		return
	}
	rp.warnings = append(rp.warnings, w)
}

// State is a session as its log leaves it.
type State struct {
	Meta Meta
	// Messages is the conversation to continue: after the last compaction
	// if there was one, repaired so that a provider accepts it.
	Messages []llm.Message
	// Usage and CostUSD sum every usage record, before compactions too;
	// Requests counts them, a record being one model request (a
	// subagent's, a compaction's too).
	Usage    llm.Usage
	CostUSD  float64
	Requests int
	// Turns counts the person's prompts.
	Turns int
	// LastActivity is the time of the last record.
	LastActivity time.Time
	// Warnings say what was damaged, skipped or repaired, for the person;
	// a session loads despite them.
	Warnings []string
	// Shown is how the person saw Messages, where the model saw them
	// otherwise: a resumed conversation is shown as it was seen.
	Shown Shown
	// LastEvents is the data of the last event record (Log.Record) of
	// each kind, as it was recorded: the state the conversation left
	// beside its messages (the model's task list).
	LastEvents map[string]json.RawMessage
}

// Shown is how the person saw a conversation, where the model saw it
// otherwise.
type Shown struct {
	// Typed maps prompts, by their text as the model got it, to what the
	// person typed (a paste as its mark, an @mention as written).
	Typed map[string]string
	// Outcomes are how calls that did not succeed ended, by call id, as
	// far as the log says (a log older than outcomes says nothing).
	Outcomes map[string]Outcome
}
