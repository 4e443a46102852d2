package agent

import (
	"slices"

	"github.com/forgehq/forge/internal/tools"
)

// Checkpointer keeps the files a call is about to change, so that the
// person can undo a prompt's changes (the session implements it).
type Checkpointer interface {
	// Checkpoint saves the state of paths (absolute, links resolved)
	// before a call changes them, and returns the function that records
	// the state the call left them in, called once the call is over. An
	// error means nothing could be kept: the call does not run.
	Checkpoint(paths []string) (commit func() error, err error)
}

// changedFiles are the files p would change: a file-editing tool's own
// answer (tools.FileChanger); none for other tools, for calls that will
// not run, and in a dry run, which changes nothing.
func (r *run) changedFiles(p *pending) []string {
	if p.tool == nil || p.call.Args == nil || p.res != nil || r.a.cfg.Exec.DryRun || !editsFiles(p.tool) {
		return nil
	}
	fc, ok := p.tool.(tools.FileChanger)
	if !ok {
		return nil
	}
	return fc.ChangedFiles(r.a.cfg.Exec, p.call.Args)
}

// checkpoint saves the files p will change, before it runs, and returns
// what to call after it ran. A checkpoint that cannot be kept (a full
// disk, a blob directory that cannot be written) is an error, and the
// call must not run: an edit nobody can undo is worse than one not made,
// which the model can try again or do otherwise.
func (r *run) checkpoint(p *pending) (func(), error) {
	paths := r.changedFiles(p)
	if len(paths) == 0 {
		return func() {}, nil
	}
	var commit func() error
	if cp := r.a.cfg.Checkpointer; cp != nil {
		var err error
		if commit, err = cp.Checkpoint(paths); err != nil {
			return nil, err
		}
	}
	return func() {
		if p.res == nil || p.res.Status != StatusSuccess {
			paths = nil
		}
		r.noteChanged(paths)
		if commit == nil {
			return
		}
		if err := commit(); err != nil {
			r.notice("the checkpoint of " + p.call.Name + " could not be recorded whole: " + err.Error() +
				"; an undo may have to leave the file as it is")
		}
	}, nil
}

// notCheckpointed is the result of an edit not run because its checkpoint
// could not be kept.
func notCheckpointed(err error) *CallResult {
	return refusedFor(StatusFailed, "Could not keep a checkpoint for undo: "+err.Error()+"; the file was not changed.",
		"not run: could not keep a checkpoint for undo ("+err.Error()+")")
}

// noteChanged adds paths to the files the run changed.
func (r *run) noteChanged(paths []string) {
	if len(paths) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range paths {
		if !slices.Contains(r.done.FilesChanged, p) {
			r.done.FilesChanged = append(r.done.FilesChanged, p)
		}
	}
}
