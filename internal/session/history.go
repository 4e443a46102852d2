package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/forgehq/forge/internal/llm"
)

// FileState is a file as a checkpoint knows it: its content's sha256,
// size and mode. A nil *FileState is a file that does not exist.
type FileState struct {
	Hash string      `json:"sha256"`
	Size int64       `json:"size"`
	Mode fs.FileMode `json:"mode"`
}

// FileChange is one file a call changed: its state before the call (kept
// in the blob store) and the state the call left it in (only its hash),
// by which a later change by someone else is told apart.
type FileChange struct {
	Path   string     `json:"path"`
	Before *FileState `json:"before"`
	After  *FileState `json:"after"`
	// Dirs are the directories above Path that the call created, deepest
	// first: an undo removes them again when they are empty, never a
	// directory that was there before.
	Dirs []string `json:"dirs,omitempty"`
	// Lost says why the state the call left the file in is not known
	// (it could not be read after the call): an undo cannot tell the
	// call's change from a later one, so it does not touch the file.
	Lost string `json:"lost,omitempty"`
	// pending numbers the call whose record of what it did is still to
	// come: a change begun (its file saved) but never finished on record,
	// as when forge was killed while the call ran.
	pending int
}

// Checkpoint is the files one call changed, during prompt Turn (the
// session's prompts counted from 1). Seq numbers the call within the
// log: its files are saved and recorded (an edit record) before it runs,
// and what it changed (a checkpoint record) after, under the same Seq.
type Checkpoint struct {
	Turn  int          `json:"turn"`
	Seq   int          `json:"seq,omitempty"`
	Files []FileChange `json:"files"`
}

// restoreRecord says the file changes of Turns were undone; Kept are the
// files the person chose to keep as they were.
type restoreRecord struct {
	Turns []int    `json:"turns"`
	Kept  []string `json:"kept,omitempty"`
}

// ErrNothingToUndo says no prompt has file changes left to undo.
var ErrNothingToUndo = errors.New("nothing to undo")

// History is the file checkpoints of one conversation, by prompt: what
// the agent's Write, Edit and NotebookEdit calls changed and how the files
// were before. With a session log the records go into the log and the
// contents into ID.d/blobs, so a resumed session can still undo; without
// one (NewMemoryHistory) they last as long as the shell. Its methods may
// be called from several goroutines.
type History struct {
	mu    sync.Mutex
	blobs blobStore
	// journal writes a record to the session log; nil in memory.
	journal func(*record) error
	// reload reads the conversation back from the log after a rewind.
	reload  func() ([]llm.Message, error)
	prompts []promptState
	// seq is the last Checkpoint.Seq given or replayed.
	seq int
}

// promptState is one prompt as the history knows it.
type promptState struct {
	text string
	// live says the prompt is still in the conversation (no rewind went
	// back before it).
	live bool
	// restored says its file changes were undone; kept are the files of
	// it that the person chose to keep as they were then.
	restored bool
	kept     []string
	changes  []FileChange
	// before is the conversation as the prompt found it, kept for a
	// rewind in memory: a slice of the conversation, not a copy.
	before []llm.Message
}

// NewMemoryHistory is a history kept in memory only, for a shell that
// keeps no sessions.
func NewMemoryHistory() *History {
	return &History{blobs: &memBlobs{m: map[string][]byte{}}}
}

// Prompt begins a prompt: the checkpoints that follow belong to it. conv
// is the conversation before it (for a rewind without a session log).
// The caller calls it once per prompt given to the agent, as the agent
// records the prompt in the log, so that the two count alike.
func (h *History) Prompt(text string, conv []llm.Message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.addPrompt(text)
	h.prompts[len(h.prompts)-1].before = slices.Clip(conv)
}

// Withdraw takes back the prompt Prompt began last, which the agent did
// not record in the log after all (a hook blocked it), so that the
// count stays the log's. A prompt with checkpoints stays.
func (h *History) Withdraw() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.prompts); n > 0 && len(h.prompts[n-1].changes) == 0 {
		h.prompts = h.prompts[:n-1]
	}
}

func (h *History) addPrompt(text string) {
	h.prompts = append(h.prompts, promptState{text: text, live: true})
}

// Turn is the number of the prompt in progress (or the last one), 0
// before the first.
func (h *History) Turn() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.prompts)
}

// Checkpoint saves the files at paths (absolute, links resolved) as they
// are, before a call changes them, and returns the function that records
// what the call left: files it did not change are not recorded. It is the
// agent's Checkpointer. An error means nothing was saved for undo, and
// the call must not run: a change nobody can undo is worse than none.
//
// The files are saved, and recorded as about to change, before the call
// runs, so that a forge killed while it runs (or whose log fails after
// it) leaves a log that names them: an undo then says it cannot undo
// them, rather than restoring the rest and keeping quiet about them.
func (h *History) Checkpoint(paths []string) (func() error, error) {
	turn := h.Turn()
	if turn == 0 || len(paths) == 0 {
		return func() error { return nil }, nil
	}
	changes := make([]FileChange, 0, len(paths))
	missing := make([][]string, 0, len(paths))
	for _, p := range paths {
		st, err := saveState(h.blobs, p)
		if err != nil {
			return nil, err
		}
		changes = append(changes, FileChange{Path: p, Before: st})
		missing = append(missing, missingDirs(p))
	}
	seq, err := h.begin(turn, changes)
	if err != nil {
		return nil, err
	}
	return func() error {
		changed, lost := changedFiles(changes, missing)
		err := h.commit(&record{Type: typeCheckpoint, Checkpoint: &Checkpoint{Turn: turn, Seq: seq, Files: changed}})
		return errors.Join(lost, err)
	}, nil
}

// changedFiles are the changes a call made to the files saved before it
// (missing: the directories above each that did not exist): those it left
// in another state, and those whose state after it cannot be read, which
// are recorded as lost. The error says which were lost.
func changedFiles(saved []FileChange, missing [][]string) ([]FileChange, error) {
	changed := []FileChange{} // none is a record too: the call is over
	var errs []error
	for i, c := range saved {
		after, err := currentState(c.Path)
		if err != nil {
			c.Lost = "its state after the edit could not be read: " + err.Error()
			changed = append(changed, c)
			errs = append(errs, err)
			continue
		}
		if !sameState(after, c.Before) {
			c.After = after
			c.Dirs = existingDirs(missing[i])
			changed = append(changed, c)
		}
	}
	return changed, errors.Join(errs...)
}

// begin records that the files of changes, saved, are about to change in
// prompt turn, and returns the number under which the call's checkpoint
// will complete it. Unlike commit, a record the log cannot take is not
// applied: the call will not run.
func (h *History) begin(turn int, changes []FileChange) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	rec := &record{Type: typeEdit, Checkpoint: &Checkpoint{Turn: turn, Seq: h.seq + 1, Files: changes}}
	if h.journal != nil {
		if err := h.journal(rec); err != nil {
			return 0, fmt.Errorf("checkpoint: %w", err)
		}
	}
	h.apply(rec)
	return rec.Checkpoint.Seq, nil
}

// commit writes rec to the log and applies it. A record the log could not
// take still applies, so this shell can undo even when a resume could not.
func (h *History) commit(rec *record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var err error
	if h.journal != nil {
		err = h.journal(rec)
	}
	h.apply(rec)
	return err
}

// apply is a record's effect on the history, live or replayed.
func (h *History) apply(rec *record) (warning string) {
	switch rec.Type {
	case typeMessage:
		if rec.Prompt {
			h.addPrompt(shownPrompt(rec.Message))
		}
	case typeEdit, typeCheckpoint:
		return h.applyCheckpoint(rec.Type, rec.Checkpoint)
	case typeRestore:
		for _, t := range rec.Restore.Turns {
			if p := h.prompt(t); p != nil {
				p.restored = true
				p.kept = p.keptOf(rec.Restore.Kept)
			}
		}
	case typeRewind:
		if h.prompt(rec.Turn) == nil {
			return fmt.Sprintf("a rewind to prompt %d, which the log does not have, is ignored", rec.Turn)
		}
		for i := rec.Turn - 1; i < len(h.prompts); i++ {
			h.prompts[i].live = false
		}
	}
	return ""
}

// applyCheckpoint adds to its prompt the files a call is about to change
// (an edit record: pending) or changed (a checkpoint record, which
// replaces the pending files of its call).
func (h *History) applyCheckpoint(typ string, c *Checkpoint) (warning string) {
	h.seq = max(h.seq, c.Seq)
	p := h.prompt(c.Turn)
	if p == nil {
		return fmt.Sprintf("a checkpoint of prompt %d, which the log does not have, is ignored", c.Turn)
	}
	if c.Seq > 0 {
		p.changes = slices.DeleteFunc(p.changes, func(f FileChange) bool { return f.pending == c.Seq })
	}
	for _, f := range c.Files {
		if typ == typeEdit {
			f.After, f.Dirs, f.Lost, f.pending = nil, nil, "", c.Seq
		}
		p.changes = append(p.changes, f)
	}
	return ""
}

// keptOf are the files of kept that p changed.
func (p *promptState) keptOf(kept []string) []string {
	var out []string
	for _, k := range kept {
		if slices.ContainsFunc(p.changes, func(c FileChange) bool { return c.Path == k }) {
			out = append(out, k)
		}
	}
	return out
}

// prompt is prompt turn, nil when there is none.
func (h *History) prompt(turn int) *promptState {
	if turn < 1 || turn > len(h.prompts) {
		return nil
	}
	return &h.prompts[turn-1]
}

// PromptInfo is one prompt of the conversation, for a list to rewind to.
type PromptInfo struct {
	// Turn numbers the prompt among all of the session's, from 1.
	Turn int    `json:"turn"`
	Text string `json:"text"`
	// Files are the files its calls changed, in the order first changed.
	Files []string `json:"files"`
	// Restored says its file changes were undone; Kept are the files the
	// undo kept as they were (changed since forge wrote them): the prompt
	// was only partly undone.
	Restored bool     `json:"restored,omitempty"`
	Kept     []string `json:"kept,omitempty"`
}

// Prompts are the prompts still in the conversation, oldest first.
func (h *History) Prompts() []PromptInfo {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []PromptInfo
	for i, p := range h.prompts {
		if !p.live {
			continue
		}
		info := PromptInfo{Turn: i + 1, Text: p.text, Files: []string{}, Restored: p.restored, Kept: slices.Clone(p.kept)}
		for _, c := range p.changes {
			if !slices.Contains(info.Files, c.Path) {
				info.Files = append(info.Files, c.Path)
			}
		}
		out = append(out, info)
	}
	return out
}

// Rewind takes the conversation back to before prompt turn: the prompts
// from it on leave the conversation (their files stay as they are; see
// PlanRewind), and it returns the conversation as it was then.
func (h *History) Rewind(turn int) ([]llm.Message, error) {
	h.mu.Lock()
	p := h.prompt(turn)
	if p == nil || !p.live {
		h.mu.Unlock()
		return nil, fmt.Errorf("no prompt %d in this conversation", turn)
	}
	before := p.before
	fromLog := h.journal != nil && before == nil
	h.mu.Unlock()
	if err := h.commit(&record{Type: typeRewind, Turn: turn}); err != nil {
		return nil, err
	}
	if !fromLog {
		return slices.Clone(before), nil
	}
	if h.reload == nil {
		return nil, errors.New("the conversation cannot be read back")
	}
	return h.reload()
}

// missingDirs are the directories above path that do not exist, deepest
// first.
func missingDirs(path string) []string {
	var out []string
	for dir := filepath.Dir(path); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		out = append(out, dir)
	}
	return out
}

// existingDirs are those of dirs that are directories now.
func existingDirs(dirs []string) []string {
	var out []string
	for _, d := range dirs {
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// saveState keeps the file at path in blobs and returns its state, nil
// when it does not exist.
func saveState(blobs blobStore, path string) (*FileState, error) {
	f, fi, err := openRegular(path)
	if f == nil || err != nil {
		return nil, err
	}
	defer f.Close()
	hash, size, err := blobs.put(f)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return &FileState{Hash: hash, Size: size, Mode: keptMode(fi.Mode())}, nil
}

// currentState is the state of the file at path now, nil when it does not
// exist; its content is hashed, not kept.
func currentState(path string) (*FileState, error) {
	f, fi, err := openRegular(path)
	if f == nil || err != nil {
		return nil, err
	}
	defer f.Close()
	hash, size, err := hashReader(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return &FileState{Hash: hash, Size: size, Mode: keptMode(fi.Mode())}, nil
}

// openRegular opens the regular file at path; a nil file and error when
// there is nothing there.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	if !filepath.IsAbs(path) {
		return nil, nil, fmt.Errorf("checkpoint %q: not an absolute path", path)
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("checkpoint: %w", err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("checkpoint %s: not a regular file", path)
	}
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// keptMode is the part of a mode a restore gives back.
func keptMode(m fs.FileMode) fs.FileMode {
	return m & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

// sameState says a and b are the same file state (both absent, or the same
// content and mode).
func sameState(a, b *FileState) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Hash == b.Hash && a.Size == b.Size && a.Mode == b.Mode
}
