package session

import (
	"errors"
	"fmt"
	"slices"
)

// FileRestore is one file a restore would put back.
type FileRestore struct {
	Path string
	// To is the state it goes back to; nil: the file is removed (the
	// prompt created it).
	To *FileState
	// Left is the state forge left it in; Current is the state now.
	Left, Current *FileState
	// Dirs are the directories above it that the prompts created.
	Dirs []string
	// Lost says why forge does not know the state it left the file in
	// (Left is then nil): unless it is already as it would be restored,
	// it cannot be undone, since a later change by someone else would be
	// overwritten unseen.
	Lost string
}

// Conflict says someone else changed the file since forge did: it is
// neither as forge left it nor already as it would be restored.
func (f FileRestore) Conflict() bool {
	return f.Lost == "" && !sameState(f.Current, f.Left) && !f.Unchanged()
}

// NotUndoable says the file cannot be restored: forge does not know what
// it left it as, and it is not as it would be restored.
func (f FileRestore) NotUndoable() bool { return f.Lost != "" && !f.Unchanged() }

// Unchanged says the file is already as it would be restored.
func (f FileRestore) Unchanged() bool { return sameState(f.Current, f.To) }

// Plan is what undoing the file changes of some prompts would do.
type Plan struct {
	// Turns are the prompts undone, newest first.
	Turns []int
	Files []FileRestore
}

// The actions of a restore on one file.
const (
	ActionRestored  = "restored"  // written back as it was
	ActionRemoved   = "removed"   // the prompt created it: removed
	ActionUnchanged = "unchanged" // already as it was
	ActionKept      = "kept"      // changed since by someone else, and kept so
	// The edit's checkpoint was not recorded whole: left as it is.
	ActionNotUndoable = "not_undoable"
)

// ErrNotUndoable says a restore left files as they were because their
// edits were not recorded whole (Restored.Reason says why, per file).
var ErrNotUndoable = errors.New("not undoable")

// Restored is what a restore did to one file.
type Restored struct {
	Path   string `json:"path"`
	Action string `json:"action"`
	// Dir says Path is a directory the prompts created, removed.
	Dir bool `json:"dir,omitempty"`
	// Reason says why a file is not undoable.
	Reason string `json:"reason,omitempty"`
}

// PlanUndo plans undoing the file changes of the newest prompt of the
// conversation that has some not undone yet; ErrNothingToUndo when none.
func (h *History) PlanUndo() (Plan, error) {
	h.mu.Lock()
	turn := 0
	for i := len(h.prompts) - 1; i >= 0 && turn == 0; i-- {
		if p := h.prompts[i]; p.live && !p.restored && len(p.changes) > 0 {
			turn = i + 1
		}
	}
	h.mu.Unlock()
	if turn == 0 {
		return Plan{}, ErrNothingToUndo
	}
	return h.plan([]int{turn})
}

// PlanRewind plans putting the files back as they were before prompt
// turn: the changes of it and of every later prompt of the conversation,
// newest first. A plan without turns has nothing to restore.
func (h *History) PlanRewind(turn int) (Plan, error) {
	h.mu.Lock()
	if p := h.prompt(turn); p == nil || !p.live {
		h.mu.Unlock()
		return Plan{}, fmt.Errorf("no prompt %d in this conversation", turn)
	}
	var turns []int
	for i := len(h.prompts) - 1; i >= turn-1; i-- {
		if p := h.prompts[i]; p.live && !p.restored && len(p.changes) > 0 {
			turns = append(turns, i+1)
		}
	}
	h.mu.Unlock()
	return h.plan(turns)
}

// plan is the restore of turns (newest first): per file, the state before
// the earliest change and the state after the latest, and the state now.
func (h *History) plan(turns []int) (Plan, error) {
	h.mu.Lock()
	var files []FileRestore
	idx := map[string]int{}
	for _, t := range slices.Backward(turns) {
		for _, c := range h.prompts[t-1].changes {
			if i, ok := idx[c.Path]; ok {
				files[i].Left, files[i].Lost = c.After, lostReason(c)
				files[i].Dirs = append(files[i].Dirs, c.Dirs...)
				continue
			}
			idx[c.Path] = len(files)
			files = append(files, FileRestore{Path: c.Path, To: c.Before, Left: c.After, Lost: lostReason(c), Dirs: slices.Clone(c.Dirs)})
		}
	}
	h.mu.Unlock()
	for i := range files {
		cur, err := currentState(files[i].Path)
		if err != nil {
			return Plan{}, err
		}
		files[i].Current = cur
	}
	return Plan{Turns: turns, Files: files}, nil
}

// lostReason says why the state a change left its file in is not known:
// the change was never recorded whole, or the file could not be read.
func lostReason(c FileChange) string {
	if c.pending != 0 {
		return "forge stopped, or could not write the session log, before it recorded what the edit did"
	}
	return c.Lost
}

// Restore carries out p: each file goes back to its state before, except
// a conflict (changed since by someone else) that overwrite does not
// allow, which is kept. Every saved content and every file's directory
// are checked first, so a missing blob or a directory swapped for a link
// restores nothing. When a file cannot be written the others
// are still restored, the error names it, and the prompts stay to undo
// (a retry finds the files already restored unchanged). A file that is
// not undoable is left as it is and named in an ErrNotUndoable after the
// others are restored; the prompts are then undone as far as they can be.
func (h *History) Restore(p Plan, overwrite func(FileRestore) bool) ([]Restored, error) {
	if len(p.Turns) == 0 {
		return nil, ErrNothingToUndo
	}
	for _, f := range p.Files {
		if f.To != nil && !f.Unchanged() && !f.NotUndoable() {
			if err := h.blobs.has(f.To.Hash, f.To.Size); err != nil {
				return nil, fmt.Errorf("cannot restore %s: %w", f.Path, err)
			}
		}
	}
	for _, f := range p.Files {
		if !f.Unchanged() && !f.NotUndoable() {
			if err := checkDir(f.Path); err != nil {
				return nil, err
			}
		}
	}
	var (
		out  []Restored
		kept []string
		lost []error
		errs []error
	)
	for _, f := range p.Files {
		switch {
		case f.Unchanged():
			out = append(out, Restored{Path: f.Path, Action: ActionUnchanged})
		case f.NotUndoable():
			out = append(out, Restored{Path: f.Path, Action: ActionNotUndoable, Reason: f.Lost})
			lost = append(lost, fmt.Errorf("cannot undo %s: %s; it was left as it is", f.Path, f.Lost))
		case f.Conflict() && (overwrite == nil || !overwrite(f)):
			out = append(out, Restored{Path: f.Path, Action: ActionKept})
			kept = append(kept, f.Path)
		default:
			if err := h.restoreFile(f.Path, f.To); err != nil {
				errs = append(errs, err)
				continue
			}
			action := ActionRestored
			if f.To == nil {
				action = ActionRemoved
			}
			out = append(out, Restored{Path: f.Path, Action: action})
		}
	}
	if err := errors.Join(errs...); err != nil {
		return out, err
	}
	removed, err := removeEmptyDirs(p.Files)
	out = append(out, removed...)
	if err != nil {
		return out, err
	}
	err = h.commit(&record{Type: typeRestore, Restore: &restoreRecord{Turns: p.Turns, Kept: kept}})
	if len(lost) > 0 {
		return out, notUndoable{errors.Join(append(lost, err)...)}
	}
	return out, err
}

// notUndoable names the files a restore left as they were; it is an
// ErrNotUndoable.
type notUndoable struct{ error }

func (e notUndoable) Unwrap() error      { return e.error }
func (notUndoable) Is(target error) bool { return target == ErrNotUndoable }
