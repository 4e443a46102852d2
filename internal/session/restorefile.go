package session

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// checkDir refuses to restore path when its directory, or the nearest of
// its ancestors that exists, now resolves to somewhere else than the
// checkpoint recorded (its paths have their links resolved): a directory
// replaced by a link would take the restore, with the content of the
// session's log, wherever the link points.
func checkDir(path string) error {
	_, err := existingAncestor(path)
	return err
}

// existingAncestor is the nearest directory above path that exists, after
// checking that it is itself, not reached through a link.
func existingAncestor(path string) (string, error) {
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		real, err := filepath.EvalSymlinks(dir)
		switch {
		case err == nil && real != dir:
			return "", fmt.Errorf("cannot restore %s: %s is now a link to %s, not the directory forge wrote in; nothing restored", path, dir, real)
		case err == nil:
			return dir, nil
		case !errors.Is(err, fs.ErrNotExist):
			return "", fmt.Errorf("cannot restore %s: %w", path, err)
		case filepath.Dir(dir) == dir:
			return "", fmt.Errorf("cannot restore %s: no directory above it exists", path)
		}
	}
}

// openAncestor opens an os.Root at the nearest existing directory above
// path, checked as checkDir checks it, and returns path relative to it:
// every step of a restore goes through the root, so that a link swapped in
// below it meanwhile cannot take the restore out.
func openAncestor(path string) (*os.Root, string, error) {
	dir, err := existingAncestor(path)
	if err != nil {
		return nil, "", err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, "", fmt.Errorf("restore %s: %w", path, err)
	}
	// The root was opened by a path that a link could have replaced
	// since it was checked: it must be the directory found there now.
	opened, err := root.Stat(".")
	there, lerr := os.Lstat(dir)
	if err != nil || lerr != nil || !os.SameFile(opened, there) {
		_ = root.Close()
		return nil, "", fmt.Errorf("cannot restore %s: %s changed while it was being opened; nothing restored", path, dir)
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		_ = root.Close()
		return nil, "", fmt.Errorf("restore %s: %w", path, err)
	}
	return root, rel, nil
}

// restoreFile puts the file at path in state to: removed when to is nil,
// else its content and mode written back through a temporary file renamed
// over it, so the file is never half-restored.
func (h *History) restoreFile(path string, to *FileState) error {
	var data []byte
	if to != nil {
		var err error
		if data, err = h.blobs.get(to.Hash); err != nil {
			return fmt.Errorf("cannot restore %s: %w", path, err)
		}
	}
	root, rel, err := openAncestor(path)
	if err != nil {
		return err
	}
	defer root.Close()
	if to == nil {
		if err := root.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", path, err)
		}
		return nil
	}
	dir, base := filepath.Dir(rel), filepath.Base(rel)
	if dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("restore %s: %w", path, err)
		}
	}
	d, err := root.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("restore %s: %w", path, err)
	}
	defer d.Close()
	if err := writeReplace(d, base, data, to.Mode); err != nil {
		return fmt.Errorf("restore %s: %w", path, err)
	}
	return nil
}

// writeReplace writes data with mode to a new temporary file in d and
// renames it over base.
func writeReplace(d *os.Root, base string, data []byte, mode fs.FileMode) error {
	tmp, name, err := createTemp(d, base)
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = d.Rename(name, base)
	}
	if err != nil {
		_ = d.Remove(name)
	}
	return err
}

// createTemp creates a new file in d named after base, as os.CreateTemp
// would, which os.Root does not offer.
func createTemp(d *os.Root, base string) (*os.File, string, error) {
	prefix := "." + base
	if len(prefix) > 100 {
		prefix = prefix[:100] // the name must stay under the file system's limit
	}
	for range 100 {
		name := prefix + ".forge-undo." + strconv.FormatUint(uint64(rand.Uint32()), 10)
		f, err := d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			return f, name, err
		}
	}
	return nil, "", fmt.Errorf("no unused temporary name beside %s", base)
}

// removeEmptyDirs removes the directories the prompts created above files,
// deepest first, those that are empty now; one that holds anything stays.
func removeEmptyDirs(files []FileRestore) ([]Restored, error) {
	var dirs []string
	for _, f := range files {
		dirs = append(dirs, f.Dirs...)
	}
	// Deepest first: a directory after those below it.
	slices.SortFunc(dirs, func(a, b string) int {
		if d := strings.Count(b, string(filepath.Separator)) - strings.Count(a, string(filepath.Separator)); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	var out []Restored
	for _, d := range slices.Compact(dirs) {
		removed, err := removeEmptyDir(d)
		if err != nil {
			return out, err
		}
		if removed {
			out = append(out, Restored{Path: d, Action: ActionRemoved, Dir: true})
		}
	}
	return out, nil
}

// removeEmptyDir removes dir when it is an empty directory, through a root
// at the directory above it.
func removeEmptyDir(dir string) (bool, error) {
	root, rel, err := openAncestor(dir)
	if err != nil {
		return false, err
	}
	defer root.Close()
	fi, err := root.Lstat(rel)
	if err != nil || !fi.IsDir() {
		return false, nil // gone already, or no longer a directory
	}
	d, err := root.Open(rel)
	if err != nil {
		return false, nil
	}
	names, err := d.Readdirnames(1)
	_ = d.Close()
	if len(names) > 0 || err != nil && !errors.Is(err, io.EOF) {
		return false, nil // holds something: not forge's to remove
	}
	if err := root.Remove(rel); err != nil {
		return false, fmt.Errorf("remove directory %s: %w", dir, err)
	}
	return true, nil
}
