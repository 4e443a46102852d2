package proc

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// BecomeSubreaper makes this process the child subreaper of its descendants
// (prctl PR_SET_CHILD_SUBREAPER): a process whose parent exits is then
// reparented to it rather than to init, so that a command that double-forks
// or calls setsid stays within reach.
func BecomeSubreaper() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("become the subreaper of forge's processes: %w", err)
	}
	return nil
}

func liveDescendants(root int) ([]procInfo, error) {
	if kids, ok := taskChildren(root); ok && len(kids) == 0 {
		return nil, nil // every descendant hangs off a child: no scan of /proc
	}
	all, err := processes()
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	var live []procInfo
	for _, p := range descendants(all, root) {
		if !p.dead() {
			live = append(live, p)
		}
	}
	return live, nil
}

// Polling of EndDescendants: how often it looks again, and how long it
// keeps sending SIGKILL before it gives up on a process (one stuck in
// uninterruptible sleep on a dead network file system, say).
const (
	pollInterval = 10 * time.Millisecond
	killWait     = 3 * time.Second
)

// EndDescendants ends every live process that descends from root: SIGTERM
// (and SIGCONT, so that a stopped process can act on it), then SIGKILL to
// those still alive after grace. Processes that appear meanwhile (started
// by a dying parent, or reparented) get the same treatment. It returns once
// none is alive, or an error naming those that outlived SIGKILL.
func EndDescendants(root int, grace time.Duration) error {
	termed := map[procInfo]bool{}
	deadline := time.Now().Add(grace)
	for {
		live, err := liveDescendants(root)
		if err != nil {
			return err
		}
		if len(live) == 0 {
			return nil
		}
		if !time.Now().Before(deadline) {
			break
		}
		for _, p := range live {
			if key := p.identity(); !termed[key] {
				termed[key] = true
				signalProc(p, unix.SIGTERM)
				signalProc(p, unix.SIGCONT)
			}
		}
		time.Sleep(min(pollInterval, time.Until(deadline)))
	}
	deadline = time.Now().Add(killWait)
	for {
		live, err := liveDescendants(root)
		if err != nil {
			return err
		}
		if len(live) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			pids := make([]string, len(live))
			for i, p := range live {
				pids[i] = strconv.Itoa(p.pid)
			}
			return fmt.Errorf("processes %s are still alive after SIGKILL", strings.Join(pids, ", "))
		}
		for _, p := range live {
			signalProc(p, unix.SIGKILL)
		}
		time.Sleep(pollInterval)
	}
}

// identity is what names one process over time: its pid and start time.
func (p procInfo) identity() procInfo { return procInfo{pid: p.pid, start: p.start} }

// signalProc sends sig to the process p describes, and to no other: a pid
// file descriptor pins the pid, and the start time read after opening it
// says whether it still names the same process (the pid may have been
// reused since /proc was read). Without pidfds (before Linux 5.3) the
// check and the signal are separate steps, a far smaller window than the
// scan's.
func signalProc(p procInfo, sig unix.Signal) {
	fd, err := unix.PidfdOpen(p.pid, 0)
	if err != nil {
		if errors.Is(err, unix.ESRCH) {
			return
		}
		if cur, ok := readProc(p.pid); ok && cur.start == p.start {
			_ = unix.Kill(p.pid, sig)
		}
		return
	}
	defer unix.Close(fd)
	if cur, ok := readProc(p.pid); !ok || cur.start != p.start {
		return
	}
	_ = unix.PidfdSendSignal(fd, sig, nil, 0)
}

// reapOrphans reaps the zombie children of this process (self) that nothing
// else in it will wait for: orphans reparented to it as a subreaper. A
// global wait4(-1) would also take the exit status of a child that os/exec
// started, and that child's Cmd.Wait would then fail with ECHILD. So a
// zombie is only reaped when this process holds no pid file descriptor for
// it: os/exec (and os.StartProcess) hold one for each child they start,
// from the clone that creates it until Wait has reaped it, whenever the
// system supports pidfds (usesPidfds). Where it does not, os/exec waits by
// pid and the two cannot be told apart: then every zombie child is reaped
// only when all is true, which Guard.Cleanup does as forge exits.
func reapOrphans(self int, all bool) int {
	var zombies []procInfo
	for _, pid := range childrenOf(self) {
		if p, ok := readProc(pid); ok && p.dead() && p.ppid == self {
			zombies = append(zombies, p)
		}
	}
	if len(zombies) == 0 {
		return 0
	}
	var held map[int]bool
	if !all {
		held = pidfdTargets()
	}
	n := 0
	for _, z := range zombies {
		if held[z.pid] {
			continue
		}
		// Still the same zombie? One not held a moment ago may have been
		// reaped by its waiter since, and its pid reused.
		if cur, ok := readProc(z.pid); !ok || cur.start != z.start || !cur.dead() {
			continue
		}
		var ws unix.WaitStatus
		if pid, err := unix.Wait4(z.pid, &ws, unix.WNOHANG, nil); err == nil && pid == z.pid {
			n++
		}
	}
	return n
}

// childrenOf lists the children of self (this process): from
// /proc/self/task/*/children where the kernel has them, else from a scan of
// /proc.
func childrenOf(self int) []int {
	if kids, ok := taskChildren(self); ok {
		return kids
	}
	all, err := processes()
	if err != nil {
		return nil
	}
	var out []int
	for _, p := range all {
		if p.ppid == self {
			out = append(out, p.pid)
		}
	}
	return out
}

// taskChildren lists the children of pid from /proc/PID/task/*/children;
// false when the kernel does not offer them (CONFIG_PROC_CHILDREN) or pid
// is gone.
func taskChildren(pid int) ([]int, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil, false
	}
	var out []int
	ok := false
	for _, t := range tasks {
		b, err := os.ReadFile(dir + t.Name() + "/children")
		if err != nil {
			continue
		}
		ok = true
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out, ok
}

// pidfdTargets returns the pids this process holds pid file descriptors
// for, read from /proc/self/fd and /proc/self/fdinfo.
func pidfdTargets() map[int]bool {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil
	}
	held := map[int]bool{}
	for _, e := range ents {
		link, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err != nil || !strings.Contains(link, "pidfd") {
			continue
		}
		if pid, ok := fdinfoPid("/proc/self/fdinfo/" + e.Name()); ok {
			held[pid] = true
		}
	}
	return held
}

// fdinfoPid reads the "Pid:" line of a pidfd's fdinfo.
func fdinfoPid(path string) (int, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Pid:"); ok {
			pid, err := strconv.Atoi(strings.TrimSpace(v))
			return pid, err == nil && pid > 0
		}
	}
	return 0, false
}

// usesPidfds reports whether package os starts and waits for children
// through pid file descriptors here. It makes the checks os makes before it
// uses them (pidfd_open, waitid P_PIDFD, pidfd_send_signal).
var usesPidfds = sync.OnceValue(func() bool {
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	var info unix.Siginfo
	for {
		err = unix.Waitid(unix.P_PIDFD, fd, &info, unix.WEXITED|unix.WNOHANG, nil)
		if err != unix.EINTR {
			break
		}
	}
	if err != unix.ECHILD { // this process is not its own child
		return false
	}
	return unix.PidfdSendSignal(fd, 0, nil, 0) == nil
})

// startReaper reaps orphans whenever a child changes state (SIGCHLD), when
// that can be done without taking os/exec's children (usesPidfds); it
// returns the function that stops it.
func startReaper(self int) (stop func()) {
	if !usesPidfds() {
		return func() {}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, unix.SIGCHLD)
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-ch:
				reapOrphans(self, false)
			case <-quit:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(ch)
			close(quit)
			<-done
		})
	}
}

// reapAllAtExit reports whether Cleanup may reap every zombie child: only
// when os/exec's children cannot be told apart from orphans, as forge exits.
func reapAllAtExit() bool { return !usesPidfds() }
