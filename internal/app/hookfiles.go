package app

import (
	"fmt"
	"os"
	"time"

	"github.com/forgehq/forge/internal/hooks"
)

// hookFiles are the files each hook's command runs and loads (its script,
// the libraries it sources, the modules it imports beside it), as they
// were when forge started. A hook runs outside the sandbox, and a
// sandboxed command may write where those files are, or create one that
// was missing (a script's dependency that does not exist yet cannot be
// made read-only): a hook whose files are no longer as they were does
// not run, and says so.
type hookFiles map[string][]fileState

// fileState is what a file was: missing, or its kind, size, time and inode.
type fileState struct {
	path  string
	found bool
	mode  os.FileMode
	size  int64
	mtime time.Time
	ino   uint64
}

// hookFiles notes the files of every configured hook's command now.
func (a *App) hookFiles() hookFiles {
	hf := hookFiles{}
	for _, h := range a.cfg.Hooks {
		for _, p := range a.hookCode(h) {
			hf[h.Command] = append(hf[h.Command], statFile(p))
		}
	}
	return hf
}

// statFile is the state of the file at path, not following a link.
func statFile(path string) fileState {
	fi, err := os.Lstat(path)
	if err != nil {
		return fileState{path: path}
	}
	st := fileState{path: path, found: true, mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime(), ino: inode(fi)}
	if fi.IsDir() {
		st.size, st.mtime = 0, time.Time{} // a package's directory changes as it is used
	}
	return st
}

// verify says whether h's files are as they were when forge started.
func (hf hookFiles) verify(h hooks.Hook) error {
	for _, was := range hf[h.Command] {
		if now := statFile(was.path); now != was {
			return fmt.Errorf("%s changed since forge started (a command of the agent's may have written it): "+
				"forge runs a hook only as it was then; start forge again to run it as it is now", was.path)
		}
	}
	return nil
}
