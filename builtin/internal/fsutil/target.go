package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Target is a file or directory that a tool call works on, and the way to
// reach it.
//
// A target inside the working directory or an allowed root is reached
// through an os.Root opened on that root: every operation on it resolves
// the path beneath the root's open descriptor and fails rather than leave
// it, even when a directory on the way is swapped for a link to elsewhere
// while the operation runs. Checking a resolved path and then using it by
// name, as forge once did, loses that race. The target of a read that is
// not confined is reached by its path.
type Target struct {
	// Path is the absolute path shown to the user: with links resolved for
	// a write (what will really be written), as given for a read.
	Path string
	root *os.Root // nil: reached by Path
	name string   // the target's name beneath root
	// refusal is what to report when an operation beneath root finds that
	// the way now leads outside it.
	refusal *OutsideError
	// preview marks a target resolved for a look only (PreviewTarget).
	preview bool
	// judged, when not nil, are the only places the target may be found
	// at (Judge).
	judged []string
}

// ErrChanged is the error of an operation on a target that is no longer
// where it was judged to be (Judge): a link on its way changed since.
var ErrChanged = errors.New("it is not the file that was checked: a link on its way changed since")

// Judge binds the target to paths, the places (absolute, every link
// resolved) that the approval policy judged it to be; nil binds it to
// nothing. The file OpenRegular opens, and the directory WriteAtomic
// writes in, must then be at one of them, reached without following any
// link, or the operation fails with ErrChanged: the decision was made on
// those places, and a link swapped in since must not take the call
// elsewhere, even beneath the root (to .git/hooks, say).
func (t *Target) Judge(paths []string) { t.judged = paths }

// WriteTarget resolves p (relative to wd, the process's working directory
// when empty) for writing. Every symbolic link is resolved, and the result
// must lie in wd or one of roots, which are resolved too, so that a working
// directory reached through a link still contains its own files; otherwise
// the error is an *OutsideError. Other errors are the message for the user
// when the path is invalid. The caller closes the target.
func WriteTarget(wd string, roots []string, p string) (*Target, error) {
	return confined(wd, roots, p, forWrite)
}

// PreviewTarget resolves p as WriteTarget does, for a look at what a write
// would change: it creates nothing. An allowed root that does not exist
// yet (a write would create it) gives a target reached by its path, where
// nothing exists. It cannot be written.
func PreviewTarget(wd string, roots []string, p string) (*Target, error) {
	return confined(wd, roots, p, forPreview)
}

// ReadTarget resolves p (relative to wd) for reading. When confine is false
// it may be anywhere and is reached by its path; when true it is judged and
// reached as a write target is, and refused with an *OutsideError when
// outside wd and roots. Path stays p made absolute, links unresolved. The
// caller closes the target.
func ReadTarget(wd string, roots []string, p string, confine bool) (*Target, error) {
	if !confine {
		abs, err := Abs(wd, p)
		if err != nil {
			return nil, err
		}
		return HostTarget(abs), nil
	}
	return confined(wd, roots, p, forRead)
}

// HostTarget is the target at the absolute path p, reached by its path.
func HostTarget(p string) *Target { return &Target{Path: p, name: p} }

// access is what a confined target is resolved for.
type access int

const (
	forRead access = iota
	forWrite
	forPreview // judged as a write, nothing created
)

// confined resolves p and opens the outermost of wd and roots that holds it
// as the target's root. Outermost: a root nested in another could itself be
// swapped for a link, which the outer root's checks would catch.
func confined(wd string, roots []string, p string, how access) (*Target, error) {
	abs, err := Abs(wd, p)
	if err != nil {
		return nil, err
	}
	real, err := RealPath(abs)
	if err != nil {
		return nil, err
	}
	if wd == "" {
		if wd, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("working directory: %w", err)
		}
	}
	refusal := &OutsideError{Path: abs, Read: how == forRead}
	base := ""
	for _, r := range append([]string{wd}, roots...) {
		if r == "" || strings.IndexByte(r, 0) >= 0 {
			continue
		}
		ra, err := Abs(wd, r)
		if err != nil {
			continue
		}
		refusal.Allowed = append(refusal.Allowed, ra)
		rr, err := RealPath(ra)
		if err == nil && Within(real, rr) && (base == "" || len(rr) < len(base)) {
			base = rr
		}
	}
	if base == "" {
		return nil, refusal
	}
	name, err := filepath.Rel(base, real)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", abs, err)
	}
	root, err := openRoot(base, how == forWrite)
	switch {
	case how == forPreview && errors.Is(err, fs.ErrNotExist):
		return &Target{Path: filepath.Join(base, name), name: filepath.Join(base, name)}, nil
	case how == forPreview && err != nil:
		return nil, errors.New(Describe(base, err))
	case err != nil:
		return nil, err
	}
	t := &Target{Path: abs, root: root, name: name, refusal: refusal, preview: how == forPreview}
	if how != forRead {
		t.Path = filepath.Join(root.Name(), name)
	}
	return t, nil
}

// openRoot opens the allowed root dir. A root that does not exist yet is
// created for a write, as the write would create any missing directory; for
// a read, the error is that of the missing file, whose path is the root's.
func openRoot(dir string, create bool) (*os.Root, error) {
	root, err := os.OpenRoot(dir)
	if create && errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, errors.New(Describe(dir, err))
		}
		root, err = os.OpenRoot(dir)
	}
	if err != nil && create {
		return nil, errors.New(Describe(dir, err))
	}
	return root, err
}

// Anchor makes the directory target reached from now on through a
// handle on the directory itself: a directory on the way to it, or inside
// it, swapped for a link in the middle of a walk cannot take the walk
// elsewhere (a link that stays inside is still followed). With judged
// places (Judge) the directory must be one of them, or the error is
// ErrChanged.
func (t *Target) Anchor() error {
	var r *os.Root
	var err error
	if t.root == nil {
		r, err = os.OpenRoot(t.name)
	} else {
		r, err = t.root.OpenRoot(t.name)
	}
	if err != nil {
		return t.wrap(err)
	}
	if t.judged != nil {
		if fi, err := r.Stat("."); err != nil || !sameAt(fi, t.judged) {
			_ = r.Close()
			return ErrChanged
		}
	}
	if t.root != nil {
		_ = t.root.Close()
	}
	t.root, t.name = r, "."
	return nil
}

// Close releases the root the target is reached through, if any.
func (t *Target) Close() error {
	if t.root == nil {
		return nil
	}
	return t.root.Close()
}

// HostPath is the absolute path of rel (slash-separated, "" for the target
// itself) below the target, as the user sees it.
func (t *Target) HostPath(rel string) string {
	if rel == "" {
		return t.Path
	}
	return filepath.Join(t.Path, filepath.FromSlash(rel))
}

// nameOf is rel's name for the operations: beneath the root, or the host
// path when there is none.
func (t *Target) nameOf(rel string) string {
	if rel == "" {
		return t.name
	}
	return filepath.Join(t.name, filepath.FromSlash(rel))
}

// Stat describes rel below the target, following links (beneath the root
// only, for a confined target).
func (t *Target) Stat(rel string) (fs.FileInfo, error) {
	if t.root == nil {
		return os.Stat(t.nameOf(rel))
	}
	fi, err := t.root.Stat(t.nameOf(rel))
	return fi, t.wrap(err)
}

// openFile opens rel below the target.
func (t *Target) openFile(rel string, flag int, perm fs.FileMode) (*os.File, error) {
	if t.root == nil {
		return os.OpenFile(t.nameOf(rel), flag, perm)
	}
	f, err := t.root.OpenFile(t.nameOf(rel), flag, perm)
	return f, t.wrap(err)
}

// ReadDir lists the directory rel below the target, sorted by name. It
// refuses, without waiting, anything that is not a directory by the time it
// is opened.
func (t *Target) ReadDir(rel string) ([]fs.DirEntry, error) {
	f, err := t.openFile(rel, dirFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// wrap turns the error of an operation that the root stopped from leaving
// it into the refusal the user would have had, had the path led outside
// when it was checked.
func (t *Target) wrap(err error) error {
	if err != nil && t.refusal != nil && escapes(err) {
		return t.refusal
	}
	return err
}

// escapes reports whether err is os.Root's refusal of a path that leads
// outside it. The os package does not export that error; its text is part
// of its behaviour, checked by TestEscapeIsRecognised.
func escapes(err error) bool {
	for err != nil {
		if err.Error() == "path escapes from parent" {
			return true
		}
		err = errors.Unwrap(err)
	}
	return false
}
