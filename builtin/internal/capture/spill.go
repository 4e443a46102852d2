package capture

import (
	"fmt"
	"os"
	"sync"
)

// Spill keeps a command's output as a HeadTail does and, once the output
// outgrows the HeadTail's limit, the whole of it in a temporary file (mode
// 0600, as os.CreateTemp makes it) of a Spills, so that what the result
// leaves out is not lost while forge runs. The file holds at most max
// bytes: a command can print without end, and the disk is not. It is safe
// for concurrent use.
type Spill struct {
	ht    *HeadTail
	limit int64
	files *Spills
	max   int64

	mu     sync.Mutex
	f      *os.File
	sf     *spillFile
	path   string
	saved  int64
	err    error
	closed bool
}

// NewSpill returns a buffer that keeps limit bytes in memory and the whole
// output, up to max bytes (and no more than files may hold in all), in a
// new file of files once it is longer than limit.
func NewSpill(limit int, files *Spills, max int64) *Spill {
	ht := NewHeadTail(limit)
	return &Spill{ht: ht, limit: int64(ht.hcap + ht.tail.size), files: files, max: min(max, files.max)}
}

// Write implements io.Writer; it never fails: a file that cannot be written
// is reported by Err, and the output goes on in memory.
func (s *Spill) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil && s.err == nil && !s.closed && s.ht.Total()+int64(len(p)) > s.limit {
		// Until now the HeadTail held every byte: they start the file.
		s.open(s.ht.kept())
	}
	if s.f != nil {
		s.save(p)
	}
	return s.ht.Write(p)
}

// open creates the file and writes first to it.
func (s *Spill) open(first []byte) {
	f, sf, err := s.files.create()
	if err != nil {
		s.err = fmt.Errorf("cannot save the whole output: %w", err)
		return
	}
	s.f, s.sf, s.path = f, sf, f.Name()
	s.save(first)
}

// save appends p to the file, up to max bytes.
func (s *Spill) save(p []byte) {
	if room := s.max - s.saved; int64(len(p)) > room {
		p = p[:max(room, 0)]
	}
	if len(p) == 0 {
		return
	}
	n, err := s.f.Write(p)
	s.saved += int64(n)
	s.files.grow(s.sf, int64(n))
	if err != nil {
		s.err = fmt.Errorf("cannot save the whole output in %s: %w", s.path, err)
		s.closeFile()
	}
}

func (s *Spill) closeFile() {
	if err := s.f.Close(); err != nil && s.err == nil {
		s.err = fmt.Errorf("cannot save the whole output in %s: %w", s.path, err)
	}
	s.f = nil
	s.files.finish(s.sf)
}

// Close closes the file; later writes only reach the HeadTail. It is safe
// to call more than once.
func (s *Spill) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.f != nil {
		s.closeFile()
	}
	return s.err
}

// Path is the file holding the output, or "" when the output fit the
// limit (or the file could not be created: see Err).
func (s *Spill) Path() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.path
}

// Saved is the number of bytes in the file.
func (s *Spill) Saved() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saved
}

// Err reports why the file could not be created or written, if it could
// not.
func (s *Spill) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Total is the number of bytes written so far.
func (s *Spill) Total() int64 { return s.ht.Total() }

// Truncated reports whether the in-memory text leaves bytes out.
func (s *Spill) Truncated() bool { return s.ht.Truncated() }

// String is the in-memory text: head, a line saying what was left out,
// tail (HeadTail.String).
func (s *Spill) String() string { return s.ht.String() }

// FileNote is the line a result gives about the file: where the whole
// output is, or how much of it is, or why it could not be saved; "" when
// no file was needed.
func (s *Spill) FileNote() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	total := s.ht.Total()
	switch {
	case s.path != "" && s.saved == total && s.err == nil:
		return fmt.Sprintf("[The whole output (%d bytes) is in %s until forge exits]", total, s.path)
	case s.path != "" && s.saved > 0:
		reason := fmt.Sprintf("the file stops at %d bytes", s.max)
		if s.err != nil {
			reason = s.err.Error()
		}
		return fmt.Sprintf("[The first %d bytes of the output (of %d) are in %s until forge exits: %s]", s.saved, total, s.path, reason)
	case s.err != nil:
		return "[" + s.err.Error() + "]"
	}
	return ""
}
