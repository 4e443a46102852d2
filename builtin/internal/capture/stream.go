package capture

import "sync"

// Stream keeps the last bytes of a long-running command's output for readers
// that come back for what is new (BashOutput). Old bytes are dropped once
// more than its size has been written; Since says how many a reader missed.
// It is safe for concurrent use.
type Stream struct {
	mu    sync.Mutex
	r     ring
	total int64
}

// NewStream returns a stream that keeps the last size bytes.
func NewStream(size int) *Stream { return &Stream{r: newRing(size)} }

// Write implements io.Writer; it never fails.
func (s *Stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	s.total += int64(len(p))
	s.r.write(p)
	s.mu.Unlock()
	return len(p), nil
}

// Since returns the bytes written after offset off that are still kept,
// how many bytes after off were dropped before they could be read, and the
// offset to pass next time.
func (s *Stream) Since(off int64) (data []byte, dropped, next int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if off < 0 {
		off = 0
	}
	if off >= s.total {
		return nil, 0, s.total
	}
	kept := int64(s.r.len())
	first := s.total - kept // offset of the oldest kept byte
	if off < first {
		dropped = first - off
		off = first
	}
	all := s.r.bytes()
	return all[off-first:], dropped, s.total
}
