package sandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock is spoken to directly rather than through go-landlock: that
// library enforces a ruleset on every thread of the process, which, on
// kernels before Landlock ABI 8, takes libpsx, C code linked into forge
// whenever cgo is on. The sandbox needs none of it: it applies the
// ruleset to one locked thread and starts the command from that thread,
// and a child inherits its parent thread's domain.

// The file access rights, by the ABI that brought them.
const (
	llRead = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	llV1   = llRead | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR |
		unix.LANDLOCK_ACCESS_FS_REMOVE_FILE | unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR |
		unix.LANDLOCK_ACCESS_FS_MAKE_REG | unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO |
		unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK | unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	// llFile are the rights a rule on a file (not a directory) may grant.
	llFile = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
		unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
)

// landlockABI is the kernel's Landlock ABI version; 0 without Landlock.
func landlockABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// handledRights are the file access rights the kernel of ABI abi can
// restrict.
func handledRights(abi int) uint64 {
	h := uint64(llV1)
	if abi >= 2 {
		h |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		h |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		h |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	if abi >= 9 {
		h |= unix.LANDLOCK_ACCESS_FS_RESOLVE_UNIX
	}
	return h
}

// landlockRule grants rights beneath a path.
type landlockRule struct {
	path   string
	rights uint64
}

// devices are the device files any program writes to.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"}

// landlockRules are what the command may do: read and run everything;
// write in the writable places and the private copies, the devices every
// program writes to, ptys, the private /dev/shm and /proc (this process
// writes its child's user namespace maps there); reach forge's proxy.
// Connecting to another unix socket made outside the sandbox is refused
// where the kernel can (ABI 9); the seccomp filter refuses every unix
// socket anyway (denyUnixSockets).
func landlockRules(sp spec, handled uint64) []landlockRule {
	write := handled &^ unix.LANDLOCK_ACCESS_FS_RESOLVE_UNIX
	rules := []landlockRule{{"/", llRead}, {"/proc", write}, {"/dev/pts", write}, {"/dev/shm", write}}
	for _, d := range devices {
		rules = append(rules, landlockRule{d, llFile &^ unix.LANDLOCK_ACCESS_FS_EXECUTE})
	}
	for _, p := range slices.Concat(sp.Writable, sp.Scratch, sp.Private) {
		rules = append(rules, landlockRule{p, write})
	}
	if sp.Proxy != "" { // forge's own directory for it
		rules = append(rules, landlockRule{filepath.Dir(sp.Proxy), llRead | unix.LANDLOCK_ACCESS_FS_RESOLVE_UNIX})
	}
	return rules
}

// restrict applies no_new_privs, Landlock and the seccomp filter that
// refuses unix sockets to the calling thread, which must be locked to its
// goroutine and start the command: the command inherits them. Landlock is
// best effort (without it in the kernel, the mounts still confine); the
// filter is not.
func restrict(sp spec) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	abi := landlockABI()
	if err := landlock(sp, abi); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return denyUnixSockets(abi)
}

// landlock applies the ruleset of landlockRules, and from ABI 6 on keeps
// the command from abstract unix sockets made outside (the network
// namespace already separates them; this holds if it did not).
func landlock(sp spec, abi int) error {
	if abi == 0 {
		return nil
	}
	handled := handledRights(abi)
	attr := unix.LandlockRulesetAttr{Handled_access_fs: handled}
	size := unsafe.Sizeof(attr.Handled_access_fs)
	if abi >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
		size = unsafe.Offsetof(attr.Scoped) + unsafe.Sizeof(attr.Scoped)
	}
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return fmt.Errorf("create a ruleset: %w", errno)
	}
	defer unix.Close(int(fd))
	for _, r := range landlockRules(sp, handled) {
		if err := addRule(int(fd), r.path, r.rights&handled); err != nil {
			return err
		}
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); errno != 0 {
		return fmt.Errorf("restrict: %w", errno)
	}
	return nil
}

// addRule grants rights beneath path; a path that is not there is left
// out, and a file gets the rights a file can have.
func addRule(ruleset int, path string, rights uint64) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("stat %s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		rights &= llFile
	}
	if rights == 0 {
		return nil
	}
	attr := unix.LandlockPathBeneathAttr{Allowed_access: rights, Parent_fd: int32(fd)}
	if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&attr)), 0, 0, 0); errno != 0 {
		return fmt.Errorf("grant %s: %w", path, errno)
	}
	return nil
}
