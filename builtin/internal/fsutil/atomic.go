package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DefaultFileMode is the mode of a file that WriteFileAtomic creates.
const DefaultFileMode fs.FileMode = 0o644

// WriteFileAtomic replaces (or creates) the file at path with data so that a
// crash leaves either the old content or the new, never a mix: it writes a
// temporary file in the same directory, fsyncs it, gives it the original
// file's permissions, and renames it over path. Missing parent directories
// are created. path should already be resolved (WriteTarget), so that a
// symbolic link is written through, not replaced. created reports whether
// the file did not exist before.
func WriteFileAtomic(path string, data []byte) (created bool, err error) {
	mode := DefaultFileMode
	fi, err := os.Stat(path)
	switch {
	case err == nil:
		if !fi.Mode().IsRegular() {
			if fi.IsDir() {
				return false, fmt.Errorf("Path is a directory: %s", path)
			}
			return false, fmt.Errorf("Refusing to write %s: not a regular file", path)
		}
		mode = fi.Mode().Perm()
	case errors.Is(err, fs.ErrNotExist):
		created = true
	default:
		return false, errors.New(Describe(path, err))
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("Cannot create directory %s: %w", dir, unwrapPath(err))
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".forge-*.tmp")
	if err != nil {
		return false, fmt.Errorf("Cannot write %s: %w", path, unwrapPath(err))
	}
	tmpName := tmp.Name()
	defer func() {
		if err != nil {
			_ = os.Remove(tmpName)
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		_ = tmp.Close()
		return false, fmt.Errorf("Cannot write %s: %w", path, unwrapPath(err))
	}
	// CreateTemp makes the file 0600; give it the mode the file had (umask
	// does not apply to Chmod, which is what keeping the mode means).
	if err = tmp.Chmod(mode); err != nil {
		_ = tmp.Close()
		return false, fmt.Errorf("Cannot write %s: %w", path, unwrapPath(err))
	}
	if err = tmp.Sync(); err != nil {
		_ = tmp.Close()
		return false, fmt.Errorf("Cannot write %s: %w", path, unwrapPath(err))
	}
	if err = tmp.Close(); err != nil {
		return false, fmt.Errorf("Cannot write %s: %w", path, unwrapPath(err))
	}
	if err = os.Rename(tmpName, path); err != nil {
		return false, fmt.Errorf("Cannot write %s: %w", path, unwrapPath(err))
	}
	// Make the rename itself durable; a failure here leaves a correct file,
	// so it is not reported.
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return created, nil
}

// unwrapPath drops the *fs.PathError wrapper whose path is the temporary
// file's, which means nothing to the user.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
