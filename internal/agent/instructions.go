package agent

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// projectInstructions are the files a project's instructions are read
// from, the shared convention first.
var projectInstructions = []string{"AGENTS.md", "CLAUDE.md"}

// maxInstructions bounds the project instructions sent with every request:
// tokens are the user's money.
const maxInstructions = 16 << 10

// instructions are what readInstructions found.
type instructions struct {
	text, name string
	// notices name each file not read, or not read whole, and why.
	notices []string
}

// readInstructions returns the first project instructions file of dir
// that is a regular file inside root (the project), cut at
// maxInstructions. A file is refused, with a notice, when it is a link
// that leaves the project (to ~/.aws/credentials, /proc/self/environ)
// or is not a regular file (a directory, a FIFO, a device): its text
// would go to the model with every request. A link to a file inside the
// project is read.
func readInstructions(dir, root string) instructions {
	var in instructions
	for _, name := range projectInstructions {
		path := filepath.Join(dir, name)
		text, cut, err := readInstruction(path, root)
		if err == errNoFile {
			continue
		}
		if err != nil {
			in.notices = append(in.notices, fmt.Sprintf("%s is not read: %v", path, err))
			continue
		}
		if cut {
			in.notices = append(in.notices, fmt.Sprintf("%s is longer than 16 KiB: only its first 16 KiB are sent", path))
		}
		if text != "" {
			in.text, in.name = text, name
			return in
		}
	}
	return in
}

// errNoFile is an instructions file that does not exist: nothing to say.
var errNoFile = fmt.Errorf("no such file")

// readInstruction reads one instructions file, saying whether it was cut.
func readInstruction(path, root string) (string, bool, error) {
	if _, err := os.Lstat(path); err != nil {
		if os.IsNotExist(err) {
			return "", false, errNoFile
		}
		return "", false, err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false, fmt.Errorf("it is a symbolic link to nothing readable")
	}
	if !inside(real, physicalDir(root)) && !inside(real, physicalDir(filepath.Dir(path))) {
		return "", false, fmt.Errorf("it is a symbolic link that leaves the project (to %s)", real)
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
	if hardLinked(fi) {
		return "", false, fmt.Errorf("it has other hard links, so it may be a file from outside the project")
	}
	buf, err := io.ReadAll(io.LimitReader(f, maxInstructions+1))
	if err != nil {
		return "", false, err
	}
	cut := len(buf) > maxInstructions
	text := strings.TrimSpace(string(buf[:min(len(buf), maxInstructions)]))
	if cut {
		text += "\n[... cut: the file is longer than 16 KiB]"
	}
	return text, cut, nil
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
