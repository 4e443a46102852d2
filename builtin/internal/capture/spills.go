package capture

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync"
)

// Spills are the files in which the Spill buffers of one owner (the Bash
// tool) keep whole outputs. Together they hold at most max bytes: when an
// output needs more, the oldest finished files are removed first (a file
// still being written stays, and holds at most max on its own). Close
// removes them all, so that outputs kept for the model to read again
// neither outlive forge nor fill the disk while it runs. It is safe for
// concurrent use.
type Spills struct {
	dir string
	max int64

	mu     sync.Mutex
	files  []*spillFile // oldest first
	total  int64
	closed bool
}

// spillFile is one file of a Spills: its size so far, and whether its
// Spill still writes it.
type spillFile struct {
	path string
	size int64
	open bool
}

// NewSpills keeps files in dir (os.TempDir() when dir is empty), at most
// max bytes of them in all.
func NewSpills(dir string, max int64) *Spills { return &Spills{dir: dir, max: max} }

// errClosed is why a Spill makes no file once its Spills are closed.
var errClosed = errors.New("forge is exiting")

// create makes a new file (mode 0600), still open.
func (s *Spills) create() (*os.File, *spillFile, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil, errClosed
	}
	f, err := os.CreateTemp(s.dir, "forge-bash-*.log")
	if err != nil {
		return nil, nil, err
	}
	sf := &spillFile{path: f.Name(), open: true}
	s.files = append(s.files, sf)
	return f, sf, nil
}

// grow counts n more bytes written to sf, and makes room for them.
func (s *Spills) grow(sf *spillFile, n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sf.size += n
	s.total += n
	s.trim()
}

// finish says sf is written: from now on it may go to make room for
// later outputs (not at once, which would take away the file its result
// is about to name).
func (s *Spills) finish(sf *spillFile) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sf.open = false
}

// trim removes the oldest finished files while all of them hold more than
// max bytes.
func (s *Spills) trim() {
	for s.total > s.max {
		i := slices.IndexFunc(s.files, func(f *spillFile) bool { return !f.open })
		if i < 0 {
			return // only files being written: each is bounded on its own
		}
		_ = os.Remove(s.files[i].path) // gone already is as good
		s.total -= s.files[i].size
		s.files = slices.Delete(s.files, i, i+1)
	}
}

// Total is the bytes the files hold now.
func (s *Spills) Total() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// Close removes every file, those still being written too (their Spill
// goes on writing a removed file, which costs the disk nothing once it is
// closed); later Spills make none. It is safe to call more than once.
func (s *Spills) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	var errs []error
	for _, f := range s.files {
		if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	s.files, s.total = nil, 0
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("remove saved outputs: %w", err)
	}
	return nil
}
