package sandbox

import (
	"io/fs"
	"syscall"
	"time"
)

// changedSince says the file's status changed at or after t.
func changedSince(fi fs.FileInfo, t time.Time) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	return !time.Unix(st.Ctimespec.Sec, st.Ctimespec.Nsec).Before(t)
}
