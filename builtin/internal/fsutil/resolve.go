package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrNUL is returned for a path that contains a NUL byte, which no file
// system accepts and which would otherwise surface as a confusing EINVAL.
var ErrNUL = errors.New("path contains a NUL byte")

// ErrOutsideRoots is the cause of a refused write, or confined read, outside
// every allowed root.
var ErrOutsideRoots = errors.New("path is outside the allowed roots")

// Abs returns p as a clean absolute path: a relative p is taken relative to
// wd (the process's working directory when wd is empty).
func Abs(wd, p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", fmt.Errorf("invalid path %q: %w", p, ErrNUL)
	}
	if p == "" {
		return "", errors.New("the path is empty")
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if wd == "" {
		cwd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("resolve %s: %w", p, err)
		}
		wd = cwd
	} else if strings.IndexByte(wd, 0) >= 0 {
		return "", fmt.Errorf("invalid working directory %q: %w", wd, ErrNUL)
	}
	if !filepath.IsAbs(wd) {
		a, err := filepath.Abs(wd)
		if err != nil {
			return "", fmt.Errorf("resolve %s: %w", wd, err)
		}
		wd = a
	}
	return filepath.Join(wd, p), nil
}

// RealPath resolves every symbolic link in the absolute path p, including
// when p or some of its parents do not exist yet: the deepest existing
// ancestor is resolved and the missing rest is appended to it. A dangling
// link is followed to where it points, so it cannot hide a target outside
// the allowed roots.
func RealPath(p string) (string, error) { return realPath(filepath.Clean(p), 0) }

func realPath(p string, depth int) (string, error) {
	if depth > 40 {
		return "", fmt.Errorf("resolve %s: too many levels of symbolic links", p)
	}
	var rest []string
	cur := p
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return appendRest(real, rest), nil
		}
		fi, lerr := os.Lstat(cur)
		if lerr == nil {
			if fi.Mode()&fs.ModeSymlink == 0 {
				return "", fmt.Errorf("resolve %s: %w", p, err)
			}
			target, rerr := os.Readlink(cur)
			if rerr != nil {
				return "", fmt.Errorf("resolve %s: %w", p, rerr)
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(cur), target)
			}
			resolved, rerr := realPath(filepath.Clean(target), depth+1)
			if rerr != nil {
				return "", rerr
			}
			return appendRest(resolved, rest), nil
		}
		if !errors.Is(lerr, fs.ErrNotExist) && !isNotDir(lerr) {
			return "", fmt.Errorf("resolve %s: %w", p, lerr)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return appendRest(cur, rest), nil
		}
		rest = append(rest, filepath.Base(cur))
		cur = parent
	}
}

func appendRest(base string, rest []string) string {
	for i := len(rest) - 1; i >= 0; i-- {
		base = filepath.Join(base, rest[i])
	}
	return base
}

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// Within reports whether path is root or inside it. Both must be clean.
func Within(path, root string) bool {
	if path == root {
		return true
	}
	if root == string(filepath.Separator) {
		return strings.HasPrefix(path, root)
	}
	return strings.HasPrefix(path, root+string(filepath.Separator))
}

// OutsideError says that a path was refused because it is outside the
// working directory and every allowed root.
type OutsideError struct {
	Path    string   // the path as the caller gave it, made absolute
	Allowed []string // the working directory and the allowed roots
	// Read says the refused operation was a read, which only happens when
	// reads are confined; otherwise it was a write.
	Read bool
}

func (e *OutsideError) Error() string {
	allowed := strings.Join(e.Allowed, ", ")
	if e.Read {
		return fmt.Sprintf("%s is outside the working directory; reads are confined (read.allow_outside: false); allowed: %s", e.Path, allowed)
	}
	return fmt.Sprintf("Refusing to write outside the working directory: %s (allowed: %s)", e.Path, allowed)
}

// Unwrap lets errors.Is(err, ErrOutsideRoots) work.
func (e *OutsideError) Unwrap() error { return ErrOutsideRoots }

// SpecialFile reports why a file of mode m must not be opened for reading
// (a device, FIFO or socket could block or never end), or "" when it may.
func SpecialFile(m fs.FileMode) string {
	switch {
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "device file"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeIrregular != 0:
		return "irregular file"
	}
	return ""
}

// Describe turns an error from opening or stating path into the message the
// user sees: "File not found: PATH", "Permission denied: PATH", ...
func Describe(path string, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "File not found: " + path
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied: " + path
	case isNotDir(err):
		return "Not a directory: a parent of " + path + " is a file"
	case errors.Is(err, ErrWouldBlock):
		return "Cannot read " + path + ": it is not a regular file: " + ErrWouldBlock.Error()
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("Cannot access %s: %v", path, pe.Err)
	}
	return fmt.Sprintf("Cannot access %s: %v", path, err)
}
