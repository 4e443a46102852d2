package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// ErrBadBlob says a file's saved content is missing or is not what was
// saved (its hash differs): the file cannot be restored from it.
var ErrBadBlob = errors.New("saved file content missing or damaged")

// blobStore keeps file contents by their sha256, each once.
type blobStore interface {
	// put stores what r yields and returns its hash and size.
	put(r io.Reader) (string, int64, error)
	// get returns the content of hash, checked against it.
	get(hash string) ([]byte, error)
	// has says hash is stored with size bytes, without reading it.
	has(hash string, size int64) error
}

func blobDir(dir, id string) string { return filepath.Join(outputDir(dir, id), "blobs") }

// dirBlobs keeps blobs as files named by their hash in a directory of the
// session (ID.d/blobs), written through a temporary file and a rename so
// that a blob under its name is always whole.
type dirBlobs struct{ dir string }

func (b dirBlobs) path(hash string) string { return filepath.Join(b.dir, hash) }

func (b dirBlobs) put(r io.Reader) (string, int64, error) {
	// A content kept already (the same file saved again, a Write that
	// put back what was there) costs a read, not a write: hash first
	// when r can be read twice.
	if rs, ok := r.(io.ReadSeeker); ok {
		sum, n, err := hashReader(rs)
		if err != nil {
			return "", 0, fmt.Errorf("store file content: %w", err)
		}
		if fi, err := os.Stat(b.path(sum)); err == nil && fi.Size() == n {
			return sum, n, nil
		}
		if _, err := rs.Seek(0, io.SeekStart); err != nil {
			return "", 0, fmt.Errorf("store file content: %w", err)
		}
	}
	if err := os.MkdirAll(b.dir, 0o700); err != nil {
		return "", 0, fmt.Errorf("store file content: %w", err)
	}
	tmp, err := os.CreateTemp(b.dir, ".blob.*.tmp")
	if err != nil {
		return "", 0, fmt.Errorf("store file content: %w", err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), r)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if err == nil {
		if _, serr := os.Stat(b.path(sum)); serr == nil {
			err = os.Remove(tmp.Name()) // already kept: the same content is stored once
			return sum, n, err
		}
		err = os.Rename(tmp.Name(), b.path(sum))
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return "", 0, fmt.Errorf("store file content: %w", err)
	}
	return sum, n, nil
}

func (b dirBlobs) get(hash string) ([]byte, error) {
	if err := checkHash(hash); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(b.path(hash))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("content %.12s: %w (%s is gone)", hash, ErrBadBlob, b.path(hash))
	}
	if err != nil {
		return nil, fmt.Errorf("content %.12s: %w", hash, err)
	}
	return data, verify(hash, data)
}

func (b dirBlobs) has(hash string, size int64) error {
	if err := checkHash(hash); err != nil {
		return err
	}
	fi, err := os.Stat(b.path(hash))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("content %.12s: %w (%s is gone)", hash, ErrBadBlob, b.path(hash))
	case err != nil:
		return fmt.Errorf("content %.12s: %w", hash, err)
	case fi.Size() != size:
		return fmt.Errorf("content %.12s: %w (%d bytes, %d were saved)", hash, ErrBadBlob, fi.Size(), size)
	}
	return nil
}

// memBlobs keeps blobs in memory, for a shell that keeps no sessions:
// its checkpoints last as long as it does.
type memBlobs struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (b *memBlobs) put(r io.Reader) (string, int64, error) {
	var buf bytes.Buffer
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(&buf, h), r); err != nil {
		return "", 0, fmt.Errorf("store file content: %w", err)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.m[sum]; !ok {
		b.m[sum] = buf.Bytes()
	}
	return sum, int64(buf.Len()), nil
}

func (b *memBlobs) get(hash string) ([]byte, error) {
	b.mu.Lock()
	data, ok := b.m[hash]
	b.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("content %.12s: %w", hash, ErrBadBlob)
	}
	return data, nil
}

func (b *memBlobs) has(hash string, size int64) error {
	b.mu.Lock()
	data, ok := b.m[hash]
	b.mu.Unlock()
	if !ok || int64(len(data)) != size {
		return fmt.Errorf("content %.12s: %w", hash, ErrBadBlob)
	}
	return nil
}

// checkHash refuses a name that is not a sha256 in hex, so that a damaged
// log cannot name a file outside the blob directory.
func checkHash(hash string) error {
	if len(hash) != 2*sha256.Size {
		return fmt.Errorf("content %q: %w (not a sha256)", hash, ErrBadBlob)
	}
	if _, err := hex.DecodeString(hash); err != nil {
		return fmt.Errorf("content %q: %w (not a sha256)", hash, ErrBadBlob)
	}
	return nil
}

func verify(want string, data []byte) error {
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != want {
		return fmt.Errorf("content %.12s: %w (its sha256 is now %.12s)", want, ErrBadBlob, got)
	}
	return nil
}

// hashReader is the sha256 and size of what r yields.
func hashReader(r io.Reader) (string, int64, error) {
	h := sha256.New()
	n, err := io.Copy(h, r)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
