package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// List summarises every session, the most recently active first. It
// reads each session's sidecar, not its log; a session whose sidecar is
// missing or damaged (a crash between creating the log and writing it)
// has its log read once and the sidecar written again. It returns the
// sessions it could read, and an error naming those it could not.
func (s *Store) List() ([]Summary, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var (
		sums []Summary
		errs []error
	)
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || !e.Type().IsRegular() || checkID(id) != nil {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed since the directory was read
		}
		sum, err := s.summary(id, info.Size())
		if err != nil {
			errs = append(errs, err)
			continue
		}
		sums = append(sums, sum)
	}
	slices.SortFunc(sums, func(a, b Summary) int {
		if c := b.LastActivity.Compare(a.LastActivity); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return sums, errors.Join(errs...)
}

// summary is session id's sidecar when it describes the whole log (size
// bytes); else, when the log has grown since (a session still open, one
// killed before it closed) or the sidecar is gone, the log's own account,
// which is written back for the next list.
func (s *Store) summary(id string, size int64) (Summary, error) {
	sum, err := readSidecar(sidecarPath(s.dir, id))
	if err == nil && sum.ID == id && sum.Size == size {
		return sum, nil
	}
	f, err := os.Open(logPath(s.dir, id))
	if err != nil {
		return Summary{}, fmt.Errorf("session %s: %w", id, err)
	}
	defer f.Close()
	rp, err := readLog(f)
	if err != nil {
		return Summary{}, fmt.Errorf("session %s: %w", id, err)
	}
	if rp.meta.ID != id {
		return Summary{}, fmt.Errorf("session %s: its log says it is %q", id, rp.meta.ID)
	}
	rp.sum.Size = size
	// A failure to write the sidecar only means the next list reads the
	// log again.
	_ = writeSidecar(sidecarPath(s.dir, id), &rp.sum)
	return rp.sum, nil
}

// Latest is the ID of the most recently active session started in cwd,
// for resuming "where I was"; ErrNoSession when there is none.
func (s *Store) Latest(cwd string) (string, error) {
	sums, err := s.List()
	cwd = filepath.Clean(cwd)
	for _, sum := range sums {
		if filepath.Clean(sum.CWD) == cwd {
			return sum.ID, nil
		}
	}
	if err != nil {
		return "", err
	}
	return "", fmt.Errorf("sessions of %s: %w", cwd, ErrNoSession)
}
