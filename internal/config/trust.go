package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// DefaultTrustFile is $XDG_STATE_HOME/forge/trusted.json, or
// ~/.local/state/forge/trusted.json: the project directories the person has
// trusted. "" when neither is known.
func DefaultTrustFile(env func(string) (string, bool)) string {
	return xdgPath(env, "XDG_STATE_HOME", filepath.Join(".local", "state"), "forge", "trusted.json")
}

// Trust is the set of project directories whose settings may widen what
// forge does. It is remembered per directory, in the user's state, never in
// the project: a repository cannot vouch for itself. Each directory is
// trusted with its project file as it was then: a pull, or an agent's edit,
// that changes the file needs the person's word again.
type Trust struct {
	path string
	dirs map[string]trustEntry // absolute directory -> when, and which file
	// broken is why the file could not be read: nothing is trusted, and
	// nothing is written over it, so that the person can look at it.
	broken error
}

type trustEntry struct {
	At   time.Time `json:"at"`
	Hash string    `json:"hash"` // ProjectFileHash of the file trusted
}

// trustFile is the file's shape.
type trustFile struct {
	Dirs map[string]trustEntry `json:"dirs"`
}

// LoadTrust reads the trust file at path; a missing file trusts nothing.
// path "" keeps trust in memory only. A file that cannot be read is an
// error, and the Trust returned with it trusts nothing and refuses to
// change.
func LoadTrust(path string) (*Trust, error) {
	t := &Trust{path: path, dirs: map[string]trustEntry{}}
	if path == "" {
		return t, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		t.broken = fmt.Errorf("trust file: %w", err)
		return t, t.broken
	}
	var f trustFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.broken = fmt.Errorf("trust file %s: %w (delete it to trust nothing)", path, err)
		return t, t.broken
	}
	for d, e := range f.Dirs {
		if filepath.IsAbs(d) {
			t.dirs[filepath.Clean(d)] = e
		}
	}
	return t, nil
}

// Hash returns the hash of dir's project file when the person trusted it;
// false when dir is not trusted.
func (t *Trust) Hash(dir string) (string, bool) {
	if t == nil || dir == "" {
		return "", false
	}
	e, ok := t.dirs[filepath.Clean(dir)]
	return e.Hash, ok
}

// Dirs returns the trusted directories, sorted.
func (t *Trust) Dirs() []string { return sortedKeys(t.dirs) }

// Add trusts dir, with its project file as hash says it is, from now on,
// and saves the file.
func (t *Trust) Add(dir, hash string, now time.Time) error {
	if err := t.refresh(); err != nil {
		return err
	}
	dir = filepath.Clean(dir)
	old, had := t.dirs[dir]
	if had && old.Hash == hash {
		return nil
	}
	t.dirs[dir] = trustEntry{At: now.UTC(), Hash: hash}
	if err := t.save(); err != nil {
		if had {
			t.dirs[dir] = old
		} else {
			delete(t.dirs, dir)
		}
		return err
	}
	return nil
}

// Remove stops trusting dir and saves the file; false when it was not trusted.
func (t *Trust) Remove(dir string) (bool, error) {
	if err := t.refresh(); err != nil {
		return false, err
	}
	dir = filepath.Clean(dir)
	e, ok := t.dirs[dir]
	if !ok {
		return false, nil
	}
	delete(t.dirs, dir)
	if err := t.save(); err != nil {
		t.dirs[dir] = e
		return false, err
	}
	return true, nil
}

// refresh reads the file again before a change, so that what another
// forge trusted or revoked since this one started is kept, not undone.
func (t *Trust) refresh() error {
	if t.broken != nil {
		return t.broken
	}
	if t.path == "" {
		return nil
	}
	fresh, err := LoadTrust(t.path)
	if err != nil {
		return err
	}
	t.dirs = fresh.dirs
	return nil
}

// save writes the file whole through a temporary file, so a crash leaves the
// old list or the new one, never half of one.
func (t *Trust) save() error {
	if t.path == "" {
		return nil
	}
	data, err := json.MarshalIndent(trustFile{Dirs: t.dirs}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(t.path), 0o700); err != nil {
		return fmt.Errorf("trust file: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(t.path), ".trusted-*.json")
	if err != nil {
		return fmt.Errorf("trust file: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(append(data, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), t.path)
	}
	if err != nil {
		return fmt.Errorf("trust file %s: %w", t.path, err)
	}
	return nil
}

// Bounds on what ProjectHash reads: a .forge directory is a few small
// files. Past them the project cannot be verified, so it is never trusted.
const (
	maxHashedBytes   = 64 << 20
	maxHashedEntries = 10000
)

// errUnverifiable is a .forge too large for ProjectHash to read whole.
var errUnverifiable = errors.New("its .forge directory is too large to verify (over 10,000 entries or 64 MiB), so it cannot be trusted")

// ProjectHash is what trust records of the project at dir: a sha256 over
// everything under its .forge directory (settings, hook scripts, commands,
// agents), names and contents, so that a pull or an edit that changes any
// of them needs the person's word again. A symbolic link counts by its
// target's name and, when that is a file, by the file's content: a hook
// script linked from elsewhere is covered too.
func ProjectHash(dir string) (string, error) {
	root := filepath.Join(dir, ProjectDirName)
	if fi, err := os.Lstat(root); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return "", fmt.Errorf("project %s: %s is a symbolic link; forge reads a project's settings only from a real directory", dir, root)
	}
	h := sha256.New()
	budget, entries := int64(maxHashedBytes), 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && path == root {
				return filepath.SkipAll
			}
			return err
		}
		if entries++; entries > maxHashedEntries {
			return errUnverifiable
		}
		rel, _ := filepath.Rel(root, path)
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "link %q %q\n", rel, target)
			if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
				return hashFile(h, rel, path, &budget)
			}
			return nil
		}
		if d.Type().IsRegular() {
			return hashFile(h, rel, path, &budget)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("project %s: %w", dir, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashFile adds one file's name, size and content to h, within budget.
func hashFile(h io.Writer, rel, path string, budget *int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() > *budget {
		return errUnverifiable
	}
	fmt.Fprintf(h, "file %q %d\n", rel, fi.Size())
	n, err := io.Copy(h, io.LimitReader(f, *budget+1))
	if *budget -= n; *budget < 0 {
		return errUnverifiable
	}
	return err
}

// projectFile is the settings file of the project at dir.
func projectFile(dir string) string { return filepath.Join(dir, ProjectDirName, "config.yaml") }
