package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/llm"
)

// formatVersion is written in the meta record. A loader that meets a
// newer one still reads what it knows and says so in a warning, since the
// records it understands keep their meaning.
const formatVersion = 1

// The types of record. A loader ignores a type it does not know, so that
// an older forge can still open a log a newer one wrote.
const (
	typeMeta       = "meta"
	typeMessage    = "message"
	typeUsage      = "usage"
	typeCompaction = "compaction"
	typeEvent      = "event"
	// File checkpoints for undo: the files a call is about to change
	// (saved before it runs); the files it changed; the prompts whose
	// changes were undone; the prompt the conversation was taken back to
	// before.
	typeEdit       = "edit"
	typeCheckpoint = "checkpoint"
	typeRestore    = "restore"
	typeRewind     = "rewind"
	// How a call ended, as the person was shown it.
	typeOutcome = "outcome"
)

// record is one line of a log. Which fields are set depends on Type.
type record struct {
	Type string    `json:"type"`
	Time time.Time `json:"time"`
	// meta
	Version int   `json:"version,omitempty"`
	Meta    *Meta `json:"meta,omitempty"`
	// message; Prompt marks a person's prompt, which counts as a turn
	Message *storedMessage `json:"message,omitempty"`
	Prompt  bool           `json:"prompt,omitempty"`
	// usage
	Usage   *llm.Usage `json:"usage,omitempty"`
	CostUSD float64    `json:"cost_usd,omitempty"`
	// compaction
	Messages []storedMessage `json:"messages,omitempty"`
	Note     string          `json:"note,omitempty"`
	// event
	Kind string          `json:"kind,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
	// checkpoint, restore, rewind (Turn)
	Checkpoint *Checkpoint    `json:"checkpoint,omitempty"`
	Restore    *restoreRecord `json:"restore,omitempty"`
	Turn       int            `json:"turn,omitempty"`
	// outcome
	Outcome *Outcome `json:"outcome,omitempty"`
}

// Outcome is how a call ended, as the person was shown it: its status
// (failed, denied, cancelled, timed_out) and a few words on it ("denied
// by you"), or for a command that ran and failed, how it exited ("exit
// 1"). A resumed conversation shows its calls so.
type Outcome struct {
	CallID string `json:"call_id"`
	Status string `json:"status"`
	Note   string `json:"note,omitempty"`
	Exit   string `json:"exit,omitempty"`
}

// storedMessage is a message as a log keeps it: when Output is set, the
// result's content is in a side file and Result.Content is empty. A tool
// result whose content is a cut of a longer output has that output too,
// as the person was shown it: in Shown, or in side file ShownOutput when
// it is big. Loading gives the model its content, never Shown.
type storedMessage struct {
	llm.Message
	Output      *sideRef `json:"output,omitempty"`
	Shown       string   `json:"shown,omitempty"`
	ShownOutput *sideRef `json:"shown_output,omitempty"`
	// Pictures are the side files of the message's images (a prompt's, or
	// its tool result's), by index: a big image is kept beside the log,
	// its Data empty in the record; nil for one kept inline.
	Pictures []*sideRef `json:"pictures,omitempty"`
	// Typed is a prompt as the person typed it (a paste as its mark, an
	// @mention as written, without the output of their !commands), when
	// the model got something else.
	Typed string `json:"typed,omitempty"`
}

// maxOutputs bounds a side file's number, so that numbering the next one
// after it cannot overflow.
const maxOutputs = 1 << 30

// sideRef names a side file by number, never by path, so that a damaged
// or hostile log cannot point a loader outside the session's directory.
type sideRef struct {
	N    int    `json:"n"`
	Size int64  `json:"size"`
	Hash string `json:"sha256"`
}

// encodeRecord is rec as one line, newline included, ready for one write.
func encodeRecord(rec *record) ([]byte, error) {
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("encode %s record: %w", rec.Type, err)
	}
	return append(b, '\n'), nil
}

// decodeRecord reads one line and checks what the loader relies on, so
// that a line which is JSON but not a sensible record is skipped like
// any other damage instead of reaching a provider.
func decodeRecord(line []byte) (record, error) {
	var rec record
	if err := json.Unmarshal(line, &rec); err != nil {
		return record{}, err
	}
	switch rec.Type {
	case typeMeta:
		if rec.Meta == nil {
			return record{}, errors.New("meta record without meta")
		}
		if err := checkID(rec.Meta.ID); err != nil {
			return record{}, err
		}
	case typeMessage:
		if rec.Message == nil {
			return record{}, errors.New("message record without message")
		}
		return rec, checkMessage(rec.Message)
	case typeUsage:
		if rec.Usage == nil {
			return record{}, errors.New("usage record without usage")
		}
	case typeCompaction:
		for i := range rec.Messages {
			if err := checkMessage(&rec.Messages[i]); err != nil {
				return record{}, fmt.Errorf("compaction message %d: %w", i+1, err)
			}
		}
	case typeEdit, typeCheckpoint:
		return rec, checkCheckpoint(rec.Type, rec.Checkpoint)
	case typeRestore:
		if rec.Restore == nil || len(rec.Restore.Turns) == 0 {
			return record{}, errors.New("restore record without prompts")
		}
	case typeRewind:
		if rec.Turn < 1 {
			return record{}, fmt.Errorf("rewind to prompt %d", rec.Turn)
		}
	case typeOutcome:
		if rec.Outcome == nil || rec.Outcome.CallID == "" || rec.Outcome.Status == "" {
			return record{}, errors.New("outcome record without a call or a status")
		}
	case "":
		return record{}, errors.New("record without type")
	}
	return rec, nil
}

// checkCheckpoint refuses a checkpoint a restore could not act on safely:
// a relative path, or a file state without a content hash. A call's
// checkpoint may name no file (it changed none); its edit record may not.
func checkCheckpoint(typ string, c *Checkpoint) error {
	if c == nil || c.Turn < 1 || c.Seq < 0 || len(c.Files) == 0 && (typ == typeEdit || c.Seq == 0) {
		return fmt.Errorf("%s record without prompt or files", typ)
	}
	for _, f := range c.Files {
		if !filepath.IsAbs(f.Path) || filepath.Clean(f.Path) != f.Path {
			return fmt.Errorf("checkpoint of path %q", f.Path)
		}
		for _, d := range f.Dirs {
			// Only a directory above the file: a damaged log must not
			// name others for an undo to remove.
			if !filepath.IsAbs(d) || filepath.Clean(d) != d || !strings.HasPrefix(f.Path, d+string(filepath.Separator)) {
				return fmt.Errorf("checkpoint of %s: directory %q is not above it", f.Path, d)
			}
		}
		for _, st := range []*FileState{f.Before, f.After} {
			if st != nil && (checkHash(st.Hash) != nil || st.Size < 0) {
				return fmt.Errorf("checkpoint of %s: bad file state", f.Path)
			}
		}
	}
	return nil
}

// checkMessage refuses a role no provider knows and a side-file reference
// that does not belong to a tool result.
func checkMessage(m *storedMessage) error {
	switch m.Role {
	case llm.RoleUser, llm.RoleAssistant, llm.RoleTool:
	default:
		return fmt.Errorf("message with role %q", m.Role)
	}
	if (m.Output != nil || m.Shown != "" || m.ShownOutput != nil) && (m.Role != llm.RoleTool || m.Result == nil) {
		return errors.New("stored output on a message that is not a tool result")
	}
	if m.Typed != "" && m.Role != llm.RoleUser {
		return errors.New("a typed prompt on a message that is not the person's")
	}
	for _, o := range append([]*sideRef{m.Output, m.ShownOutput}, m.Pictures...) {
		if o != nil && (o.N < 0 || o.N > maxOutputs || o.Size < 0) {
			return fmt.Errorf("stored output %d of size %d", o.N, o.Size)
		}
	}
	if len(m.Pictures) > len(*images(&m.Message)) {
		return errors.New("stored pictures without their images")
	}
	return nil
}

// images are the images a message shows the model: a prompt's, or its
// tool result's.
func images(m *llm.Message) *[]llm.Image {
	if m.Result != nil {
		return &m.Result.Images
	}
	return &m.Images
}
