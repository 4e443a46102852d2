//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"syscall"
)

// fileIdentity is the device and inode of the file at path (not of what a
// link there points to).
func fileIdentity(path string) (dev, ino uint64, err error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return 0, 0, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, fmt.Errorf("%s: the system gives no file identity", path)
	}
	return uint64(st.Dev), uint64(st.Ino), nil
}
