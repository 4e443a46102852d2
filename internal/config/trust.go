package config

import (
	"encoding/json"
	"errors"
	"fmt"
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

// projectFile is the settings file of the project at dir.
func projectFile(dir string) string { return filepath.Join(dir, ProjectDirName, "config.yaml") }
