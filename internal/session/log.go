package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/forgehq/forge/internal/llm"
)

// Log is one session's log, open for appending. Its methods may be called
// from several goroutines (a subagent's events beside its parent's); each
// record is written as it happens, so that what was written survives
// whatever happens next.
type Log struct {
	mu      sync.Mutex
	f       *os.File // nil once closed
	lock    *sessionLock
	dir, id string
	now     func() time.Time
	sum     Summary
	// nextOut numbers the next side file; outputs maps an output's hash
	// to the side file that holds it, so an output is stored once however
	// often it recurs (compactions keep recent results, tools re-read).
	nextOut int
	outputs map[string]sideRef
	// partial says the last write was cut short (a full disk): the next
	// record starts with '\n' so that it is not glued to the fragment.
	partial bool
	// hist is the file checkpoints, kept in this log and ID.d/blobs.
	hist *History
	// typed are the prompts of the conversation as the person typed
	// them, by the text the model got, where the two differ: a
	// compaction keeps them for the prompts it keeps.
	typed map[string]string
}

// ID is the session's ID.
func (l *Log) ID() string { return l.id }

// Path is the log's file (hooks read it as their transcript_path).
func (l *Log) Path() string { return logPath(l.dir, l.id) }

// History is the session's file checkpoints, for undo and rewind.
func (l *Log) History() *History { return l.hist }

// attach makes h (empty, or replayed from this log) the log's history,
// writing its records here and its contents in ID.d/blobs.
func (l *Log) attach(h *History, budget int64) {
	h.blobs = dirBlobs{dir: blobDir(l.dir, l.id)}
	h.journal = l.writeRecord
	h.reload = func() ([]llm.Message, error) { return l.reload(budget) }
	l.hist = h
}

// writeRecord appends a record that changes nothing the summary counts.
func (l *Log) writeRecord(rec *record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("session %s: %w", l.id, ErrClosed)
	}
	return l.write(rec)
}

// reload reads the conversation back from the log, as a resume would.
func (l *Log) reload(budget int64) ([]llm.Message, error) {
	f, err := os.Open(logPath(l.dir, l.id))
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", l.id, err)
	}
	defer f.Close()
	rp, err := readLog(f)
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", l.id, err)
	}
	msgs, _ := resolveOutputs(l.dir, l.id, rp.msgs, budget)
	msgs, _ = llm.Repair(msgs)
	return msgs, nil
}

// Prompt records the person's prompt: a user message that counts as a turn
// and, the first time, names the session in a list. The messages the
// agent writes as the user itself (a note on calls it could not read) go
// through Append, so that turns count only what the person asked.
func (l *Log) Prompt(text string) error { return l.PromptTyped(text, "") }

// PromptTyped is Prompt with the prompt as the person typed it, when the
// model gets more (a paste in full, the files they @mentioned, what
// their !commands printed): a list and a resumed conversation show it as
// they typed it. typed "" is text itself.
func (l *Log) PromptTyped(text, typed string) error {
	if typed == text {
		typed = ""
	}
	return l.appendStored(storedMessage{Message: llm.Message{Role: llm.RoleUser, Text: text}, Typed: typed}, "", true)
}

// PromptImages is Prompt of a prompt that shows the model images.
func (l *Log) PromptImages(text string, images []llm.Image) error {
	return l.PromptWith(text, "", images)
}

// PromptWith is PromptTyped of a prompt that shows the model images.
func (l *Log) PromptWith(text, typed string, images []llm.Image) error {
	if typed == text {
		typed = ""
	}
	return l.appendStored(storedMessage{Message: llm.Message{Role: llm.RoleUser, Text: text, Images: images}, Typed: typed}, "", true)
}

// Outcome records how a call ended, as the person was shown it.
func (l *Log) Outcome(o Outcome) error {
	if o.CallID == "" || o.Status == "" {
		return fmt.Errorf("session %s: an outcome without a call or a status", l.id)
	}
	return l.writeRecord(&record{Type: typeOutcome, Outcome: &o})
}

// Append records one message of the conversation. The agent appends the
// model's message with its calls before the calls run, so a log cut off
// mid-call still shows what was asked; loading answers such calls as
// cancelled. A tool result over 64 KB goes to a side file.
func (l *Log) Append(m llm.Message) error { return l.message(m, false) }

// Result records a tool result: m as the model read it, and shown, the
// whole output the person was shown when the model read a cut of it (""
// when it read the same). A resume gives the model m again; shown is
// kept for the record, in a side file when over 64 KB, as results are.
func (l *Log) Result(m llm.Message, shown string) error {
	if shown != "" && (m.Role != llm.RoleTool || m.Result == nil) {
		return fmt.Errorf("session %s: a shown output on a message that is not a tool result", l.id)
	}
	return l.appendMessage(m, shown, false)
}

func (l *Log) message(m llm.Message, prompt bool) error { return l.appendMessage(m, "", prompt) }

// appendMessage records one message, with the output the person was
// shown when it differs from the model's.
func (l *Log) appendMessage(m llm.Message, shown string, prompt bool) error {
	return l.appendStored(storedMessage{Message: m}, shown, prompt)
}

// appendStored is appendMessage of a message with what the log keeps
// beside it (the prompt as typed).
func (l *Log) appendStored(in storedMessage, shown string, prompt bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("session %s: %w", l.id, ErrClosed)
	}
	m := in.Message
	sm, err := l.store(m)
	sm.Typed = in.Typed
	if err == nil && shown != "" && shown != m.Result.Content {
		err = l.storeShown(&sm, shown)
	}
	if err != nil {
		return err
	}
	if err := l.write(&record{Type: typeMessage, Message: &sm, Prompt: prompt}); err != nil {
		return err
	}
	if sm.Typed != "" {
		if l.typed == nil {
			l.typed = map[string]string{}
		}
		l.typed[m.Text] = sm.Typed
	}
	switch {
	case prompt:
		l.sum.addPrompt(shownPrompt(&sm))
	case m.Role == llm.RoleAssistant:
		// The first answer is saved at once: a session killed later
		// still lists as one that reached a model.
		if l.sum.Answers++; l.sum.Answers > 1 {
			return nil
		}
	default:
		return nil
	}
	return l.saveSummary()
}

// Usage records one model request's usage and what it cost.
func (l *Log) Usage(u llm.Usage, costUSD float64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("session %s: %w", l.id, ErrClosed)
	}
	if err := l.write(&record{Type: typeUsage, Usage: &u, CostUSD: costUSD}); err != nil {
		return err
	}
	l.sum.Usage = l.sum.Usage.Add(u)
	l.sum.CostUSD += costUSD
	return l.saveSummary()
}

// Compaction records that the conversation was compacted: loading starts
// over from replacement (a summary and the recent turns kept). What came
// before stays in the file, for the record and for undoing a bad summary.
func (l *Log) Compaction(replacement []llm.Message, note string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("session %s: %w", l.id, ErrClosed)
	}
	stored := make([]storedMessage, len(replacement))
	typed := map[string]string{}
	for i, m := range replacement {
		sm, err := l.store(m)
		if err != nil {
			return err
		}
		if t := l.typedOf(m); t != "" {
			sm.Typed, typed[m.Text] = t, t
		}
		stored[i] = sm
	}
	if err := l.write(&record{Type: typeCompaction, Messages: stored, Note: note}); err != nil {
		return err
	}
	l.typed = typed // what the conversation no longer holds goes
	return nil
}

// typedOf is how the person typed the prompt m holds, "" when as the
// model got it. A kept prompt the summary opens ends with the prompt.
func (l *Log) typedOf(m llm.Message) string {
	if m.Role != llm.RoleUser || len(l.typed) == 0 {
		return ""
	}
	if t, ok := l.typed[m.Text]; ok {
		return t
	}
	for text, t := range l.typed {
		if strings.HasSuffix(m.Text, "\n"+text) {
			return t
		}
	}
	return ""
}

// Record keeps an event that is not part of the conversation (an
// approval, a notice, a subagent's progress): loading skips it, but the
// log tells the whole story of the session.
func (l *Log) Record(kind string, data any) error {
	if kind == "" {
		return errors.New("session record: empty kind")
	}
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("session record %s: %w", kind, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("session %s: %w", l.id, ErrClosed)
	}
	return l.write(&record{Type: typeEvent, Kind: kind, Data: b})
}

// Close syncs the log to the disk, closes it, saves the summary with the
// last activity and lets the session go for another forge to resume.
// Closing twice does nothing.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Sync()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	if err != nil {
		err = fmt.Errorf("session %s: close: %w", l.id, err)
	}
	err = errors.Join(err, l.saveSummary())
	if lerr := l.lock.release(); lerr != nil {
		err = errors.Join(err, fmt.Errorf("session %s: release its lock: %w", l.id, lerr))
	}
	return err
}

// write stamps rec and appends it as one line in one write call.
func (l *Log) write(rec *record) error {
	rec.Time = l.now().UTC()
	line, err := encodeRecord(rec)
	if err != nil {
		return fmt.Errorf("session %s: %w", l.id, err)
	}
	if l.partial {
		line = append([]byte{'\n'}, line...)
	}
	n, err := l.f.Write(line)
	if err != nil {
		l.partial = l.partial || n > 0
		return fmt.Errorf("session %s: write %s record: %w", l.id, rec.Type, err)
	}
	l.partial = false
	l.sum.LastActivity = rec.Time
	return nil
}

// store is m as the log keeps it: checked, and with a big tool output
// moved to a side file (or to the one that already holds it).
func (l *Log) store(m llm.Message) (storedMessage, error) {
	sm := storedMessage{Message: m}
	if err := checkMessage(&sm); err != nil {
		return storedMessage{}, fmt.Errorf("session %s: %w", l.id, err)
	}
	if err := l.storePictures(&sm); err != nil {
		return storedMessage{}, err
	}
	m = sm.Message
	if m.Role != llm.RoleTool || m.Result == nil || len(m.Result.Content) <= bigOutput {
		return sm, nil
	}
	ref, err := l.side(m.Result.Content)
	if err != nil {
		return storedMessage{}, err
	}
	r := *m.Result // the caller's result keeps its content
	r.Content = ""
	sm.Result, sm.Output = &r, &ref
	return sm, nil
}

// bigPicture is the size past which an image is kept beside the log: a
// screenshot would make its record line megabytes long.
const bigPicture = 16 << 10

// storePictures moves sm's big images to side files (the same image read
// twice is kept once), leaving the caller's message as it was.
func (l *Log) storePictures(sm *storedMessage) error {
	if sm.Result != nil {
		r := *sm.Result
		sm.Result = &r
	}
	ims := images(&sm.Message)
	if !slices.ContainsFunc(*ims, func(im llm.Image) bool { return len(im.Data) > bigPicture }) {
		return nil
	}
	*ims = slices.Clone(*ims)
	sm.Pictures = make([]*sideRef, len(*ims))
	for i := range *ims {
		im := &(*ims)[i]
		if len(im.Data) <= bigPicture {
			continue
		}
		ref, err := l.side(string(im.Data))
		if err != nil {
			return err
		}
		sm.Pictures[i], im.Data = &ref, nil
	}
	return nil
}

// storeShown adds to sm the output the person was shown: in the record,
// or in a side file when it is big.
func (l *Log) storeShown(sm *storedMessage, shown string) error {
	if len(shown) <= bigOutput {
		sm.Shown = shown
		return nil
	}
	ref, err := l.side(shown)
	if err != nil {
		return err
	}
	sm.ShownOutput = &ref
	return nil
}

// side is the side file that holds content: the one that holds it
// already, or a new one.
func (l *Log) side(content string) (sideRef, error) {
	hash := hashOutput(content)
	if ref, ok := l.outputs[hash]; ok {
		return ref, nil
	}
	ref := sideRef{N: l.nextOut, Size: int64(len(content)), Hash: hash}
	if err := writeOutput(outputPath(l.dir, l.id, ref.N), content); err != nil {
		return sideRef{}, fmt.Errorf("session %s: %w", l.id, err)
	}
	l.nextOut++
	l.outputs[hash] = ref
	return ref, nil
}

func (l *Log) saveSummary() error {
	if err := writeSidecar(sidecarPath(l.dir, l.id), &l.sum); err != nil {
		return fmt.Errorf("session %s: %w", l.id, err)
	}
	return nil
}
