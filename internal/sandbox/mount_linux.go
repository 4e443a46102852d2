package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// confine builds the sandbox's view of the files: every mount read-only,
// the writable places bound back read-write and the protected places in
// them read-only, the caches of read-only mode private copies, the
// credential places covered, and a /proc of the new pid namespace.
func confine(sp spec) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make the mounts private: %w", err)
	}
	for _, w := range sp.Writable {
		if err := bind(w, w); err != nil {
			return err
		}
	}
	shm, err := privateShm()
	if err != nil {
		return err
	}
	// The copies are mounted while the places that hold their upper
	// layers are still writable, as an overlay needs.
	back := slices.Clone(sp.Writable)
	for i, c := range sp.Private {
		mem := ""
		if shm != "" {
			mem = filepath.Join(shm, ".forge-cache", strconv.Itoa(i))
		}
		if privateCopy(c, sp.PrivateDir, mem) {
			back = append(back, c)
		}
	}
	if err := setReadOnly("/", true); err != nil {
		return err
	}
	if shm != "" {
		back = append(back, shm)
	}
	for _, w := range back {
		if err := setReadOnly(w, false); err != nil {
			return err
		}
	}
	if err := pin(sp.ReadOnly, sp.Writable); err != nil {
		return err
	}
	for _, r := range sp.ReadOnly {
		if err := bind(r, r); err != nil {
			return err
		}
		if err := setReadOnly(r, true); err != nil {
			return err
		}
	}
	if err := scratch(sp.Scratch, sp.Keep); err != nil {
		return err
	}
	if err := hide(sp.HideDirs, sp.HideFiles); err != nil {
		return err
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc for the sandbox: %w", err)
	}
	return nil
}

// pin makes each directory between a writable root and a read-only place
// in it a mount point of its own, still writable: the kernel renames and
// removes no mount point, so a command cannot move the directory that
// holds a protected file aside and put a directory of its own, with a file
// of its choosing, in its place (mv scripts old && mkdir scripts).
func pin(readOnly, writable []string) error {
	pinned := map[string]bool{}
	for _, r := range readOnly {
		var chain []string
		for d := filepath.Dir(r); d != filepath.Dir(d) && !slices.Contains(writable, d) && insideAny(d, writable); d = filepath.Dir(d) {
			chain = append(chain, d)
		}
		for i := len(chain) - 1; i >= 0; i-- {
			if d := chain[i]; !pinned[d] {
				if err := bind(d, d); err != nil {
					return err
				}
				pinned[d] = true
			}
		}
	}
	return nil
}

// bind mounts src on dst, with what is mounted below src.
func bind(src, dst string) error {
	if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s: %w", dst, err)
	}
	return nil
}

// setReadOnly makes the mount at path, and every mount below it,
// read-only (or read-write).
func setReadOnly(path string, ro bool) error {
	attr := &unix.MountAttr{}
	if ro {
		attr.Attr_set = unix.MOUNT_ATTR_RDONLY
	} else {
		attr.Attr_clr = unix.MOUNT_ATTR_RDONLY
	}
	if err := unix.MountSetattr(unix.AT_FDCWD, path, unix.AT_RECURSIVE, attr); err != nil {
		return fmt.Errorf("make %s %s: %w", path, map[bool]string{true: "read-only", false: "writable"}[ro], err)
	}
	return nil
}

// privateShm gives the sandbox a /dev/shm of its own: the host's is
// shared by every program, and read-only it would break what uses shared
// memory (Python's multiprocessing).
// It returns where it is, "" when the system has none.
func privateShm() (string, error) {
	if fi, err := os.Stat("/dev/shm"); err != nil || !fi.IsDir() {
		return "", nil
	}
	if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return "", fmt.Errorf("mount /dev/shm: %w", err)
	}
	return "/dev/shm", nil
}

// scratchRoot holds the upper layers of the private copies, in the
// sandbox's own /dev/shm.
const scratchRoot = "/dev/shm/.forge-scratch"

// scratch makes each place a private copy: an overlay whose lower layer
// is the place as it is and whose changes go to memory, gone when the
// sandbox ends. Where an overlay cannot be mounted the place is an empty
// private directory instead. The places of keep inside them stay the
// real ones, read-only.
func scratch(places, keep []string) error {
	if len(places) == 0 {
		return nil
	}
	kept := make([]int, len(keep))
	for i, k := range keep {
		fd, err := unix.Open(k, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("keep %s: %w", k, err)
		}
		defer unix.Close(fd)
		kept[i] = fd
	}
	for i, p := range places {
		if err := overlay(p, filepath.Join(scratchRoot, strconv.Itoa(i))); err == nil {
			continue
		}
		if err := unix.Mount("tmpfs", p, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
			return fmt.Errorf("make %s private: %w", p, err)
		}
	}
	for i, k := range keep {
		if err := os.MkdirAll(k, 0o755); err != nil {
			return fmt.Errorf("keep %s: %w", k, err)
		}
		if err := bind("/proc/self/fd/"+strconv.Itoa(kept[i]), k); err != nil {
			return err
		}
		if err := setReadOnly(k, true); err != nil {
			return err
		}
	}
	return nil
}

// privateCopy makes the cache at dir the sandbox's own copy: an overlay
// whose upper layer is kept under keep (one per cache, by its name), so
// that what commands write there stays for the next command but never
// reaches the real cache. Where that cannot be mounted (a file system
// without user extended attributes, another command holding the same
// layer), the copy's upper layer is in mem, the sandbox's own /dev/shm,
// and ends with the command;
// where no overlay can be mounted at all, it says so, and the cache stays
// read-only with the rest, which fails a build rather than letting it
// plant code.
func privateCopy(dir, keep, mem string) bool {
	if keep != "" {
		sum := sha256.Sum256([]byte(dir))
		if overlay(dir, filepath.Join(keep, hex.EncodeToString(sum[:8]))) == nil {
			return true
		}
	}
	if mem != "" && overlay(dir, mem) == nil {
		return true
	}
	return false
}

// overlay mounts an overlay on dir with dir as its lower layer and the
// upper layer under work.
func overlay(dir, work string) error {
	if strings.ContainsAny(dir, ",:\\") {
		return fmt.Errorf("%s: a path the overlay options cannot name", dir)
	}
	upper, wd := filepath.Join(work, "upper"), filepath.Join(work, "work")
	for _, d := range []string{upper, wd} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	opts := "lowerdir=" + dir + ",upperdir=" + upper + ",workdir=" + wd + ",userxattr"
	return unix.Mount("overlay", dir, "overlay", unix.MS_NOSUID|unix.MS_NODEV, opts)
}

// hide covers each directory with an empty read-only one and each file
// with an empty read-only file.
func hide(dirs, files []string) error {
	for _, d := range dirs {
		if err := unix.Mount("tmpfs", d, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC,
			"size=4k,nr_inodes=2,mode=0755"); err != nil {
			return fmt.Errorf("hide %s: %w", d, err)
		}
	}
	for _, f := range files {
		if err := unix.Mount("/dev/null", f, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("hide %s: %w", f, err)
		}
		if err := setReadOnly(f, true); err != nil {
			return err
		}
	}
	return nil
}
