package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// DefaultFileMode is the mode of a file that WriteAtomic creates.
const DefaultFileMode fs.FileMode = 0o644

// WriteAtomic replaces (or creates) the target file with data so that a
// crash leaves either the old content or the new, never a mix: it writes a
// temporary file in the same directory, fsyncs it, gives it the original
// file's permissions, and renames it over the file. Missing parent
// directories are created. The target must come from WriteTarget: every
// step goes through its root, and once the parent directory is open, through
// that directory's own descriptor, so that the temporary file and the
// rename both land in the directory that was opened, whatever is swapped in
// its place meanwhile. created reports whether the file did not exist
// before.
func (t *Target) WriteAtomic(data []byte) (created bool, err error) {
	if t.root == nil || t.preview {
		return false, fmt.Errorf("Cannot write %s: it was not resolved for writing", t.Path)
	}
	dir, base := filepath.Dir(t.name), filepath.Base(t.name)
	if t.name == "." {
		return false, fmt.Errorf("Path is a directory: %s", t.Path)
	}
	if dir != "." {
		if err := t.root.MkdirAll(dir, 0o755); err != nil {
			return false, t.writeError("Cannot create directory "+filepath.Dir(t.Path), err)
		}
	}
	d, err := t.root.OpenRoot(dir)
	if err != nil {
		return false, t.writeError("Cannot write "+t.Path, err)
	}
	defer d.Close()
	if !t.judgedDir(d, base) {
		return false, fmt.Errorf("Cannot write %s: %w", t.Path, ErrChanged)
	}
	mode, created, err := t.modeOf(d, base)
	if err != nil {
		return false, err
	}
	tmp, err := t.writeTemp(d, base, data, mode)
	if err != nil {
		return false, err
	}
	if err := d.Rename(tmp, base); err != nil {
		_ = d.Remove(tmp)
		return false, t.writeError("Cannot write "+t.Path, err)
	}
	// Make the rename itself durable; a failure here leaves a correct file,
	// so it is not reported.
	if df, err := d.Open("."); err == nil {
		_ = df.Sync()
		_ = df.Close()
	}
	return created, nil
}

// modeOf returns the permissions the file base in d will have: its own when
// it exists (which must then be a regular file), DefaultFileMode otherwise.
func (t *Target) modeOf(d *os.Root, base string) (mode fs.FileMode, created bool, err error) {
	fi, err := d.Stat(base)
	switch {
	case err == nil && fi.IsDir():
		return 0, false, fmt.Errorf("Path is a directory: %s", t.Path)
	case err == nil && !fi.Mode().IsRegular():
		return 0, false, fmt.Errorf("Refusing to write %s: not a regular file", t.Path)
	case err == nil:
		return fi.Mode().Perm(), false, nil
	case errors.Is(err, fs.ErrNotExist):
		return DefaultFileMode, true, nil
	case escapes(err):
		return 0, false, t.refusal
	}
	return 0, false, errors.New(Describe(t.Path, err))
}

// writeTemp writes data to a new temporary file beside base in d, with
// mode, synced to disk, and returns its name. On failure nothing is left.
func (t *Target) writeTemp(d *os.Root, base string, data []byte, mode fs.FileMode) (name string, err error) {
	f, name, err := createTemp(d, base)
	if err != nil {
		return "", t.writeError("Cannot write "+t.Path, err)
	}
	defer func() {
		if err != nil {
			_ = d.Remove(name)
		}
	}()
	_, err = f.Write(data)
	// The file was created 0600; give it the mode the file had (umask does
	// not apply to Chmod, which is what keeping the mode means).
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", t.writeError("Cannot write "+t.Path, err)
	}
	return name, nil
}

// createTemp creates a new file in d named after base, as os.CreateTemp
// would, which os.Root does not offer.
func createTemp(d *os.Root, base string) (*os.File, string, error) {
	prefix := "." + base
	if len(prefix) > 100 {
		prefix = prefix[:100] // the name must stay under the file system's limit
	}
	for range 100 {
		name := prefix + ".forge-" + strconv.FormatUint(uint64(rand.Uint32()), 10) + ".tmp"
		f, err := d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			return f, name, err
		}
	}
	return nil, "", fmt.Errorf("no unused temporary name beside %s", base)
}

// writeError is the message of a failed step of a write: the refusal when
// the root stopped it from leaving, otherwise what and why.
func (t *Target) writeError(what string, err error) error {
	if escapes(err) {
		return t.refusal
	}
	return fmt.Errorf("%s: %w", what, unwrapPath(err))
}

// unwrapPath drops the *fs.PathError wrapper, whose path is a name beneath
// the root or a temporary file's, which means nothing to the user.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// judgedDir reports whether d, the directory the file base is to be
// written in, is the directory of one of the judged places whose name is
// base (Judge); true when the target is bound to none.
func (t *Target) judgedDir(d *os.Root, base string) bool {
	if t.judged == nil {
		return true
	}
	fi, err := d.Stat(".")
	if err != nil {
		return false
	}
	var dirs []string
	for _, j := range t.judged {
		if filepath.Base(j) == base {
			dirs = append(dirs, filepath.Dir(j))
		}
	}
	return sameAt(fi, dirs)
}
