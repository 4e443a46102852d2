package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/forgehq/forge/internal/llm"
)

// Meta is what a session is: its first record.
type Meta struct {
	ID       string    `json:"id"`
	CWD      string    `json:"cwd"`
	Provider string    `json:"provider,omitempty"`
	Model    string    `json:"model,omitempty"`
	Created  time.Time `json:"created"`
}

// Store is a directory of sessions (forge uses
// $XDG_DATA_HOME/forge/sessions). Logs hold conversations, tool output
// and costs, so the directory is made 0700 and every file 0600.
type Store struct {
	dir string
	now func() time.Time
	// budget bounds the side-file bytes a load reads (see maxLoaded);
	// tests lower it.
	budget int64
}

// NewStore is the store in dir; now stamps records (time.Now in forge, a
// fixed clock in tests).
func NewStore(dir string, now func() time.Time) *Store {
	if now == nil {
		panic("session.NewStore: nil clock")
	}
	return &Store{dir: dir, now: now, budget: maxLoaded}
}

func logPath(dir, id string) string     { return filepath.Join(dir, id+".jsonl") }
func sidecarPath(dir, id string) string { return filepath.Join(dir, id+".json") }

// Create starts session meta.ID, stamped now, and returns its log. The ID
// is the caller's (NewID makes one); a session that exists is an error.
func (s *Store) Create(meta Meta) (*Log, error) {
	if err := checkID(meta.ID); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("session store: %w", err)
	}
	meta.Created = s.now().UTC()
	if meta.CWD != "" {
		meta.CWD = filepath.Clean(meta.CWD)
	}
	path := logPath(s.dir, meta.ID)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create session %s: %w", meta.ID, err)
	}
	// Locked after the exclusive create, so that an id taken already is
	// fs.ErrExist (the caller picks another) whether or not it is in use.
	lock, err := lockSession(s.dir, meta.ID)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	l := &Log{f: f, lock: lock, dir: s.dir, id: meta.ID, now: s.now, outputs: map[string]sideRef{}}
	l.attach(&History{}, s.budget)
	l.sum.setMeta(meta)
	err = l.write(&record{Type: typeMeta, Version: formatVersion, Meta: &meta})
	if err == nil {
		err = l.saveSummary()
	}
	if err != nil {
		_ = f.Close()
		_ = os.Remove(path)
		_ = os.Remove(lockPath(s.dir, meta.ID))
		_ = lock.release()
		return nil, err
	}
	return l, nil
}

// Load reads session id: its conversation (after the last compaction,
// repaired), totals and whatever damage it found. It reads the log a line
// at a time, and only the side files of the conversation it returns.
func (s *Store) Load(id string) (*State, error) {
	f, err := s.open(id, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rp, err := readLog(f)
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", id, err)
	}
	return s.state(id, rp), nil
}

// Resume loads session id and reopens its log for appending. A record
// torn by a crash is cut off the end first, so that the next record
// starts on a line of its own. A session that another Log has open, in
// this process or another, is refused (*InUseError): two writers would
// interleave their records and each undo the other's files.
func (s *Store) Resume(id string) (*Log, *State, error) {
	f, err := s.open(id, os.O_RDWR|os.O_APPEND)
	if err != nil {
		return nil, nil, err
	}
	lock, err := lockSession(s.dir, id)
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	// Read only once it is locked, so that nothing is being appended; a
	// Remove that came first took the log the file was opened by.
	if !same(f, logPath(s.dir, id)) {
		_ = f.Close()
		_ = lock.release()
		return nil, nil, fmt.Errorf("session %q: %w", id, ErrNoSession)
	}
	rp, err := readLog(f)
	if err == nil {
		err = mend(f, rp)
	}
	if err != nil {
		_ = f.Close()
		_ = lock.release()
		return nil, nil, fmt.Errorf("resume session %s: %w", id, err)
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		_ = lock.release()
		return nil, nil, fmt.Errorf("resume session %s: %w", id, err)
	}
	st := s.state(id, rp)
	l := &Log{f: f, lock: lock, dir: s.dir, id: id, now: s.now, sum: rp.sum, size: info.Size(), nextOut: rp.nextOut, outputs: rp.outputs, typed: rp.typed}
	l.attach(rp.hist, s.budget)
	return l, st, nil
}

// mend readies the end of a log for appending: a torn record goes, and a
// whole last record that lacks its newline gets one.
func mend(f *os.File, rp *replay) error {
	switch {
	case rp.torn:
		if err := f.Truncate(rp.end); err != nil {
			return fmt.Errorf("cut the torn record: %w", err)
		}
	case rp.unterminated:
		if _, err := f.Write([]byte{'\n'}); err != nil {
			return fmt.Errorf("end the last record: %w", err)
		}
	}
	return nil
}

// open opens the log of session id, or says there is no such session.
func (s *Store) open(id string, flag int) (*os.File, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(logPath(s.dir, id), flag, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("session %q: %w", id, ErrNoSession)
	}
	if err != nil {
		return nil, fmt.Errorf("open session %s: %w", id, err)
	}
	return f, nil
}

// state is the State a replay leaves: side files read, then repaired.
func (s *Store) state(id string, rp *replay) *State {
	msgs, warnings := resolveOutputs(s.dir, id, rp.msgs, s.budget)
	msgs, notes := llm.Repair(msgs)
	warnings = append(rp.warnings, warnings...)
	if rp.meta.ID != id {
		warnings = append(warnings, fmt.Sprintf("the log of session %s says it is session %q", id, rp.meta.ID))
	}
	for _, n := range notes {
		warnings = append(warnings, "repaired: "+n)
	}
	st := &State{
		Meta: rp.meta, Messages: msgs, Usage: rp.sum.Usage, CostUSD: rp.sum.CostUSD, Requests: rp.requests,
		Turns: rp.sum.Turns, LastActivity: rp.sum.LastActivity, Warnings: warnings,
		Shown:      Shown{Typed: map[string]string{}, Outcomes: map[string]Outcome{}},
		LastEvents: make(map[string]json.RawMessage, len(rp.events)),
	}
	for k, d := range rp.events {
		st.LastEvents[k] = d
	}
	for _, m := range msgs {
		if t, ok := rp.typed[m.Text]; ok && m.Role == llm.RoleUser {
			st.Shown.Typed[m.Text] = t
		}
		for _, c := range m.ToolCalls {
			if o, ok := rp.outcomes[c.ID]; ok {
				st.Shown.Outcomes[c.ID] = o
			}
		}
	}
	return st
}

// Remove deletes session id: its log, its summary, its side files and its
// lock. A session in use is refused (*InUseError), since its forge would
// go on writing a log nobody can find.
func (s *Store) Remove(id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	path := logPath(s.dir, id)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove session %q: %w", id, ErrNoSession)
	}
	lock, err := lockSession(s.dir, id)
	if err != nil {
		return err
	}
	defer lock.release()
	errs := []error{
		os.Remove(path),
		ignoreMissing(os.Remove(sidecarPath(s.dir, id))),
		os.RemoveAll(outputDir(s.dir, id)),
		ignoreMissing(os.Remove(lockPath(s.dir, id))),
	}
	// A summary's temporary file is left behind when forge is killed
	// between writing and renaming it. The ID has no glob characters.
	tmps, _ := filepath.Glob(filepath.Join(s.dir, "."+id+".json.*.tmp"))
	for _, tmp := range tmps {
		errs = append(errs, ignoreMissing(os.Remove(tmp)))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("remove session %s: %w", id, err)
	}
	return nil
}

func ignoreMissing(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
