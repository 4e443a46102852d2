package memory

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/forgehq/forge/internal/filekind"
)

// errNoFile is an instructions file that does not exist: nothing to say.
var errNoFile = errors.New("no such file")

// readFile reads one instructions file, cut at max bytes, saying whether
// it was cut. It is refused when it is not a regular file (a directory, a
// FIFO, a device), when it has other hard links, and when it is a link
// whose target lies outside every directory of within (place names them
// for the notice; nil within is anywhere, for the person's own): its text would go to the model with every request, and
// a cloned repository must not turn ~/.aws/credentials or
// /proc/self/environ into a prompt.
func readFile(path string, within []string, place string, max int) (string, bool, error) {
	if _, err := os.Lstat(path); err != nil {
		if os.IsNotExist(err) {
			return "", false, errNoFile
		}
		return "", false, err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false, errors.New("it is a symbolic link to nothing readable")
	}
	if within != nil && !insideAny(real, within) {
		return "", false, fmt.Errorf("it is a symbolic link that leaves %s (to %s)", place, real)
	}
	// Opened without waiting (a FIFO has no writer) and without following
	// a link swapped in since: then what is open is checked, not the name.
	f, err := openNoWait(real)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", false, err
	}
	if !fi.Mode().IsRegular() {
		return "", false, fmt.Errorf("it is %s, not a regular file", kindOf(fi.Mode()))
	}
	if filekind.HardLinked(fi) {
		return "", false, errors.New("it has other hard links, so it may be a file from outside the project")
	}
	buf, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return "", false, err
	}
	cut := len(buf) > max
	text := strings.TrimSpace(strings.ToValidUTF8(string(buf[:min(len(buf), max)]), "\uFFFD"))
	if cut {
		text += fmt.Sprintf("\n[... cut: the file is longer than %d KiB]", max>>10)
	}
	return text, cut, nil
}

// insideAny says p is inside one of dirs, each taken as named or with its
// links resolved.
func insideAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if d != "" && (inside(p, filepath.Clean(d)) || inside(p, physicalDir(d))) {
			return true
		}
	}
	return false
}

// physicalDir is dir with its links resolved, dir itself when that fails.
func physicalDir(dir string) string {
	if p, err := filepath.EvalSymlinks(dir); err == nil {
		return p
	}
	return filepath.Clean(dir)
}

// inside says p is below dir.
func inside(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// kindOf names a file's kind for a notice.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
